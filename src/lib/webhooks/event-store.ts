/**
 * The listener's event log in node:sqlite (`<configDir>/events.db`, mode 0600): every delivery,
 * verified or not, with its headers, raw body, verdict, forward status, latency and attempt, and
 * the event ids that reached each target app (deduplication across restarts); both bounded.
 *
 * record() writes into a transaction left open until the end of the event-loop turn, so one
 * turn's deliveries share a commit, and returns at once with the row's seq and attempt;
 * committed() resolves once that commit is done. The listener answers the service only then, so
 * a 2xx never leaves for an event whose "delivered" mark a crash could still lose. WAL with
 * synchronous=NORMAL by default: a commit survives a killed process; a power cut can lose the
 * memory of a forward (a resend could reach the app twice), never an event. In journal mode
 * (`journal`, what `svc webhooks listen` runs) committed() resolves once the turn's records are
 * appended to the store's own journal (event-store-journal.ts), which a killed process keeps as
 * it keeps a commit; the transaction holding the same rows is committed JOURNAL_COMMIT_MS later
 * with those of the turns since, and the next store opened on the log puts a dead process's
 * journal into it. `durability: 'full'`
 * (`svc webhooks listen --durability full`) is what SQLite's synchronous=FULL gives in WAL mode,
 * the log synced to disk after each commit, done off the event loop: the commit appends to the
 * log as under NORMAL, then an fdatasync of the log runs on libuv's thread pool and committed()
 * resolves only once it is done, so no answer leaves before its record survives a power cut.
 * The event loop goes on meanwhile, and the commits made while a sync is running share the
 * next one (SQLite's FULL syncs inside COMMIT, blocking the loop once per commit).
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
 * and delivered marks are running counts, counted again (SQLite's COUNT, a full read) only when
 * another process has committed here since (PRAGMA data_version), the oldest to drop are looked for from where the last prune
 * stopped (failed forwards kept at the front are not read again), and the bytes are a running
 * total, summed in full only when it says the budget is passed, or when another process (a
 * replay, a second listener) has written here since, at most every SUM_AT_MOST_EVERY records.
 * Deduplication reads nothing from the log for a new event: an in-memory index of the events with
 * a delivered mark (event-index.ts) says "not delivered" at once, kept in step with this store's
 * records and prunes and with other processes' commits.
 */
import { chmodSync, closeSync, existsSync, fdatasync, mkdirSync, openSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { configDir, configUnwritable } from '../config/store.js'
import { EventIndex } from './event-index.js'
import { deadJournals, Journal, type JournalEntry, journalFrame, type RowValues, readJournal, removeJournal } from './event-store-journal.js'
import { CHECKPOINT_EVERY_RECORDS, cycleDue, EventStoreCheckpoint } from './event-store-checkpoint.js'
import { ensureSchema } from './event-store-schema.js'

export type Verification = 'verified' | 'failed' | 'skipped'
/** What became of a delivery: forwarded with a 2xx, forward failed, rejected before forwarding, a duplicate, or filtered out. */
export type Outcome = 'forwarded' | 'failed' | 'rejected' | 'duplicate' | 'skipped'
/** Who handed the delivery over: the service itself, a relay that held it (`svc webhooks listen --relay`), or `replay`. */
export type DeliverySource = 'service' | 'relay' | 'replay'

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
  /** Syncs the log's file to disk under durability full (fdatasync; tests hold it to see who waits). */
  sync?: (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void
  /**
   * Records between two WAL checkpoints made on a worker thread (event-store-checkpoint.ts); the
   * worker starts once that many were recorded, so a short command never starts one. 0: SQLite's
   * automatic checkpoints, inside the commits.
   */
  checkpointEvery?: number
  /**
   * (0.5) Answer on the store's own journal (event-store-journal.ts): committed() resolves once
   * the turn's records are appended there, one write, and the SQLite transaction holding the
   * same rows is committed JOURNAL_COMMIT_MS later with those of the turns since (or at
   * JOURNAL_COMMIT_RECORDS). A turn of JOURNAL_TURN_COMMIT records or more is committed at its
   * end instead, with the turns before it. What a commit survives is unchanged; other connections see a record
   * once that commit is made. Under durability normal, on a file; `svc webhooks listen` sets it.
   */
  journal?: boolean
}

/** In journal mode, the most a record waits before it is committed to the log (and seen by other processes). */
export const JOURNAL_COMMIT_MS = 25
/** In journal mode, records that make a commit due at once. */
export const JOURNAL_COMMIT_RECORDS = 500
/**
 * In journal mode, a turn that recorded this many or more is committed at its end instead of
 * appended to the journal, and its answers wait for that commit, as without a journal: the journal
 * serves a lone delivery, whose commit would be all its own. Under 50 connections (two or three
 * records a turn here) appending cost ~5 % more CPU per delivery than committing, measured with
 * this threshold at 1, 2, 4 and 8 (issue 39).
 */
export const JOURNAL_TURN_COMMIT = 2

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
    // Insert, else move the mark: apart, so that the running count of marks knows whether one was added.
    markDelivered: db.prepare('INSERT OR IGNORE INTO delivered (event_id, target, delivered_at, seq) VALUES (?, ?, ?, ?)'),
    remarkDelivered: db.prepare('UPDATE delivered SET delivered_at = ?, seq = ? WHERE event_id = ? AND target = ?'),
    // `+target`: seek by the event id alone and test the (one or two) marks there; an index IN (?, '*') seeks twice through an ephemeral list, 2.4× the time.
    isDelivered: db.prepare("SELECT 1 AS hit FROM delivered WHERE event_id = ? AND +target IN (?, '*') LIMIT 1"),
    isDeliveredAnywhere: db.prepare('SELECT 1 AS hit FROM delivered WHERE event_id = ? LIMIT 1'),
    countFor: db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE event_id = ? AND source <> 'replay'"),
    // A journal's record put back into the log at its own seq (recovery), and what holds that seq now.
    insertAt: db.prepare(
      `INSERT INTO deliveries (seq, received_at, source, event_id, event_type, charge_id, attempt, headers, body, verification, verify_reason, verify_message,
        outcome, answered_status, forward_url, forward_status, latency_ms, error, response_snippet, body_size, route)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    rowAt: db.prepare('SELECT received_at, event_id FROM deliveries WHERE seq = ?'),
    // What the in-memory index (event-index.ts) is loaded from: the marks of the deliveries after a seq (-1: all).
    marksAfter: returnArrays(db.prepare('SELECT event_id, seq FROM delivered WHERE seq > ?')),
    countDeliveries: db.prepare('SELECT COUNT(*) AS n FROM deliveries'),
    // Changes when another connection commits (https://sqlite.org/pragma.html#pragma_data_version).
    dataVersion: db.prepare('PRAGMA data_version'),
    // The ? oldest rows that are not failed forwards, after seq ?; the ? oldest of all.
    oldestSpanBesidesFailed: db.prepare(
      `SELECT COUNT(*) AS k, MAX(seq) AS upTo, COALESCE(SUM(n), 0) AS n FROM (SELECT seq, ${ROW_BYTES} AS n FROM deliveries WHERE seq > ? AND ${PRUNABLE_FIRST} ORDER BY seq ASC LIMIT ?)`,
    ),
    oldestSpan: db.prepare(`SELECT COUNT(*) AS k, MAX(seq) AS upTo, COALESCE(SUM(n), 0) AS n FROM (SELECT seq, ${ROW_BYTES} AS n FROM deliveries ORDER BY seq ASC LIMIT ?)`),
    countDelivered: db.prepare('SELECT COUNT(*) AS n FROM delivered'),
    // RETURNING: what went, so that the in-memory index lets go of it too (as arrays, not an object per row).
    pruneDelivered: returnArrays(db.prepare('DELETE FROM delivered WHERE rowid IN (SELECT rowid FROM delivered ORDER BY seq ASC LIMIT ?) RETURNING event_id')),
    totalBytes: db.prepare(`SELECT COALESCE(SUM(${ROW_BYTES}), 0) AS n FROM deliveries`),
    oldestBesidesFailed: db.prepare(`SELECT seq, ${ROW_BYTES} AS n FROM deliveries WHERE seq > ? AND ${PRUNABLE_FIRST} ORDER BY seq ASC`),
    oldest: db.prepare(`SELECT seq, ${ROW_BYTES} AS n FROM deliveries ORDER BY seq ASC`),
    pruneBesidesFailedUpTo: db.prepare(`DELETE FROM deliveries WHERE seq > ? AND seq <= ? AND ${PRUNABLE_FIRST}`),
    pruneUpTo: db.prepare('DELETE FROM deliveries WHERE seq <= ?'),
  }
}

function returnArrays(statement: StatementSync): StatementSync {
  statement.setReturnArrays(true)
  return statement
}

/** The open write transaction and the callers waiting for its commit. */
interface Batch {
  done: Promise<void>
  resolve(): void
  reject(err: unknown): void
}

export class EventStore {
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
   * Rows of deliveries and of delivered marks: counted (a full read each) only when first needed or
   * when another process wrote since, else kept by what this store inserted and deleted.
   */
  private rows?: number
  private marks?: number
  /** PRAGMA data_version at the last count of rows and marks. */
  private countVersion?: number
  /**
   * Every row at or before this seq that could go first (PRUNABLE_FIRST) when a prune passed it is
   * pruned: the next prune looks after it. (A failed forward passed over, then delivered, goes
   * only with the failed ones.)
   */
  private prunedUpTo = 0
  private batch?: Batch
  private commitCount = 0
  /** The done of the last batch committed: committed() waits for it while its sync runs. */
  private lastDone?: Promise<void>
  private readonly sync: NonNullable<EventStoreOptions['sync']>
  private walFd?: number
  private syncing?: Promise<void>
  private nextSync?: Promise<void>
  private syncCount = 0
  private readonly checkpointEvery: number
  private checkpoint?: EventStoreCheckpoint
  /** Records in the open transaction; records committed before the checkpoint worker started. */
  private batchRecords = 0
  private recordsBeforeCheckpoint = 0
  private commitsBeforeCheckpoint = 0
  /**
   * The events the log holds a delivered mark for (event-index.ts), loaded when first asked and
   * kept in step by record() and prune(); caught up with what another process committed (PRAGMA
   * data_version) before it answers, or loaded again when that process deleted marks.
   */
  private index?: EventIndex
  /** PRAGMA data_version when the index was last in step with the log. */
  private indexVersion?: number
  /** The index was checked against the log during this event-loop turn. */
  private checkedThisTurn = false
  /** Journal mode: the journal, this turn's frames for it, and the commit to come. */
  private readonly journal?: Journal
  private frames: Uint8Array[] = []
  private commitTimer?: NodeJS.Timeout
  /** Journal mode: every frame the journal held is in the log (a commit failed to put them back, else). */
  private journalInLog = true

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
    this.durability = opts.durability === 'full' && path !== ':memory:' ? 'full' : 'normal'
    this.sync = opts.sync ?? fdatasync
    this.checkpointEvery = path === ':memory:' ? 0 : (opts.checkpointEvery ?? CHECKPOINT_EVERY_RECORDS)
    if (opts.journal && path !== ':memory:' && this.durability === 'normal') this.journal = new Journal(path)
  }

  /** Whether committed() waits for an append to the journal rather than for a commit (the `journal` option). */
  get journaled(): boolean {
    return this.journal !== undefined
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
    // Under durability full too: the log's sync after each commit is ours, off the event loop (see the top of this file).
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;')
    ensureSchema(db)
    const store = new EventStore(db, path, opts)
    if (path !== ':memory:') store.recoverJournals()
    return store
  }

  /**
   * Puts into the log what the journals of processes killed before their commit hold, and removes
   * them. One that cannot be put in now (the log locked past the busy timeout, a full disk) stays
   * for the next store opened on the log: this one opens all the same.
   */
  private recoverJournals(): void {
    for (const file of deadJournals(this.path)) {
      try {
        this.putBack(readJournal(file))
        removeJournal(file)
      } catch {
        // Left where it is.
      }
    }
  }

  /**
   * Puts a journal's records into the log in one transaction: each at its seq, unless that row is
   * there already (committed before the journal started over) or another process has taken the
   * seq since (then at the next one). Marks the forwarded ones delivered, as record() does.
   */
  private putBack(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return
    this.db.exec('BEGIN IMMEDIATE')
    try {
      for (const { seq, values } of entries) {
        const row = this.st.rowAt.get(seq) as { received_at: string; event_id: string | null } | undefined
        if (row?.received_at === values[0] && row.event_id === values[2]) continue
        const at = row ? Number(this.st.insert.run(...values).lastInsertRowid) : (this.st.insertAt.run(seq, ...values), seq)
        this.mark(values, at)
      }
      this.db.exec('COMMIT')
    } catch (err) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
      throw err
    }
  }

  /** A forwarded event's delivered mark for its target (moved to this delivery when it had one). */
  private mark(values: RowValues, seq: number): void {
    const [receivedAt, , eventId, , , , , , , , , outcome, , forwardUrl] = values
    if (outcome !== 'forwarded' || !eventId) return
    const target = forwardUrl ?? '*'
    if (Number(this.st.markDelivered.run(eventId, target, receivedAt, seq).changes) > 0) {
      if (this.marks !== undefined) this.marks++
      this.index?.add(eventId)
    } else this.st.remarkDelivered.run(receivedAt, seq, eventId, target)
  }

  /**
   * Records one delivery and returns it with its sequence number and attempt. The row is visible
   * to this store at once and committed at the end of the event-loop turn: await committed()
   * before telling anyone outside the process that it is stored.
   */
  record(rec: NewLoggedDelivery): LoggedDelivery {
    this.begin()
    try {
      const attempt = rec.attempt ?? (rec.eventId ? this.countFor(rec.eventId) + 1 : 1)
      // A refused delivery is anyone's POST: keep enough to see what it was, not what it weighs.
      const cut = rec.outcome === 'rejected' && rec.body.length > REFUSED_BODY_KEEP
      const body = cut ? rec.body.subarray(0, REFUSED_BODY_KEEP) : rec.body
      const bodySize = cut ? rec.body.length : undefined
      const headers = JSON.stringify(rec.headers)
      const values: RowValues = [
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
      const seq = Number(this.st.insert.run(...values).lastInsertRowid)
      this.batchRecords++
      if (this.rows !== undefined) this.rows++
      this.index?.saw(seq)
      this.mark(values, seq)
      if (this.journal) this.frames.push(...journalFrame(seq, values))
      this.bytes = (this.bytes ?? this.sumBytes()) + body.length + headers.length
      this.recordsSinceSum++
      if (++this.insertsSincePrune >= 100 || this.bytes > this.maxBytes) this.prune()
      return { ...rec, body, ...(bodySize !== undefined ? { bodySize } : {}), seq, attempt }
    } catch (err) {
      // Some errors (disk full, I/O) roll the whole transaction back: its waiters must not hear "stored".
      if (!this.db.isTransaction) this.fail(err)
      throw err
    }
  }

  /** Resolves once every delivery recorded so far is committed; rejects when that commit failed. */
  committed(): Promise<void> {
    return this.batch?.done ?? this.lastDone ?? Promise.resolve()
  }

  /** Transactions committed so far by this store (deliveries per commit = records / commits, for the benchmarks and tests). */
  get commits(): number {
    return this.commitCount
  }

  /** Syncs of the log made so far under durability full (commits per sync, for the benchmarks and tests). */
  get syncs(): number {
    return this.syncCount
  }

  /** Commits what was recorded now, instead of at the end of the turn (in journal mode, instead of later). */
  flush(): void {
    if (this.journal) {
      this.commit()
      return
    }
    const batch = this.batch
    if (!batch) return
    this.batch = undefined
    try {
      this.db.exec('COMMIT')
    } catch (err) {
      this.rollback()
      batch.reject(err)
      return
    }
    this.commitCount++
    this.lastDone = batch.done
    this.afterCommit()
    if (this.durability === 'full') this.syncLog().then(batch.resolve, batch.reject)
    else batch.resolve()
  }

  /**
   * Resolves once the log holds on disk every commit made so far. One sync covers the commits
   * made before it starts: those made while it runs share the next one.
   */
  private syncLog(): Promise<void> {
    if (!this.syncing) {
      this.syncCount++
      this.syncing = new Promise<void>((resolve, reject) => {
        try {
          // The log exists from the first commit on; a read-only descriptor can sync it (Linux and macOS sync the file, not the descriptor).
          this.walFd ??= openSync(`${this.path}-wal`, 'r')
          this.sync(this.walFd, (err) => (err ? reject(err) : resolve()))
        } catch (err) {
          reject(err)
        }
      }).finally(() => {
        this.syncing = undefined
      })
      return this.syncing
    }
    const after = () => {
      this.nextSync = undefined
      return this.syncLog()
    }
    this.nextSync ??= this.syncing.then(after, after)
    return this.nextSync
  }

  /**
   * Journal mode, at the end of a turn that recorded: appends its records to the journal in one
   * write, then lets their callers answer; the commit follows at JOURNAL_COMMIT_MS, or at once
   * (after the answers) when JOURNAL_COMMIT_RECORDS are waiting.
   */
  private endTurn(): void {
    const batch = this.batch
    if (!batch) return
    // Two frames (head, body) a record.
    if (this.frames.length / 2 >= JOURNAL_TURN_COMMIT) {
      this.commit()
      return
    }
    this.batch = undefined
    const frames = this.frames
    this.frames = []
    try {
      this.journal!.append(frames)
    } catch (err) {
      // Not durable yet, so not answered as stored; the rows stay in the transaction, committed with the next ones.
      batch.reject(err)
      return
    }
    this.lastDone = batch.done
    batch.resolve()
    if (this.batchRecords >= JOURNAL_COMMIT_RECORDS) setImmediate(() => this.commit())
    else this.commitTimer ??= setTimeout(() => this.commit(), JOURNAL_COMMIT_MS).unref()
  }

  /**
   * Journal mode: commits the open transaction (with the records of this turn, not appended yet:
   * the commit makes them durable) and starts the journal over. If the commit fails, the
   * journal's records (answered already) are put back into the log in a transaction of their own.
   */
  private commit(): void {
    clearTimeout(this.commitTimer)
    this.commitTimer = undefined
    // Scheduled (a due commit after the answers) and then closed: close() committed.
    if (!this.db.isOpen) return
    const batch = this.batch
    this.batch = undefined
    this.frames = []
    if (!this.db.isTransaction) {
      batch?.resolve()
      return
    }
    try {
      this.db.exec('COMMIT')
    } catch (err) {
      this.rollback()
      batch?.reject(err)
      this.putJournalBack()
      return
    }
    this.commitCount++
    if (batch) this.lastDone = batch.done
    batch?.resolve()
    this.startJournalOver()
    this.afterCommit()
  }

  private startJournalOver(): void {
    try {
      this.journal!.reset()
      this.journalInLog = true
    } catch {
      // Frames already in the log stay in the journal: a recovery finds their rows there and skips them.
    }
  }

  /** After a failed commit: the journal's records, answered already, go into the log again (else they stay for the next store opened on it). */
  private putJournalBack(): void {
    this.journalInLog = false
    try {
      this.putBack(this.journal!.read())
      this.startJournalOver()
    } catch {
      // Left in the journal file, which close() keeps.
    }
  }

  /** Hands the commit to the checkpoints (after it, outside any transaction); starts their worker once there is enough to copy. */
  private afterCommit(): void {
    const records = this.batchRecords
    this.batchRecords = 0
    if (this.checkpointEvery <= 0) return
    if (!this.checkpoint) {
      this.recordsBeforeCheckpoint += records
      this.commitsBeforeCheckpoint++
      // The worker starts when the first cycle is due, as the cycles count (a short command never starts one).
      if (!cycleDue(this.recordsBeforeCheckpoint, this.commitsBeforeCheckpoint, this.checkpointEvery)) return
      this.checkpoint = new EventStoreCheckpoint(this.db, this.path, this.checkpointEvery)
      this.checkpoint.afterCommit(this.recordsBeforeCheckpoint)
      return
    }
    this.checkpoint.afterCommit(records)
  }

  /** Resolves once no WAL checkpoint is in flight (tests). */
  checkpointIdle(): Promise<void> {
    return this.checkpoint?.idle() ?? Promise.resolve()
  }

  /** Whether WAL checkpoints run on a worker thread (tests). */
  get checkpointsOffThread(): boolean {
    return this.checkpoint?.active ?? false
  }

  private begin(): void {
    if (this.batch) return
    // In journal mode the transaction may be open already, from an earlier turn.
    if (!this.db.isTransaction) {
      this.db.exec('BEGIN IMMEDIATE')
      // No other process can commit while this transaction is open: the index, in step now, stays so until the commit.
      if (this.index) this.known(true)
    }
    let resolve!: () => void
    let reject!: (err: unknown) => void
    const done = new Promise<void>((res, rej) => {
      resolve = res
      reject = rej
    })
    // Nobody may be waiting (a replay records and moves on): a failed commit must not crash the process.
    done.catch(() => {})
    this.batch = { done, resolve, reject }
    setImmediate(() => (this.journal ? this.endTurn() : this.flush()))
  }

  private fail(err: unknown): void {
    const batch = this.batch
    this.batch = undefined
    this.frames = []
    this.rollback()
    batch?.reject(err)
    // The transaction held the journal's records of earlier turns too.
    if (this.journal) this.putJournalBack()
  }

  private rollback(): void {
    // The running counts held what the transaction added: counted again when next needed.
    this.batchRecords = 0
    this.rows = undefined
    this.marks = undefined
    this.bytes = undefined
    this.index = undefined
    try {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
    } catch {
      // Already rolled back by SQLite.
    }
  }

  /** Whether this event already reached this target (its URL) with a 2xx, or any target when none is named (deduplication). */
  isDelivered(eventId: string, target?: string): boolean {
    // A new event (most deliveries) is answered from memory; SQL says whether a mark is for this event and target.
    if (!this.known().mayHave(eventId)) return false
    return (target === undefined ? this.st.isDeliveredAnywhere.get(eventId) : this.st.isDelivered.get(eventId, target)) !== undefined
  }

  /**
   * Loads the index of delivered events now rather than at the first delivery (a log at its
   * 100 000-mark cap takes about 130 ms); a failure is left for that delivery to meet.
   */
  warm(): void {
    try {
      this.known()
    } catch {
      // isDelivered() tries again and throws.
    }
  }

  /**
   * The index, in step with the log: inside this store's open transaction as it is (checked when
   * the transaction began, `beginning`: no other process commits meanwhile; in journal mode the
   * transaction outlives the turn), else after a look at PRAGMA
   * data_version, once per event-loop turn (outside a transaction, that look costs what the SQL
   * lookup did). When another process committed since, the marks it made are read (those of the
   * deliveries after the newest seq known), and if it also deleted some (the count falls short,
   * or is over: a mark it moved to a newer delivery is read twice), all is loaded again.
   */
  private known(beginning = false): EventIndex {
    if (this.index && !beginning && (this.db.isTransaction || this.checkedThisTurn)) return this.index
    this.checkedThisTurn = true
    setImmediate(() => {
      this.checkedThisTurn = false
    })
    if (this.index && this.dataVersion() === this.indexVersion) return this.index
    // One snapshot for the reads below (and the version they match), unless a transaction of this store is open already.
    const read = !this.db.isTransaction
    if (read) this.db.exec('BEGIN')
    try {
      this.indexVersion = this.dataVersion()
      let index = this.index
      if (index) {
        this.readMarks(index, index.lastSeq)
        if (index.marks !== Number((this.st.countDelivered.get() as { n: number }).n)) index = undefined
      }
      if (!index) {
        index = new EventIndex()
        this.readMarks(index, -1)
      }
      this.index = index
    } catch (err) {
      this.index = undefined
      throw err
    } finally {
      if (read) this.db.exec('COMMIT')
    }
    return this.index
  }

  private readMarks(index: EventIndex, after: number): void {
    for (const [id, seq] of this.st.marksAfter.iterate(after) as IterableIterator<[string, number]>) {
      index.add(id)
      index.saw(Number(seq))
    }
  }

  countFor(eventId: string): number {
    const row = this.st.countFor.get(eventId) as { n: number }
    return Number(row.n)
  }

  /** Newest first. */
  list(opts: { limit?: number; type?: string; eventId?: string } = {}): LoggedDelivery[] {
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
    const rows = this.db.prepare("SELECT * FROM deliveries WHERE event_id = ? ORDER BY (source <> 'replay') DESC, (verification = 'verified') DESC, seq DESC LIMIT 1").all(eventId) as unknown as Row[]
    return rows[0] ? fromRow(rows[0]) : undefined
  }

  /**
   * Drops the oldest rows beyond the caps (rows and bytes): refused deliveries, successes,
   * duplicates and filtered ones first; failed forwards only once they alone are over a cap.
   */
  prune(): void {
    this.insertsSincePrune = 0
    const { marks, rows: total } = this.counts()
    if (marks > this.maxDelivered) {
      const gone = this.st.pruneDelivered.all(marks - this.maxDelivered) as unknown as Array<[string]>
      this.marks = marks - gone.length
      if (this.index) for (const [id] of gone) this.index.remove(id)
    }
    let rows = total - this.maxDeliveries
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

  /**
   * The rows of deliveries and of marks: counted when first needed or when another process
   * committed since the last count (PRAGMA data_version), else the running counts.
   */
  private counts(): { rows: number; marks: number } {
    const version = this.dataVersion()
    if (this.rows === undefined || this.marks === undefined || version !== this.countVersion) {
      this.countVersion = version
      this.rows = Number((this.st.countDeliveries.get() as { n: number }).n)
      this.marks = Number((this.st.countDelivered.get() as { n: number }).n)
    }
    return { rows: this.rows, marks: this.marks }
  }

  /** Deletes a span of rows (the oldest `k`, up to seq `upTo`) and counts what that frees. */
  private dropSpan(span: Span, drop: () => { changes: number | bigint }): void {
    const { changes } = drop()
    if (this.rows !== undefined) this.rows -= Number(changes)
    this.bytes = (this.bytes ?? 0) - Number(span.n)
    this.prunedUpTo = Math.max(this.prunedUpTo, Number(span.upTo))
  }

  /** Deletes the oldest rows `rows` lists until at least `excess` bytes are gone; returns the bytes freed. */
  private dropOldest(rows: ReturnType<typeof prepare>['oldest'], params: number[], drop: (upTo: number) => { changes: number | bigint }, excess: number): number {
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

  /** Commits what is pending, then closes the database. */
  close(): void {
    if (!this.db.isOpen) return
    this.flush()
    this.journal?.close(this.journalInLog)
    this.checkpoint?.stop()
    this.db.close()
    const fd = this.walFd
    this.walFd = undefined
    // After the last sync (the fd is in use until then).
    if (fd !== undefined) void (this.nextSync ?? this.syncing ?? Promise.resolve()).finally(() => closeSync(fd))
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
