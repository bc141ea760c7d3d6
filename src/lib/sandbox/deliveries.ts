/**
 * The sandbox's webhook delivery worker (spec 6.1, 6.2, 6.4): every published event is stored and
 * POSTed at once to the environment's endpoint with the five signed headers (the timestamp is
 * wall-clock time, see attempt()); only a 2xx is a
 * success (redirects are not followed); failures retry after 10s, 30s, 2min … 12h on the
 * SandboxClock, within 24 h of the first attempt, then the delivery is failed; an endpoint with
 * no success in that window is deactivated (the e-mail notice is logged) until its URL is saved
 * again. State lives in the sandbox's database, so pending retries survive a restart.
 *
 * Hot path (thousands of events a second): the endpoint is read from memory; rows are written with
 * prepared statements, deferred into the sandbox's group commit, one transaction per turn of the
 * event loop shared with the charge creations (a commit per event would cost more than the
 * delivery); connections are kept alive; retries wait in our own
 * heap with a single clock timer armed at its head, so a failing endpoint never makes the clock
 * re-sort thousands of timers. Attempts run concurrently: a clock timer only starts them, it
 * never waits for an HTTP answer, so a stalled endpoint cannot hold up expiries or settlements.
 *
 * Order: the events of one charge (an advance to settled emits paid_pending_settlement then
 * settled) make their first attempts one after the other, each once the previous one got its
 * answer or failed, so a receiver sees them in the order they happened. Only that charge waits:
 * other charges' events go out at once. Retries are not ordered (spec 6.3: handlers must cope).
 *
 * What a crash (kill -9, not a clean stop) loses: the delivery rows and attempts of the last
 * turn, not yet committed. An event whose row was lost is in the events table but is not sent
 * after the restart; an attempt whose outcome was lost is made again (at least once: receivers
 * deduplicate by X-SVC-Event-Id). A clean stop (close()) commits everything.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import { OutboundClient, targetOf } from '../net/outbound.js'
import { LIMITS } from '../contract/limits.js'
import type { AttemptRecord, DeliveryRecord, DeliveryState } from '../contract/panel.js'
import { signatureHeader } from '../webhooks/signature.js'
import type { SandboxClock } from './clock.js'
import { GroupCommit } from './group-commit.js'
import { MinHeap } from './min-heap.js'
import type { Env, EventSink, SandboxContext, StoredEvent, WebhookEndpoint } from './types.js'
import { isHttpUrl } from '../net/url.js'

export type { AttemptRecord, DeliveryRecord, DeliveryState }

/** One HTTP POST as the worker sends it (what an injected sender receives). */
export interface OutgoingDelivery {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
}

export interface DeliveryResponse {
  status: number
  /** The start of the response body (for the log). */
  body: string
}

/** Sends one delivery; rejects on a network error or timeout. */
export type DeliverySender = (delivery: OutgoingDelivery) => Promise<DeliveryResponse>

export interface WebhookDeliveriesOptions {
  send?: DeliverySender
  /** Per-attempt timeout (spec: 10 s). */
  timeoutMs?: number
  /** Wall clock for X-SVC-Timestamp (tests). */
  wallNow?: () => number
}

export interface EndpointInfo extends WebhookEndpoint {
  lastSuccessAt?: string
}



export interface DeliveryFilter {
  environment?: Env
  eventId?: string
  /** Newest first, at most this many (default 50, max 1000). */
  limit?: number
}

const SNIPPET = 1024
const RESPONSE_READ_CAP = 64 * 1024
const WINDOW_MS = LIMITS.webhookRetryWindowSeconds * 1000
const STEPS_MS = LIMITS.webhookRetryStepsSeconds.map((s) => s * 1000)

interface Job {
  eventId: string
  type: string
  env: Env
  body: string
  url: string
  state: DeliveryState
  firstAttemptAt?: number
  /** Scheduled attempts made so far (resends do not move the schedule). */
  retryIndex: number
  /** When the next scheduled attempt is due. */
  dueAt: number
  /** Bumped on every (re)schedule, so stale heap entries are skipped. */
  gen: number
  /** Environment and charge: first attempts of the same lane run one at a time, in order. */
  lane?: string
}

interface HeapEntry {
  due: number
  seq: number
  fire: (due: number) => void
  valid: () => boolean
}

interface EndpointState {
  url: string
  active: boolean
  savedAt: number
  deactivatedAt?: number
  lastSuccessAt?: number
  /** Last lastSuccessAt written to the db (writes are throttled to one a second). */
  persistedSuccessAt?: number
}

type Row = Record<string, unknown>

export class WebhookDeliveries implements EventSink {
  private readonly db: DatabaseSync
  private readonly clock: SandboxClock
  private readonly log: (line: string) => void
  private readonly secret: string
  private readonly send: DeliverySender
  private readonly timeoutMs: number
  private readonly wallNow: () => number
  private readonly outbound?: OutboundClient
  private readonly st: Record<string, StatementSync>
  private readonly endpoints = new Map<Env, EndpointState>()
  private readonly pending = new Map<string, Job>()
  private readonly writes: GroupCommit
  private readonly heap = new MinHeap<HeapEntry>(before)
  private heapSeq = 0
  private armed?: { id: number; dueAt: number }
  private readonly work = new Set<Promise<void>>()
  /** Lanes with a first attempt in flight, each with the jobs queued behind it. */
  private readonly lanes = new Map<string, Job[]>()
  private restored = false
  private closed = false

  /** Creates the worker's tables (idempotent): endpoints, deliveries and the attempt log. */
  static migrate(db: DatabaseSync): void {
    db.exec(`
      CREATE TABLE IF NOT EXISTS webhook_endpoints (
        environment TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        active INTEGER NOT NULL,
        saved_ms INTEGER NOT NULL,
        deactivated_ms INTEGER,
        last_success_ms INTEGER
      );
      CREATE TABLE IF NOT EXISTS webhook_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        environment TEXT NOT NULL,
        body TEXT NOT NULL,
        url TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        retry_index INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        last_response TEXT,
        next_retry_ms INTEGER,
        created_ms INTEGER NOT NULL,
        first_attempt_ms INTEGER,
        check_ms INTEGER
      );
      CREATE INDEX IF NOT EXISTS webhook_deliveries_env ON webhook_deliveries (environment, id DESC);
      CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON webhook_deliveries (state) WHERE state = 'pending';
      CREATE INDEX IF NOT EXISTS webhook_deliveries_check ON webhook_deliveries (check_ms) WHERE check_ms IS NOT NULL;
      CREATE TABLE IF NOT EXISTS webhook_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        delivery_id INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        url TEXT NOT NULL,
        status INTEGER,
        error TEXT,
        response TEXT,
        duration_ms INTEGER NOT NULL,
        manual INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts (delivery_id, id);
    `)
  }

  constructor(ctx: SandboxContext, opts: WebhookDeliveriesOptions = {}) {
    this.db = ctx.db
    this.clock = ctx.clock
    this.log = ctx.log
    this.secret = ctx.webhookSecret
    this.timeoutMs = opts.timeoutMs ?? LIMITS.webhookTimeoutMs
    this.wallNow = opts.wallNow ?? Date.now
    this.writes = ctx.writes ?? new GroupCommit(ctx.db)
    if (opts.send) {
      this.send = opts.send
    } else {
      const outbound = new OutboundClient({ connections: 128, keepAliveTimeoutMs: 4_000 })
      this.outbound = outbound
      this.send = (d) => sendOutbound(outbound, d)
    }
    WebhookDeliveries.migrate(this.db)
    const p = (sql: string) => this.db.prepare(sql)
    this.st = {
      endpointAll: p('SELECT * FROM webhook_endpoints'),
      endpointSave: p(
        `INSERT INTO webhook_endpoints (environment, url, active, saved_ms, deactivated_ms, last_success_ms) VALUES (?, ?, 1, ?, NULL, NULL)
         ON CONFLICT (environment) DO UPDATE SET url = excluded.url, active = 1, saved_ms = excluded.saved_ms, deactivated_ms = NULL`,
      ),
      endpointDeactivate: p('UPDATE webhook_endpoints SET active = 0, deactivated_ms = ? WHERE environment = ?'),
      endpointSuccess: p('UPDATE webhook_endpoints SET last_success_ms = ? WHERE environment = ?'),
      insert: p(
        `INSERT OR IGNORE INTO webhook_deliveries (event_id, type, environment, body, url, state, next_retry_ms, created_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      update: p(
        `UPDATE webhook_deliveries SET url = ?, attempts = attempts + 1, retry_index = ?, last_status = ?, last_error = ?, last_response = ?,
           state = ?, next_retry_ms = ?, first_attempt_ms = COALESCE(first_attempt_ms, ?), check_ms = COALESCE(?, check_ms)
         WHERE event_id = ?`,
      ),
      fail: p('UPDATE webhook_deliveries SET state = ?, last_error = ?, next_retry_ms = NULL WHERE event_id = ?'),
      attemptInsert: p(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at_ms, url, status, error, response, duration_ms, manual)
         SELECT id, attempts, ?, ?, ?, ?, ?, ?, ? FROM webhook_deliveries WHERE event_id = ?`,
      ),
      checkDone: p('UPDATE webhook_deliveries SET check_ms = NULL WHERE event_id = ?'),
      byEventId: p('SELECT * FROM webhook_deliveries WHERE event_id = ?'),
      pendingAll: p("SELECT * FROM webhook_deliveries WHERE state = 'pending' ORDER BY id"),
      checksAll: p('SELECT event_id, environment, first_attempt_ms, check_ms FROM webhook_deliveries WHERE check_ms IS NOT NULL'),
      attemptsOf: p('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id'),
    }
    for (const row of this.st.endpointAll!.all() as Row[]) {
      this.endpoints.set(row.environment as Env, {
        url: row.url as string,
        active: row.active === 1,
        savedAt: row.saved_ms as number,
        deactivatedAt: (row.deactivated_ms as number | null) ?? undefined,
        lastSuccessAt: (row.last_success_ms as number | null) ?? undefined,
        persistedSuccessAt: (row.last_success_ms as number | null) ?? undefined,
      })
    }
  }

  // ------------------------------------------------------------ endpoints

  getEndpoint(environment: Env): EndpointInfo | undefined {
    const ep = this.endpoints.get(environment)
    return ep ? toEndpointInfo(environment, ep) : undefined
  }

  /** Saves the environment's URL; saving again reactivates a deactivated endpoint (spec 6.4.8). */
  setEndpoint(environment: Env, url: string): EndpointInfo {
    if (!isHttpUrl(url)) throw new RangeError(`not an http(s) URL: ${url}`)
    const now = this.clock.now()
    this.st.endpointSave!.run(environment, url, now)
    const prev = this.endpoints.get(environment)
    const ep: EndpointState = { url, active: true, savedAt: now, lastSuccessAt: prev?.lastSuccessAt, persistedSuccessAt: prev?.persistedSuccessAt }
    this.endpoints.set(environment, ep)
    if (prev && !prev.active) this.log(`webhooks: ${environment} endpoint reactivated: ${url}`)
    return toEndpointInfo(environment, ep)
  }

  // ------------------------------------------------------------ publishing

  publish(event: StoredEvent): void {
    const ep = this.endpoints.get(event.environment)
    if (!ep) return // no URL configured for this environment: nothing to deliver
    if (this.pending.has(event.id)) return // the same event published twice
    const now = this.clock.now()
    if (!ep.active) {
      // A deactivated endpoint gets no new deliveries; the log still shows what was not sent.
      this.queue(() => this.st.insert!.run(event.id, event.type, event.environment, event.body, ep.url, 'skipped', null, now))
      return
    }
    this.queue(() => this.st.insert!.run(event.id, event.type, event.environment, event.body, ep.url, 'pending', now, now))
    const job: Job = { eventId: event.id, type: event.type, env: event.environment, body: event.body, url: ep.url, state: 'pending', retryIndex: 0, dueAt: now, gen: 0 }
    if (event.chargeId !== undefined) job.lane = `${event.environment}:${event.chargeId}`
    this.pending.set(job.eventId, job)
    // After close() the row stays pending with its due time; restore() picks it up on the next start.
    if (!this.closed) this.firstAttempt(job)
  }

  /** Starts a job's first attempt now, or queues it behind the one of its lane in flight. */
  private firstAttempt(job: Job): void {
    const lane = job.lane
    if (lane === undefined) return this.track(this.attempt(job, this.clock.now(), false))
    const queued = this.lanes.get(lane)
    if (queued) {
      queued.push(job)
      return
    }
    this.lanes.set(lane, [])
    this.track(this.attemptInLane(job, lane))
  }

  private async attemptInLane(job: Job, lane: string): Promise<void> {
    try {
      await this.attempt(job, this.clock.now(), false)
    } finally {
      const next = this.lanes.get(lane)?.shift()
      if (next === undefined || this.closed) {
        // After close() the queued rows stay pending in the db; restore() sends them in order.
        this.lanes.delete(lane)
      } else {
        this.track(this.attemptInLane(next, lane))
      }
    }
  }

  /**
   * Sends the delivery again: same event id and body, fresh timestamp and signature, one more attempt.
   * Undefined when there is no delivery of that event (in `environment`, when given: the panel acts on one environment).
   */
  resend(eventId: string, environment?: Env): { eventId: string } | undefined {
    let job = this.pending.get(eventId)
    if (!job) {
      this.flushWrites()
      const row = this.st.byEventId!.get(eventId) as Row | undefined
      if (!row) return undefined
      job = jobFromRow(row)
    }
    if (environment !== undefined && job.env !== environment) return undefined
    this.track(this.attempt(job, this.clock.now(), true))
    return { eventId }
  }

  list(filter: DeliveryFilter = {}): DeliveryRecord[] {
    this.flushWrites()
    const limit = Math.min(Math.max(1, Math.floor(filter.limit ?? 50)), 1000)
    const where: string[] = []
    const params: Array<string | number> = []
    if (filter.environment) {
      where.push('environment = ?')
      params.push(filter.environment)
    }
    if (filter.eventId) {
      where.push('event_id = ?')
      params.push(filter.eventId)
    }
    const sql = `SELECT * FROM webhook_deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    const rows = this.db.prepare(sql).all(...params, limit) as Row[]
    return rows.map((row) => {
      const record = toRecord(row)
      if (filter.eventId) record.attemptLog = (this.st.attemptsOf!.all(row.id as number) as Row[]).map(toAttempt)
      return record
    })
  }

  // ------------------------------------------------------------ lifecycle

  /** After a restart: re-schedules pending deliveries and the pending 24 h endpoint checks from the db. */
  restore(): void {
    if (this.restored) return
    this.restored = true
    this.flushWrites()
    const now = this.clock.now()
    for (const row of this.st.pendingAll!.all() as Row[]) {
      if (this.pending.has(row.event_id as string)) continue
      const job = jobFromRow(row)
      job.dueAt = Math.max(job.dueAt, now)
      this.pending.set(job.eventId, job)
      // Never attempted (queued in its lane when the sandbox stopped): first attempts in order, now.
      if (row.attempts === 0) {
        job.lane = laneOf(job)
        this.firstAttempt(job)
      } else {
        this.pushJob(job)
      }
    }
    for (const row of this.st.checksAll!.all() as Row[]) {
      this.pushCheck(row.event_id as string, row.environment as Env, row.first_attempt_ms as number, Math.max(row.check_ms as number, now))
    }
    this.arm()
    if (this.heap.size && this.heap.peek()!.due <= now) this.track(this.clock.tick())
  }

  /**
   * Resolves once the attempts in flight have ended and the retries that fell due meanwhile
   * have run, with everything written. `maxRounds` bounds the wait under a steady stream of new
   * events (each round waits for what is in flight at its start; a retry chain takes two).
   */
  async flush(maxRounds = 64): Promise<void> {
    for (let round = 0; this.work.size && round < maxRounds; round++) await Promise.all([...this.work])
    this.flushWrites()
  }

  /** Stops scheduling, waits for the deliveries in flight. Pending retries stay in the db for restore(). */
  async close(): Promise<void> {
    this.closed = true
    if (this.armed) this.clock.cancel(this.armed.id)
    this.armed = undefined
    await this.flush(Number.POSITIVE_INFINITY)
    await this.outbound?.close().catch(() => {})
  }

  // ------------------------------------------------------------ attempts

  private async attempt(job: Job, at: number, manual: boolean): Promise<void> {
    const ep = this.endpoints.get(job.env)
    if (!manual && (!ep || !ep.active)) {
      // Notices stop while the endpoint is deactivated (spec 6.4.8); a resend still goes out.
      this.pending.delete(job.eventId)
      job.state = 'failed'
      this.queue(() => this.st.fail!.run('failed', 'endpoint deactivated', job.eventId))
      return
    }
    const url = ep?.url ?? job.url
    job.url = url
    // The schedule runs on the sandbox clock, but X-SVC-Timestamp is the wall-clock second of
    // sending: receivers check it against their own clock (±300 s), and the sandbox clock may run
    // at --speed N or have been advanced by hours, which would make every delivery look forged.
    const timestamp = Math.floor(this.wallNow() / 1000)
    const headers = {
      'content-type': 'application/json',
      'x-svc-event-id': job.eventId,
      'x-svc-event-type': job.type,
      'x-svc-timestamp': String(timestamp),
      'x-svc-signature': signatureHeader(this.secret, timestamp, job.body),
    }
    const simStart = this.clock.now()
    const wallStart = performance.now()
    let status: number | undefined
    let error: string | undefined
    let response: string | undefined
    try {
      const res = await this.send({ url, headers, body: job.body, timeoutMs: this.timeoutMs })
      status = res.status
      response = res.body.slice(0, SNIPPET)
      if (status < 200 || status >= 300) error = status >= 300 && status < 400 ? `redirect (${status}) is not a success` : `HTTP ${status}`
    } catch (err) {
      error = describeSendError(err, this.timeoutMs)
    }
    const durationMs = Math.round(performance.now() - wallStart)
    // Sandbox time the attempt took: 0 on a manual clock, wall time × speed otherwise (bounded,
    // so that a clock advanced meanwhile does not push the retry past its window).
    const elapsed = Math.min(Math.max(0, this.clock.now() - simStart), (this.timeoutMs + 1000) * this.clock.speed)
    this.finish(job, { at, url, status, error, response, durationMs, manual, finishedAt: at + elapsed })
  }

  private finish(
    job: Job,
    r: { at: number; url: string; status?: number; error?: string; response?: string; durationMs: number; manual: boolean; finishedAt: number },
  ): void {
    const stillPending = this.pending.get(job.eventId) === job
    let nextRetry: number | null = null
    let checkAt: number | null = null
    if (r.error === undefined) {
      job.state = 'succeeded'
      this.pending.delete(job.eventId)
      job.gen++
      this.noteSuccess(job.env, r.at)
    } else if (r.manual || !stillPending) {
      // A failed resend leaves the schedule (or the final state) as it was.
      if (stillPending) nextRetry = job.dueAt
      else if (job.state === 'skipped') job.state = 'failed'
      this.log(`webhooks: ${job.eventId} ${job.type} → ${r.url}: ${r.error} (resend)`)
    } else {
      job.retryIndex++
      job.firstAttemptAt ??= r.at
      const step = STEPS_MS[job.retryIndex - 1]
      const next = step === undefined ? undefined : r.finishedAt + step
      if (next === undefined || next > job.firstAttemptAt + WINDOW_MS) {
        job.state = 'failed'
        this.pending.delete(job.eventId)
        checkAt = job.firstAttemptAt + WINDOW_MS
        this.log(`webhooks: ${job.eventId} ${job.type} → ${r.url}: ${r.error}; no retry left within 24 h: delivery failed`)
      } else {
        nextRetry = next
        job.dueAt = next
        this.log(`webhooks: ${job.eventId} ${job.type} → ${r.url}: ${r.error}; retry ${job.retryIndex} at ${iso(next)}`)
      }
    }
    const { state, retryIndex, eventId } = job
    this.queue(() => {
      this.st.update!.run(r.url, retryIndex, r.status ?? null, r.error ?? null, r.response ?? null, state, nextRetry, r.manual ? null : r.at, checkAt, eventId)
      this.st.attemptInsert!.run(r.at, r.url, r.status ?? null, r.error ?? null, r.response ?? null, r.durationMs, r.manual ? 1 : 0, eventId)
    })
    if (this.closed) return
    if (nextRetry !== null && !r.manual && stillPending) this.pushJob(job)
    if (checkAt !== null) this.pushCheck(eventId, job.env, job.firstAttemptAt!, checkAt)
    if (nextRetry !== null || checkAt !== null) {
      this.arm()
      // A manual clock runs timers only on advance/tick: run what already fell due (an advance in progress).
      if (this.heap.size && this.heap.peek()!.due <= this.clock.now()) this.track(this.clock.tick())
    }
  }

  private noteSuccess(env: Env, at: number): void {
    const ep = this.endpoints.get(env)
    if (!ep) return
    if (ep.lastSuccessAt === undefined || at > ep.lastSuccessAt) ep.lastSuccessAt = at
    if (ep.persistedSuccessAt === undefined || ep.lastSuccessAt - ep.persistedSuccessAt >= 1000) {
      const value = ep.lastSuccessAt
      ep.persistedSuccessAt = value
      this.queue(() => this.st.endpointSuccess!.run(value, env))
    }
  }

  /** At the end of a failed delivery's 24 h window: deactivate an endpoint that had no success in it. */
  private checkWindow(eventId: string, env: Env, firstAttemptAt: number, due: number): void {
    this.queue(() => this.st.checkDone!.run(eventId))
    const ep = this.endpoints.get(env)
    if (!ep || !ep.active || ep.savedAt > firstAttemptAt) return
    if (ep.lastSuccessAt !== undefined && ep.lastSuccessAt >= firstAttemptAt) return
    ep.active = false
    ep.deactivatedAt = due
    this.queue(() => this.st.endpointDeactivate!.run(due, env))
    this.log(
      `webhooks: [e-mail to the merchant] Your ${env} webhook endpoint ${ep.url} was deactivated: no delivery succeeded in the 24 h since ${iso(firstAttemptAt)}. ` +
        `Charges keep working; only the notices stop. Save the URL again to reactivate it (svc sandbox webhook set URL --env ${env}).`,
    )
  }

  // ------------------------------------------------------------ writes

  /** Queues a write into the turn's group commit (one commit for a burst of deliveries). */
  private queue(write: () => void): void {
    this.writes.defer(write, this.writeFailed)
  }

  private lastWriteError: unknown
  private readonly writeFailed = (err: unknown): void => {
    // A failed commit fails every write of its batch with the same error: one line, not hundreds.
    if (err === this.lastWriteError) return
    this.lastWriteError = err
    this.log(`webhooks: could not save the delivery log: ${err instanceof Error ? err.message : String(err)}`)
  }

  /** Commits what is queued, for a reader of the tables. */
  private flushWrites(): void {
    this.writes.flush()
  }

  // ------------------------------------------------------------ scheduling

  private pushJob(job: Job): void {
    const gen = ++job.gen
    this.heap.push({
      due: job.dueAt,
      seq: this.heapSeq++,
      valid: () => job.gen === gen && this.pending.get(job.eventId) === job,
      fire: (due) => this.track(this.attempt(job, due, false)),
    })
  }

  private pushCheck(eventId: string, env: Env, firstAttemptAt: number, due: number): void {
    this.heap.push({ due, seq: this.heapSeq++, valid: () => true, fire: (d) => this.checkWindow(eventId, env, firstAttemptAt, d) })
  }

  /** Keeps exactly one clock timer, at the earliest due entry of our heap. */
  private arm(): void {
    while (this.heap.size && !this.heap.peek()!.valid()) this.heap.pop()
    const head = this.heap.peek()
    if (this.armed && head && this.armed.dueAt <= head.due) return
    if (this.armed) this.clock.cancel(this.armed.id)
    this.armed = undefined
    if (!head || this.closed) return
    const dueAt = head.due
    const id = this.clock.schedule(dueAt, () => this.onTimer(id))
    this.armed = { id, dueAt }
  }

  private onTimer(id: number): void {
    if (this.armed?.id !== id) return
    const bound = Math.max(this.armed.dueAt, this.clock.now())
    this.armed = undefined
    while (this.heap.size && this.heap.peek()!.due <= bound) {
      const entry = this.heap.pop()!
      if (entry.valid()) entry.fire(entry.due)
    }
    this.arm()
  }

  private track(p: Promise<void>): void {
    const tracked: Promise<void> = p
      .catch((err: unknown) => this.log(`webhooks: internal error: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.work.delete(tracked))
    this.work.add(tracked)
  }
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq)
}

/** One POST through the shared outbound helper: no redirect followed, the answer cut at RESPONSE_READ_CAP. */
async function sendOutbound(client: OutboundClient, d: OutgoingDelivery): Promise<DeliveryResponse> {
  const target = targetOf(d.url)
  const answer = await client.send({
    origin: target.origin,
    path: target.path,
    method: 'POST',
    headers: d.headers,
    body: d.body,
    timeoutMs: d.timeoutMs,
    maxBodyBytes: RESPONSE_READ_CAP,
    overflow: 'cut',
  })
  return { status: answer.status, body: answer.body.toString('utf8', 0, Math.min(answer.body.length, SNIPPET * 4)) }
}

function describeSendError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; kind?: string; code?: string; message?: string; cause?: { code?: string; message?: string } }
  if (e?.kind === 'timeout' || e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT') {
    return `timeout: no answer within ${timeoutMs / 1000} s`
  }
  return e?.cause?.code ?? e?.code ?? e?.message ?? String(err)
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

function opt<T>(v: unknown): T | undefined {
  return v === null || v === undefined ? undefined : (v as T)
}

/** The lane of a stored event (after a restart, when only its body is left): its environment and charge. */
function laneOf(job: Job): string | undefined {
  try {
    const id = (JSON.parse(job.body) as { type?: unknown; data?: { charge?: { id?: unknown } } }).data?.charge?.id
    return typeof id === 'string' && job.type !== 'charge.test' ? `${job.env}:${id}` : undefined
  } catch {
    return undefined
  }
}

function toEndpointInfo(environment: Env, ep: EndpointState): EndpointInfo {
  return {
    environment,
    url: ep.url,
    active: ep.active,
    ...(ep.deactivatedAt !== undefined ? { deactivatedAt: iso(ep.deactivatedAt) } : {}),
    ...(ep.lastSuccessAt !== undefined ? { lastSuccessAt: iso(ep.lastSuccessAt) } : {}),
  }
}

function jobFromRow(row: Row): Job {
  return {
    eventId: row.event_id as string,
    type: row.type as string,
    env: row.environment as Env,
    body: row.body as string,
    url: row.url as string,
    state: row.state as DeliveryState,
    firstAttemptAt: opt<number>(row.first_attempt_ms),
    retryIndex: row.retry_index as number,
    dueAt: opt<number>(row.next_retry_ms) ?? (row.created_ms as number),
    gen: 0,
  }
}

function toRecord(row: Row): DeliveryRecord {
  const rec: DeliveryRecord = {
    eventId: row.event_id as string,
    type: row.type as string,
    environment: row.environment as Env,
    url: row.url as string,
    attempts: row.attempts as number,
    state: row.state as DeliveryState,
    createdAt: iso(row.created_ms as number),
    body: row.body as string,
  }
  const status = opt<number>(row.last_status)
  if (status !== undefined) rec.lastStatus = status
  const error = opt<string>(row.last_error)
  if (error !== undefined) rec.lastError = error
  const response = opt<string>(row.last_response)
  if (response !== undefined) rec.lastResponse = response
  const next = opt<number>(row.next_retry_ms)
  if (next !== undefined && rec.state === 'pending') rec.nextRetryAt = iso(next)
  const first = opt<number>(row.first_attempt_ms)
  if (first !== undefined) rec.firstAttemptAt = iso(first)
  return rec
}

function toAttempt(row: Row): AttemptRecord {
  const a: AttemptRecord = {
    attempt: row.attempt as number,
    at: iso(row.at_ms as number),
    url: row.url as string,
    durationMs: row.duration_ms as number,
    manual: row.manual === 1,
  }
  const status = opt<number>(row.status)
  if (status !== undefined) a.status = status
  const error = opt<string>(row.error)
  if (error !== undefined) a.error = error
  const response = opt<string>(row.response)
  if (response !== undefined) a.response = response
  return a
}
