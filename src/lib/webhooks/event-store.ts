/**
 * The listener's event log in node:sqlite (`<configDir>/events.db`, mode 0600): every delivery,
 * verified or not, with its headers, raw body, verdict, forward status, latency and attempt, and
 * the event ids that reached each target app (deduplication across restarts); both bounded.
 *
 * Group commit: record() counts a delivery at once (deduplication, attempt numbers) and keeps
 * it in the turn's batch; at the end of the event-loop turn the batch is written and committed
 * in one transaction (so no transaction stays open between turns, and a checkpoint's catch-up
 * can hold the next one back), and committed() resolves. The listener answers the service only then, so
 * a 2xx never leaves for an event whose "delivered" mark a crash could still lose. WAL with
 * synchronous=NORMAL by default: a commit survives a killed process; a power cut can lose the
 * memory of a forward (a resend could reach the app twice), never an event. `durability: 'full'`
 * (`svc webhooks listen --durability full`) is synchronous=FULL: each commit is on disk (fsync)
 * before its answers leave, so a power cut loses nothing either; group commit pays one fsync
 * per event-loop turn, not one per delivery. With `checkpointOffThread` (the listener), the
 * log's WAL checkpoints (copies into the database file, with their fsyncs) run on a worker
 * thread (sqlite/checkpointer.ts): a commit on the event loop only appends to the log.
 *
 * Bounded on disk too, whatever a sender posts: a refused delivery (bad or missing signature)
 * keeps only its first REFUSED_BODY_KEEP bytes (`bodySize` says how large it was), and the log as
 * a whole keeps within a byte budget (default 256 MiB of bodies and headers) besides its row cap.
 * Over either, the oldest rows go first, those whose forward failed (what `webhooks replay` is
 * for) only once nothing else is left to drop: a flood of refused posts cannot push them out. A
 * failed forward whose event has reached that app since (the service's retry) is no longer one
 * to replay: it goes with the others, so old failures do not crowd recent deliveries out.
 *
 * Pruning runs on the hot path (every 100 records), so there it never reads the whole log: rows
 * are counted by SQLite's count, the oldest to drop are looked for from where the last prune
 * stopped (failed forwards kept at the front are not read again), and the bytes are a running
 * total, summed in full only when it says the budget is passed, or when another process (a
 * replay, a second listener) has written here since, at most every SUM_AT_MOST_EVERY records.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { DatabaseSync, SQLInputValue } from 'node:sqlite'
import { configDir, configUnwritable } from '../config/store.js'
import { Checkpointer, type CommitGate } from '../sqlite/checkpointer.js'
import { ensureSchema } from './event-store-schema.js'

export type Verification = 'verified' | 'failed' | 'skipped'
/** What became of a delivery: forwarded with a 2xx, forward failed, rejected before forwarding, a duplicate, or filtered out. */
export type Outcome = 'forwarded' | 'failed' | 'rejected' | 'duplicate' | 'skipped'
export type DeliverySource = 'service' | 'replay'

/** One row of the listener's event log: a delivery the listener received and what became of it (not the sandbox's outgoing delivery, `contract/panel.ts` DeliveryRecord). */
export interface LoggedDelivery {
  seq: number
  receivedAt: string
  source: DeliverySource
  eventId?: string
  type?: string
  chargeId?: string
  attempt: number
  headers: Record<string, string>
  body: Uint8Array
  verification: Verification
  /** The verifier's reason when verification failed (or would have, under --skip-verify). */
  verifyReason?: string
  verifyMessage?: string
  outcome: Outcome
  /** The status the listener answered the sender with. */
  answeredStatus: number
  forwardUrl?: string
  /** The `--forward PATTERN=URL` pattern that routed it there; absent for the default target (a bare URL), no target, or a row logged before 0.3. */
  route?: string
  forwardStatus?: number
  latencyMs?: number
  error?: string
  responseSnippet?: string
  /** The body's full size in bytes when only its first REFUSED_BODY_KEEP were kept (a refused delivery); absent when `body` is whole. */
  bodySize?: number
}

export type NewLoggedDelivery = Omit<LoggedDelivery, 'seq' | 'attempt' | 'bodySize'> & { attempt?: number }

/** Of a refused (unverified) delivery's body, only this much is kept. */
export const REFUSED_BODY_KEEP = 4096
/** Default byte budget of the event log (bodies and headers). */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024

export interface EventStoreOptions {
  /** Database file; `:memory:` for tests. Default `<configDir>/events.db`. */
  path?: string
  env?: NodeJS.ProcessEnv
  /** Deliveries kept (default 10 000). */
  maxDeliveries?: number
  /** Delivered event ids kept for deduplication (default 100 000). */
  maxDelivered?: number
  /** Bytes of bodies and headers kept (default 256 MiB); the oldest rows beyond it are pruned. */
  maxBytes?: number
  /** 'normal' (default): a commit survives a killed process. 'full': it survives a power cut too (an fsync per commit). */
  durability?: Durability
  /**
   * WAL checkpoints on a worker thread instead of inside a commit on the event loop (the
   * listener, which commits all the time; a short-lived command keeps SQLite's own).
   */
  checkpointOffThread?: boolean
  /** Where a note goes when the checkpoint worker cannot run (default: nowhere). */
  log?: (line: string) => void
}

/** Deliveries recorded between two checkpoint cycles: each writes a few scattered index pages, so about 4 MB of log. */
const CHECKPOINT_EVERY_RECORDS = 500

/** What a commit survives: a killed process ('normal', SQLite synchronous=NORMAL in WAL) or a power cut too ('full', synchronous=FULL). */
export type Durability = 'normal' | 'full'
export const DURABILITIES: readonly Durability[] = ['normal', 'full']

export function defaultEventsDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'events.db')
}

interface Row {
  seq: number
  received_at: string
  source: string
  event_id: string | null
  event_type: string | null
  charge_id: string | null
  attempt: number
  headers: string
  body: Uint8Array
  verification: string
  verify_reason: string | null
  verify_message: string | null
  outcome: string
  answered_status: number
  forward_url: string | null
  forward_status: number | null
  latency_ms: number | null
  error: string | null
  response_snippet: string | null
  body_size: number | null
  route: string | null
}

/** What a row weighs in the byte budget: its body's bytes and its headers' characters (record() adds the same). */
const ROW_BYTES = 'length(body) + length(headers)'
/**
 * A row that may go before the failed forwards: anything else, or a failed forward whose event
 * has since reached its target (a later success marked it delivered there).
 */
const PRUNABLE_FIRST = `(outcome <> 'failed' OR EXISTS (SELECT 1 FROM delivered m WHERE m.event_id = deliveries.event_id AND +m.target IN (deliveries.forward_url, '*')))`

/** Records between two full sums of the log's bytes made because another process wrote, at the least. */
const SUM_AT_MOST_EVERY = 1000

/** Rows about to be pruned: how many, the newest of them, and their bytes. */
interface Span {
  k: number
  upTo: number | null
  n: number
}

/** The statements of the hot path, prepared once per connection. */
function prepare(db: DatabaseSync) {
  return {
    insert: db.prepare(
      `INSERT INTO deliveries (received_at, source, event_id, event_type, charge_id, attempt, headers, body, verification, verify_reason, verify_message,
        outcome, answered_status, forward_url, forward_status, latency_ms, error, response_snippet, body_size, route)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    markDelivered: db.prepare('INSERT OR REPLACE INTO delivered (event_id, target, delivered_at, seq) VALUES (?, ?, ?, ?)'),
    // `+target`: seek by the event id alone and test the (one or two) marks there; an index IN (?, '*') seeks twice through an ephemeral list, 2.4× the time.
    isDelivered: db.prepare("SELECT 1 AS hit FROM delivered WHERE event_id = ? AND +target IN (?, '*') LIMIT 1"),
    isDeliveredAnywhere: db.prepare('SELECT 1 AS hit FROM delivered WHERE event_id = ? LIMIT 1'),
    countFor: db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE event_id = ? AND source = 'service'"),
    countDeliveries: db.prepare('SELECT COUNT(*) AS n FROM deliveries'),
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    // Changes when another connection commits (https://sqlite.org/pragma.html#pragma_data_version).
    dataVersion: db.prepare('PRAGMA data_version'),
    // The ? oldest rows that are not failed forwards, after seq ?; the ? oldest of all.
    oldestSpanBesidesFailed: db.prepare(
      `SELECT COUNT(*) AS k, MAX(seq) AS upTo, COALESCE(SUM(n), 0) AS n FROM (SELECT seq, ${ROW_BYTES} AS n FROM deliveries WHERE seq > ? AND ${PRUNABLE_FIRST} ORDER BY seq ASC LIMIT ?)`,
    ),
    oldestSpan: db.prepare(`SELECT COUNT(*) AS k, MAX(seq) AS upTo, COALESCE(SUM(n), 0) AS n FROM (SELECT seq, ${ROW_BYTES} AS n FROM deliveries ORDER BY seq ASC LIMIT ?)`),
    countDelivered: db.prepare('SELECT COUNT(*) AS n FROM delivered'),
    pruneDelivered: db.prepare('DELETE FROM delivered WHERE rowid IN (SELECT rowid FROM delivered ORDER BY seq ASC LIMIT ?)'),
    totalBytes: db.prepare(`SELECT COALESCE(SUM(${ROW_BYTES}), 0) AS n FROM deliveries`),
    oldestBesidesFailed: db.prepare(`SELECT seq, ${ROW_BYTES} AS n FROM deliveries WHERE seq > ? AND ${PRUNABLE_FIRST} ORDER BY seq ASC`),
    oldest: db.prepare(`SELECT seq, ${ROW_BYTES} AS n FROM deliveries ORDER BY seq ASC`),
    pruneBesidesFailedUpTo: db.prepare(`DELETE FROM deliveries WHERE seq > ? AND seq <= ? AND ${PRUNABLE_FIRST}`),
    pruneUpTo: db.prepare('DELETE FROM deliveries WHERE seq <= ?'),
  }
}

/** A delivery recorded and not yet written: it is written with the others of its turn, in one transaction. */
interface Pending {
  params: SQLInputValue[]
  /** What record() returned; its seq is set once the row is written. */
  out: LoggedDelivery
  /** The delivered mark it makes (event id, target), when forwarded. */
  mark?: readonly [string, string]
  bytes: number
}

/** The records of this turn and the callers waiting for their commit. */
interface Batch {
  pending: Pending[]
  done: Promise<void>
  resolve(): void
  reject(err: unknown): void
}

export class EventStore implements CommitGate {
  readonly path: string
  /** What a commit survives, as SQLite reports it back for this connection (PRAGMA synchronous). */
  readonly durability: Durability
  private readonly maxDeliveries: number
  private readonly maxDelivered: number
  private readonly maxBytes: number
  private readonly st: ReturnType<typeof prepare>
  private insertsSincePrune = 0
  /** Bytes of the log as of the last full sum, plus what this store recorded and minus what it pruned since (summed when first needed). */
  private bytes?: number
  private recordsSinceSum = 0
  /** PRAGMA data_version at the last full sum. */
  private sumVersion?: number
  /**
   * Every row at or before this seq that could go first (PRUNABLE_FIRST) when a prune passed it is
   * pruned: the next prune looks after it. (A failed forward passed over, then delivered, goes
   * only with the failed ones.)
   */
  private prunedUpTo = 0
  private batch?: Batch
  /** Of the batch not yet written: service deliveries per event id (attempt numbers), and the delivered marks as `id\ntarget`. */
  private readonly pendingCounts = new Map<string, number>()
  private readonly pendingMarks = new Set<string>()
  private readonly pendingMarkIds = new Set<string>()
  private commitCount = 0
  private holds = 0
  private checkpointer?: Checkpointer
  /** Told after each commit with its number of records (the checkpointer). */
  onCommit?: (writes: number) => void

  private constructor(
    private readonly db: DatabaseSync,
    path: string,
    opts: EventStoreOptions,
  ) {
    this.path = path
    this.maxDeliveries = opts.maxDeliveries ?? 10_000
    this.maxDelivered = opts.maxDelivered ?? 100_000
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES
    this.st = prepare(db)
    // 2 = FULL, 1 = NORMAL (https://sqlite.org/pragma.html#pragma_synchronous); anything else is not what open() asked for.
    const level = Number((db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous)
    this.durability = level >= 2 ? 'full' : 'normal'
  }

  /** The log's bytes, summed over every row (a full read). */
  private sumBytes(): number {
    this.recordsSinceSum = 0
    this.sumVersion = this.dataVersion()
    this.bytes = Number((this.st.totalBytes.get() as { n: number }).n)
    return this.bytes
  }

  /** Opens (creating it 0600 if needed) the event log. node:sqlite is loaded only here. */
  static async open(opts: EventStoreOptions = {}): Promise<EventStore> {
    const path = opts.path ?? defaultEventsDbPath(opts.env)
    try {
      return await EventStore.openAt(path, opts)
    } catch (error) {
      // SVC_CONFIG_DIR a file, a read-only dir, a full disk: said as such, not as a bug in svc.
      throw configUnwritable(path, error, opts.env) ?? error
    }
  }

  private static async openAt(path: string, opts: EventStoreOptions): Promise<EventStore> {
    if (path !== ':memory:') {
      const dir = dirname(path)
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
      // Create the file ourselves so that it is never readable by others, whatever the umask.
      if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
      chmodSync(path, 0o600)
    }
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(path, { timeout: 5000 })
    // WAL: a commit appends to the log, with an fsync only under FULL (see the top of this file for the trade).
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'};`)
    ensureSchema(db)
    const store = new EventStore(db, path, opts)
    if (opts.checkpointOffThread && path !== ':memory:') store.checkpointer = new Checkpointer(db, path, store, opts.log ?? (() => {}), CHECKPOINT_EVERY_RECORDS, 'event log')
    return store
  }

  /** Keeps the next end-of-turn commit waiting (records go on joining its batch) until released; flush() still commits. */
  hold(): () => void {
    this.holds++
    let released = false
    return () => {
      if (released) return
      released = true
      if (--this.holds === 0 && this.batch) setImmediate(() => this.autoFlush())
    }
  }

  /** Whether WAL checkpoints run on the worker thread (false when asked not to, or fallen back to SQLite's own). */
  get checkpointsOffThread(): boolean {
    return this.checkpointer?.active ?? false
  }

  /** Resolves once no checkpoint is in flight on the worker. */
  checkpointIdle(): Promise<void> {
    return this.checkpointer?.idle() ?? Promise.resolve()
  }

  /**
   * Records one delivery and returns it with its attempt; its seq is set once it is written. The
   * delivery counts at once for this store's deduplication (isDelivered) and attempt numbers;
   * it is written and committed with the others of this event-loop turn, in one transaction
   * (nothing holds the database between turns): await committed() before telling anyone outside
   * the process that it is stored, or reading its seq.
   */
  record(rec: NewLoggedDelivery): LoggedDelivery {
    const batch = this.open()
    const attempt = rec.attempt ?? (rec.eventId ? this.countFor(rec.eventId) + 1 : 1)
    // A refused delivery is anyone's POST: keep enough to see what it was, not what it weighs.
    const cut = rec.outcome === 'rejected' && rec.body.length > REFUSED_BODY_KEEP
    const body = cut ? rec.body.subarray(0, REFUSED_BODY_KEEP) : rec.body
    const bodySize = cut ? rec.body.length : undefined
    const headers = JSON.stringify(rec.headers)
    const params: SQLInputValue[] = [
      rec.receivedAt,
      rec.source,
      rec.eventId ?? null,
      rec.type ?? null,
      rec.chargeId ?? null,
      attempt,
      headers,
      body,
      rec.verification,
      rec.verifyReason ?? null,
      rec.verifyMessage ?? null,
      rec.outcome,
      rec.answeredStatus,
      rec.forwardUrl ?? null,
      rec.forwardStatus ?? null,
      rec.latencyMs ?? null,
      rec.error ?? null,
      rec.responseSnippet ?? null,
      bodySize ?? null,
      rec.route ?? null,
    ]
    const out: LoggedDelivery = { ...rec, body, ...(bodySize !== undefined ? { bodySize } : {}), seq: 0, attempt }
    const mark = rec.outcome === 'forwarded' && rec.eventId ? ([rec.eventId, rec.forwardUrl ?? '*'] as const) : undefined
    batch.pending.push({ params, out, mark, bytes: body.length + headers.length })
    if (rec.eventId && rec.source === 'service') this.pendingCounts.set(rec.eventId, (this.pendingCounts.get(rec.eventId) ?? 0) + 1)
    if (mark) {
      this.pendingMarks.add(`${mark[0]}\n${mark[1]}`)
      this.pendingMarkIds.add(mark[0])
    }
    return out
  }

  /** Resolves once every delivery recorded so far is committed; rejects when that commit failed. */
  committed(): Promise<void> {
    return this.batch?.done ?? Promise.resolve()
  }

  /** Transactions committed so far by this store (deliveries per commit = records / commits, for the benchmarks and tests). */
  get commits(): number {
    return this.commitCount
  }

  /** Writes and commits what was recorded now, instead of at the end of the turn. */
  flush(): void {
    const batch = this.batch
    if (!batch) return
    this.batch = undefined
    this.pendingCounts.clear()
    this.pendingMarks.clear()
    this.pendingMarkIds.clear()
    const prunedBefore = this.prunedUpTo
    try {
      this.st.begin.run()
      for (const p of batch.pending) {
        p.out.seq = Number(this.st.insert.run(...p.params).lastInsertRowid)
        if (p.mark) this.st.markDelivered.run(p.mark[0], p.mark[1], p.out.receivedAt, p.out.seq)
        this.bytes = (this.bytes ?? this.sumBytes()) + p.bytes
        this.recordsSinceSum++
        if (++this.insertsSincePrune >= 100 || this.bytes > this.maxBytes) this.pruneNow()
      }
      this.st.commit.run()
    } catch (err) {
      // Nothing of the batch is stored (disk full, I/O, locked out): its waiters must not hear "stored".
      this.rollback()
      this.bytes = undefined
      this.prunedUpTo = prunedBefore
      batch.reject(err)
      return
    }
    this.commitCount++
    this.onCommit?.(batch.pending.length)
    batch.resolve()
  }

  /** The batch of this turn, opened (and its commit scheduled at the end of the turn) by its first record. */
  private open(): Batch {
    if (this.batch) return this.batch
    let resolve!: () => void
    let reject!: (err: unknown) => void
    const done = new Promise<void>((res, rej) => {
      resolve = res
      reject = rej
    })
    // Nobody may be waiting (a replay records and moves on): a failed commit must not crash the process.
    done.catch(() => {})
    this.batch = { pending: [], done, resolve, reject }
    setImmediate(() => this.autoFlush())
    return this.batch
  }

  /** The end-of-turn commit, unless a checkpoint's catch-up holds it (its release commits). */
  private autoFlush(): void {
    if (this.holds === 0) this.flush()
  }

  private rollback(): void {
    try {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
    } catch {
      // Already rolled back by SQLite.
    }
  }

  /** Whether this event already reached this target (its URL) with a 2xx, or any target when none is named (deduplication). */
  isDelivered(eventId: string, target?: string): boolean {
    const pending = target === undefined ? this.pendingMarkIds.has(eventId) : this.pendingMarks.has(`${eventId}\n${target}`) || this.pendingMarks.has(`${eventId}\n*`)
    return pending || (target === undefined ? this.st.isDeliveredAnywhere.get(eventId) : this.st.isDelivered.get(eventId, target)) !== undefined
  }

  /** Deliveries the service sent for this event so far, those of this turn included. */
  countFor(eventId: string): number {
    const row = this.st.countFor.get(eventId) as { n: number }
    return Number(row.n) + (this.pendingCounts.get(eventId) ?? 0)
  }

  /** Newest first. */
  list(opts: { limit?: number; type?: string; eventId?: string } = {}): LoggedDelivery[] {
    // A reader sees what this store recorded: the turn's batch is committed first.
    this.flush()
    const where: string[] = []
    const params: Array<string | number> = []
    if (opts.type) {
      if (opts.type.endsWith('*')) {
        where.push('event_type LIKE ?')
        params.push(`${opts.type.slice(0, -1).replace(/[%_]/g, '')}%`)
      } else {
        where.push('event_type = ?')
        params.push(opts.type)
      }
    }
    if (opts.eventId) {
      where.push('event_id = ?')
      params.push(opts.eventId)
    }
    params.push(opts.limit ?? 20)
    const sql = `SELECT * FROM deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`
    return (this.db.prepare(sql).all(...params) as unknown as Row[]).map(fromRow)
  }

  /**
   * (0.4) One page of the log, newest first, older than `beforeSeq`: `svc webhooks events --all`
   * follows pages by seq, so the whole log streams with one page in memory. Filters as `list`,
   * plus `outcome` and `since` (receivedAt at or after, RFC 3339).
   */
  page(opts: { limit: number; type?: string; eventId?: string; outcome?: string; since?: string; beforeSeq?: number }): LoggedDelivery[] {
    this.flush()
    const where: string[] = []
    const params: Array<string | number> = []
    if (opts.type?.endsWith('*')) {
      where.push('event_type LIKE ?')
      params.push(`${opts.type.slice(0, -1).replace(/[%_]/g, '')}%`)
    } else if (opts.type) {
      where.push('event_type = ?')
      params.push(opts.type)
    }
    for (const [column, value] of [
      ['event_id', opts.eventId],
      ['outcome', opts.outcome],
    ] as const) {
      if (value !== undefined) {
        where.push(`${column} = ?`)
        params.push(value)
      }
    }
    if (opts.since !== undefined) {
      where.push('received_at >= ?')
      params.push(opts.since)
    }
    if (opts.beforeSeq !== undefined) {
      where.push('seq < ?')
      params.push(opts.beforeSeq)
    }
    params.push(opts.limit)
    const sql = `SELECT * FROM deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`
    return (this.db.prepare(sql).all(...params) as unknown as Row[]).map(fromRow)
  }

  /**
   * The delivery to replay for an event: the newest one the service sent that passed
   * verification, else the newest the service sent, else a replay's copy.
   */
  findForReplay(eventId: string): LoggedDelivery | undefined {
    this.flush()
    const rows = this.db.prepare("SELECT * FROM deliveries WHERE event_id = ? ORDER BY (source = 'service') DESC, (verification = 'verified') DESC, seq DESC LIMIT 1").all(eventId) as unknown as Row[]
    return rows[0] ? fromRow(rows[0]) : undefined
  }

  /**
   * Drops the oldest rows beyond the caps (rows and bytes): refused deliveries, successes,
   * duplicates and filtered ones first; failed forwards only once they alone are over a cap.
   */
  prune(): void {
    this.flush()
    this.pruneNow()
  }

  private pruneNow(): void {
    this.insertsSincePrune = 0
    const marks = Number((this.st.countDelivered.get() as { n: number }).n)
    if (marks > this.maxDelivered) this.st.pruneDelivered.run(marks - this.maxDelivered)
    let rows = Number((this.st.countDeliveries.get() as { n: number }).n) - this.maxDeliveries
    if (rows > 0) {
      const span = this.st.oldestSpanBesidesFailed.get(this.prunedUpTo, rows) as unknown as Span
      if (span.upTo !== null) this.dropSpan(span, () => this.st.pruneBesidesFailedUpTo.run(this.prunedUpTo, span.upTo))
      rows -= Number(span.k)
    }
    if (rows > 0) {
      const span = this.st.oldestSpan.get(rows) as unknown as Span
      if (span.upTo !== null) this.dropSpan(span, () => this.st.pruneUpTo.run(span.upTo))
    }
    // The running total misses what other processes did: a full sum decides before pruning by bytes.
    let bytes = this.bytes ?? this.sumBytes()
    if (bytes > this.maxBytes || (this.recordsSinceSum >= SUM_AT_MOST_EVERY && this.dataVersion() !== this.sumVersion)) bytes = this.sumBytes()
    if (bytes <= this.maxBytes) return
    // Down to 90 % of the budget, so that the next deliveries do not each pay for a prune.
    let excess = bytes - Math.floor(this.maxBytes * 0.9)
    excess -= this.dropOldest(this.st.oldestBesidesFailed, [this.prunedUpTo], (upTo) => this.st.pruneBesidesFailedUpTo.run(this.prunedUpTo, upTo), excess)
    if (excess > 0) this.dropOldest(this.st.oldest, [], (upTo) => this.st.pruneUpTo.run(upTo), excess)
  }

  /** Deletes a span of rows (the oldest `k`, up to seq `upTo`) and counts what that frees. */
  private dropSpan(span: Span, drop: () => void): void {
    drop()
    this.bytes = (this.bytes ?? 0) - Number(span.n)
    this.prunedUpTo = Math.max(this.prunedUpTo, Number(span.upTo))
  }

  /** Deletes the oldest rows `rows` lists until at least `excess` bytes are gone; returns the bytes freed. */
  private dropOldest(rows: ReturnType<typeof prepare>['oldest'], params: number[], drop: (upTo: number) => void, excess: number): number {
    let freed = 0
    let upTo: number | undefined
    for (const row of rows.iterate(...params) as IterableIterator<{ seq: number; n: number }>) {
      freed += Number(row.n)
      upTo = Number(row.seq)
      if (freed >= excess) break
    }
    if (upTo !== undefined) this.dropSpan({ k: 0, upTo, n: freed }, () => drop(upTo))
    return freed
  }

  private dataVersion(): number {
    return Number((this.st.dataVersion.get() as { data_version: number }).data_version)
  }

  /**
   * Commits what is pending, then closes the database. A checkpoint worker is told to stop; it
   * keeps the process alive until it has closed its own connection (the last one out copies the
   * log into the database).
   */
  close(): void {
    if (!this.db.isOpen) return
    void this.checkpointer?.stop()
    this.flush()
    this.db.close()
  }
}

function fromRow(r: Row): LoggedDelivery {
  const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v)
  return {
    seq: Number(r.seq),
    receivedAt: r.received_at,
    source: r.source as DeliverySource,
    eventId: opt(r.event_id),
    type: opt(r.event_type),
    chargeId: opt(r.charge_id),
    attempt: Number(r.attempt),
    headers: JSON.parse(r.headers) as Record<string, string>,
    body: r.body,
    verification: r.verification as Verification,
    verifyReason: opt(r.verify_reason),
    verifyMessage: opt(r.verify_message),
    outcome: r.outcome as Outcome,
    answeredStatus: Number(r.answered_status),
    forwardUrl: opt(r.forward_url),
    ...(r.route === null || r.route === undefined ? {} : { route: r.route }),
    forwardStatus: r.forward_status === null ? undefined : Number(r.forward_status),
    latencyMs: r.latency_ms === null ? undefined : Number(r.latency_ms),
    error: opt(r.error),
    responseSnippet: opt(r.response_snippet),
    ...(r.body_size === null || r.body_size === undefined ? {} : { bodySize: Number(r.body_size) }),
  }
}
