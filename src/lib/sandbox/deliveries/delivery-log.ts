/**
 * The delivery log's storage: the endpoints, one row per delivery and one per attempt, in the
 * sandbox's database (schema in store/db.ts's migrations), through statements prepared once, with
 * typed rows in and out. It also answers the panel's reads (spec 6.4 item 9: body sent, last
 * answer, attempts). Writes return nothing: the worker queues them into the group commit.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { AttemptRecord, DeliveryRecord, DeliveryState } from '../../contract/panel.js'
import type { Environment } from '../../contract/schemas.js'

export interface EndpointRow {
  environment: Environment
  url: string
  active: boolean
  savedAt: number
  deactivatedAt?: number
  lastSuccessAt?: number
}

/** A delivery as the scheduler needs it after a restart. */
export interface StoredDelivery {
  eventId: string
  type: string
  env: Environment
  body: string
  url: string
  state: DeliveryState
  attempts: number
  firstAttemptAt?: number
  retryIndex: number
  /** When the next scheduled attempt is due (its creation when none was made). */
  dueAt: number
  resourceKey?: string
}

/**
 * An attempt as the worker records it: the log's AttemptRecord (contract/panel.ts) before the
 * log numbers it and with its instant in epoch milliseconds. Derived, so the two cannot drift.
 */
export type AttemptOutcome = Omit<AttemptRecord, 'attempt' | 'at'> & { at: number }

/** A query of the delivery log: filters, newest first, a page (the panel API's and the library's lists). */
export interface DeliveryQuery {
  environment?: Environment
  eventId?: string
  /** Newest first, at most this many (default 50, max 1000). */
  limit?: number
  /** Only deliveries in this state (pending, succeeded, failed, skipped). */
  state?: string
  /** Only this event type, or a prefix when it ends in `*` (`charge.*`). */
  type?: string
  /** Only deliveries created at or after this instant (ms, sandbox clock). */
  sinceMs?: number
  /** Cursor: only deliveries older than the one of this event id (the last of the previous page). */
  startingAfter?: string
}

type Row = Record<string, unknown>

export class DeliveryLog {
  private readonly st: {
    endpointAll: StatementSync
    endpointSave: StatementSync
    endpointDelete: StatementSync
    endpointDeactivate: StatementSync
    endpointSuccess: StatementSync
    insert: StatementSync
    update: StatementSync
    fail: StatementSync
    attemptInsert: StatementSync
    checkDone: StatementSync
    dispatched: StatementSync
    undispatched: StatementSync
    byEventId: StatementSync
    pendingAll: StatementSync
    checksAll: StatementSync
    attemptsOf: StatementSync
    deliveryInjected: StatementSync
  }

  constructor(private readonly db: DatabaseSync) {
    const p = (sql: string) => db.prepare(sql)
    this.st = {
      endpointAll: p('SELECT * FROM webhook_endpoints'),
      endpointSave: p(
        `INSERT INTO webhook_endpoints (environment, url, active, saved_ms, deactivated_ms, last_success_ms) VALUES (?, ?, 1, ?, NULL, NULL)
         ON CONFLICT (environment) DO UPDATE SET url = excluded.url, active = 1, saved_ms = excluded.saved_ms, deactivated_ms = NULL`,
      ),
      endpointDelete: p('DELETE FROM webhook_endpoints WHERE environment = ?'),
      endpointDeactivate: p('UPDATE webhook_endpoints SET active = 0, deactivated_ms = ? WHERE environment = ?'),
      endpointSuccess: p('UPDATE webhook_endpoints SET last_success_ms = ? WHERE environment = ?'),
      insert: p(
        `INSERT OR IGNORE INTO webhook_deliveries (event_id, type, environment, body, url, state, next_retry_ms, created_ms, resource_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      update: p(
        `UPDATE webhook_deliveries SET url = ?, attempts = attempts + 1, retry_index = ?, last_status = ?, last_error = ?, last_response = ?,
           state = ?, next_retry_ms = ?, first_attempt_ms = COALESCE(first_attempt_ms, ?), check_ms = COALESCE(?, check_ms)
         WHERE event_id = ?`,
      ),
      fail: p('UPDATE webhook_deliveries SET state = ?, last_error = ?, next_retry_ms = NULL WHERE event_id = ?'),
      attemptInsert: p(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at_ms, url, status, error, response, duration_ms, manual, injected)
         SELECT id, attempts, ?, ?, ?, ?, ?, ?, ?, ? FROM webhook_deliveries WHERE event_id = ?`,
      ),
      checkDone: p('UPDATE webhook_deliveries SET check_ms = NULL WHERE event_id = ?'),
      dispatched: p('UPDATE events SET dispatched = 1 WHERE id = ?'),
      undispatched: p('SELECT id, type, environment, created_at, body, resource_key FROM events WHERE dispatched = 0 ORDER BY seq'),
      byEventId: p('SELECT * FROM webhook_deliveries WHERE event_id = ?'),
      pendingAll: p("SELECT * FROM webhook_deliveries WHERE state = 'pending' ORDER BY id"),
      checksAll: p('SELECT event_id, environment, first_attempt_ms, check_ms FROM webhook_deliveries WHERE check_ms IS NOT NULL'),
      attemptsOf: p('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id'),
      deliveryInjected: p("UPDATE webhook_deliveries SET injected = CASE WHEN injected IS NULL THEN ?1 ELSE injected || ',' || ?1 END WHERE event_id = ?2"),
    }
  }

  // ------------------------------------------------------------ endpoints

  endpoints(): EndpointRow[] {
    return (this.st.endpointAll.all() as Row[]).map((row) => ({
      environment: row.environment as Environment,
      url: row.url as string,
      active: row.active === 1,
      savedAt: row.saved_ms as number,
      deactivatedAt: opt<number>(row.deactivated_ms),
      lastSuccessAt: opt<number>(row.last_success_ms),
    }))
  }

  removeEndpoint(env: Environment): void {
    this.st.endpointDelete.run(env)
  }

  saveEndpoint(env: Environment, url: string, savedAt: number): void {
    this.st.endpointSave.run(env, url, savedAt)
  }

  deactivateEndpoint(env: Environment, at: number): void {
    this.st.endpointDeactivate.run(at, env)
  }

  noteEndpointSuccess(env: Environment, at: number): void {
    this.st.endpointSuccess.run(at, env)
  }

  // ------------------------------------------------------------ deliveries

  /** A new delivery; `pending` with its first attempt due at `createdAt`, or `skipped`. Ignored when the event has one. */
  insert(d: { eventId: string; type: string; env: Environment; body: string; url: string; state: 'pending' | 'skipped'; createdAt: number; resourceKey?: string }): void {
    this.st.insert.run(d.eventId, d.type, d.env, d.body, d.url, d.state, d.state === 'pending' ? d.createdAt : null, d.createdAt, d.resourceKey ?? null)
  }

  /** One attempt made: the delivery's new state and schedule, and the attempt in the log. */
  recordAttempt(eventId: string, a: AttemptOutcome, next: { state: DeliveryState; retryIndex: number; nextRetryAt: number | null; checkAt: number | null }): void {
    this.st.update.run(a.url, next.retryIndex, a.status ?? null, a.error ?? null, a.response ?? null, next.state, next.nextRetryAt, a.manual ? null : a.at, next.checkAt, eventId)
    const injected = a.injected?.length ? a.injected.join(',') : null
    this.st.attemptInsert.run(a.at, a.url, a.status ?? null, a.error ?? null, a.response ?? null, a.durationMs, a.manual ? 1 : 0, injected, eventId)
    if (injected !== null) this.st.deliveryInjected.run(injected, eventId)
  }

  /** The event was handed to the worker (its delivery row, if any, is in the same commit). */
  markDispatched(eventId: string): void {
    this.st.dispatched.run(eventId)
  }

  /** Events saved but never handed to the worker: a kill -9 came between the two commits. */
  undispatched(): Array<{ id: string; type: string; environment: Environment; createdAt: string; body: string; resourceKey?: string }> {
    return (this.st.undispatched.all() as Row[]).map((r) => ({
      id: r.id as string,
      type: r.type as string,
      environment: r.environment as Environment,
      createdAt: r.created_at as string,
      body: r.body as string,
      ...(r.resource_key ? { resourceKey: r.resource_key as string } : {}),
    }))
  }

  markFailed(eventId: string, reason: string): void {
    this.st.fail.run('failed', reason, eventId)
  }

  /** The 24 h endpoint check of a failed delivery has run. */
  checkDone(eventId: string): void {
    this.st.checkDone.run(eventId)
  }

  get(eventId: string): StoredDelivery | undefined {
    const row = this.st.byEventId.get(eventId) as Row | undefined
    return row ? storedFromRow(row) : undefined
  }

  pending(): StoredDelivery[] {
    return (this.st.pendingAll.all() as Row[]).map(storedFromRow)
  }

  /** Failed deliveries whose 24 h endpoint check has not run yet. */
  pendingChecks(): Array<{ eventId: string; env: Environment; firstAttemptAt: number; checkAt: number }> {
    return (this.st.checksAll.all() as Row[]).map((row) => ({
      eventId: row.event_id as string,
      env: row.environment as Environment,
      firstAttemptAt: row.first_attempt_ms as number,
      checkAt: row.check_ms as number,
    }))
  }

  // ------------------------------------------------------------ the panel's reads

  list(filter: DeliveryQuery = {}): DeliveryRecord[] {
    // 1001: the panel route asks one more than its largest page (1000) to learn whether another follows.
    const limit = Math.min(Math.max(1, Math.floor(filter.limit ?? 50)), 1001)
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
    if (filter.state) {
      where.push('state = ?')
      params.push(filter.state)
    }
    if (filter.type) {
      if (filter.type.endsWith('*')) {
        where.push("type LIKE ? ESCAPE '\\'")
        params.push(`${filter.type.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      } else {
        where.push('type = ?')
        params.push(filter.type)
      }
    }
    if (filter.sinceMs !== undefined) {
      where.push('created_ms >= ?')
      params.push(filter.sinceMs)
    }
    if (filter.startingAfter) {
      where.push('id < (SELECT id FROM webhook_deliveries WHERE event_id = ?)')
      params.push(filter.startingAfter)
    }
    const sql = `SELECT * FROM webhook_deliveries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    const rows = this.db.prepare(sql).all(...params, limit) as Row[]
    return rows.map((row) => {
      const record = toRecord(row)
      if (filter.eventId) record.attemptLog = (this.st.attemptsOf.all(row.id as number) as Row[]).map(toAttempt)
      return record
    })
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

function opt<T>(v: unknown): T | undefined {
  return v === null || v === undefined ? undefined : (v as T)
}

function storedFromRow(row: Row): StoredDelivery {
  const env = row.environment as Environment
  const body = row.body as string
  const type = row.type as string
  return {
    eventId: row.event_id as string,
    type,
    env,
    body,
    url: row.url as string,
    state: row.state as DeliveryState,
    attempts: row.attempts as number,
    firstAttemptAt: opt<number>(row.first_attempt_ms),
    retryIndex: row.retry_index as number,
    dueAt: opt<number>(row.next_retry_ms) ?? (row.created_ms as number),
    resourceKey: opt<string>(row.resource_key) ?? resourceOfBody(type, body),
  }
}

/** Rows written before resource_key existed: the charge named in the body. */
function resourceOfBody(type: string, body: string): string | undefined {
  if (type === 'charge.test') return undefined
  try {
    const id = (JSON.parse(body) as { data?: { charge?: { id?: unknown } } }).data?.charge?.id
    return typeof id === 'string' ? `charge:${id}` : undefined
  } catch {
    return undefined
  }
}

function toRecord(row: Row): DeliveryRecord {
  const rec: DeliveryRecord = {
    eventId: row.event_id as string,
    type: row.type as string,
    environment: row.environment as Environment,
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
  const injected = marks(row.injected)
  if (injected) rec.injected = injected
  // Never sent (`lose`): stored as succeeded (what the service believes), shown as what happened.
  if (rec.state === 'succeeded' && injected?.includes('lose')) rec.state = 'lost'
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
  const injected = marks(row.injected)
  if (injected) a.injected = injected
  return a
}

/** The comma-separated marks of injected faults, each once, in the order first seen. */
function marks(v: unknown): string[] | undefined {
  return typeof v === 'string' && v ? [...new Set(v.split(','))] : undefined
}
