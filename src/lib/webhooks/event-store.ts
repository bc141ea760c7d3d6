/**
 * The listener's event log in node:sqlite (`<configDir>/events.db`, mode 0600): every delivery,
 * verified or not, with its headers, the raw body as a BLOB, the verification verdict, the
 * forward status and latency, and the attempt number. A second table remembers which event ids
 * reached the app with success, so that deduplication survives a restart. Both are bounded:
 * the oldest rows go once the cap is passed.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { configDir } from '../config/store.js'

export type Verification = 'verified' | 'failed' | 'skipped'
/** What became of a delivery: forwarded with a 2xx, forward failed, rejected before forwarding, a duplicate, or filtered out. */
export type Outcome = 'forwarded' | 'failed' | 'rejected' | 'duplicate' | 'skipped'
export type DeliverySource = 'service' | 'replay'

export interface DeliveryRecord {
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
  forwardStatus?: number
  latencyMs?: number
  error?: string
  responseSnippet?: string
}

export type NewDeliveryRecord = Omit<DeliveryRecord, 'seq' | 'attempt'> & { attempt?: number }

export interface EventStoreOptions {
  /** Database file; `:memory:` for tests. Default `<configDir>/events.db`. */
  path?: string
  env?: NodeJS.ProcessEnv
  /** Deliveries kept (default 10 000). */
  maxDeliveries?: number
  /** Delivered event ids kept for deduplication (default 100 000). */
  maxDelivered?: number
}

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
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at TEXT NOT NULL,
  source TEXT NOT NULL,
  event_id TEXT,
  event_type TEXT,
  charge_id TEXT,
  attempt INTEGER NOT NULL,
  headers TEXT NOT NULL,
  body BLOB NOT NULL,
  verification TEXT NOT NULL,
  verify_reason TEXT,
  verify_message TEXT,
  outcome TEXT NOT NULL,
  answered_status INTEGER NOT NULL,
  forward_url TEXT,
  forward_status INTEGER,
  latency_ms INTEGER,
  error TEXT,
  response_snippet TEXT
);
CREATE INDEX IF NOT EXISTS deliveries_event ON deliveries(event_id, seq);
CREATE INDEX IF NOT EXISTS deliveries_type ON deliveries(event_type, seq);
CREATE TABLE IF NOT EXISTS delivered (
  event_id TEXT PRIMARY KEY,
  delivered_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS delivered_seq ON delivered(seq);
`

export class EventStore {
  readonly path: string
  private readonly maxDeliveries: number
  private readonly maxDelivered: number
  private insertsSincePrune = 0

  private constructor(
    private readonly db: DatabaseSync,
    path: string,
    opts: EventStoreOptions,
  ) {
    this.path = path
    this.maxDeliveries = opts.maxDeliveries ?? 10_000
    this.maxDelivered = opts.maxDelivered ?? 100_000
  }

  /** Opens (creating it 0600 if needed) the event log. node:sqlite is loaded only here. */
  static async open(opts: EventStoreOptions = {}): Promise<EventStore> {
    const path = opts.path ?? defaultEventsDbPath(opts.env)
    if (path !== ':memory:') {
      const dir = dirname(path)
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
      // Create the file ourselves so that it is never readable by others, whatever the umask.
      if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
      chmodSync(path, 0o600)
    }
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(path, { timeout: 5000 })
    db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = NORMAL;')
    db.exec(SCHEMA)
    return new EventStore(db, path, opts)
  }

  /** Records one delivery and returns it with its sequence number and attempt. */
  record(rec: NewDeliveryRecord): DeliveryRecord {
    const attempt = rec.attempt ?? (rec.eventId ? this.countFor(rec.eventId) + 1 : 1)
    const result = this.db
      .prepare(
        `INSERT INTO deliveries (received_at, source, event_id, event_type, charge_id, attempt, headers, body, verification, verify_reason, verify_message,
          outcome, answered_status, forward_url, forward_status, latency_ms, error, response_snippet)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        rec.receivedAt,
        rec.source,
        rec.eventId ?? null,
        rec.type ?? null,
        rec.chargeId ?? null,
        attempt,
        JSON.stringify(rec.headers),
        rec.body,
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
      )
    const seq = Number(result.lastInsertRowid)
    if (rec.outcome === 'forwarded' && rec.eventId) {
      this.db.prepare('INSERT OR REPLACE INTO delivered (event_id, delivered_at, seq) VALUES (?, ?, ?)').run(rec.eventId, rec.receivedAt, seq)
    }
    if (++this.insertsSincePrune >= 100) this.prune()
    return { ...rec, seq, attempt }
  }

  /** Whether this event already reached the app with a 2xx (deduplication). */
  isDelivered(eventId: string): boolean {
    return this.db.prepare('SELECT 1 AS hit FROM delivered WHERE event_id = ?').get(eventId) !== undefined
  }

  countFor(eventId: string): number {
    const row = this.db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE event_id = ? AND source = 'service'").get(eventId) as { n: number }
    return Number(row.n)
  }

  /** Newest first. */
  list(opts: { limit?: number; type?: string; eventId?: string } = {}): DeliveryRecord[] {
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
   * The delivery to replay for an event: the newest one the service sent that passed
   * verification, else the newest the service sent, else a replay's copy.
   */
  findForReplay(eventId: string): DeliveryRecord | undefined {
    const rows = this.db
      .prepare("SELECT * FROM deliveries WHERE event_id = ? ORDER BY (source = 'service') DESC, (verification = 'verified') DESC, seq DESC LIMIT 1")
      .all(eventId) as unknown as Row[]
    return rows[0] ? fromRow(rows[0]) : undefined
  }

  /** Drops the oldest rows beyond the caps. */
  prune(): void {
    this.insertsSincePrune = 0
    this.db.prepare('DELETE FROM deliveries WHERE seq <= (SELECT MAX(seq) FROM deliveries) - ?').run(this.maxDeliveries)
    const count = (this.db.prepare('SELECT COUNT(*) AS n FROM delivered').get() as { n: number }).n
    if (Number(count) > this.maxDelivered) {
      this.db
        .prepare('DELETE FROM delivered WHERE event_id IN (SELECT event_id FROM delivered ORDER BY seq ASC LIMIT ?)')
        .run(Number(count) - this.maxDelivered)
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }
}

function fromRow(r: Row): DeliveryRecord {
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
    forwardStatus: r.forward_status === null ? undefined : Number(r.forward_status),
    latencyMs: r.latency_ms === null ? undefined : Number(r.latency_ms),
    error: opt(r.error),
    responseSnippet: opt(r.response_snippet),
  }
}
