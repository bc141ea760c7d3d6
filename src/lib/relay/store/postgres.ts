/**
 * The relay's store on PostgreSQL (`svc relay serve --store postgres://…`): every durable thing
 * lives in the database, so several relay instances behind a load balancer serve one team.
 *
 * Group commit (group-commit.ts). `ingest` queues its delivery; the calls of one event-loop turn,
 * and those that arrive while an ingest transaction is in flight, share the next one (up to
 * MAX_BATCH), so a burst costs one commit (one WAL flush) per batch, not per delivery. Each caller resolves only after COMMIT
 * returned; a failed transaction rejects every caller in it with RelayStoreUnavailable (the
 * relay answers 503 and the service retries: nothing answered 2xx is lost; a commit whose answer
 * was lost with the connection may be stored and retried, a duplicate the listener's dedup by
 * event id absorbs).
 *
 * Sequence numbers. The ingest transaction takes its seqs with
 * `UPDATE relay_seq SET last = last + n RETURNING last`: the row lock it takes is held until
 * COMMIT, so ingest transactions (of every instance) commit one after the other in seq order, and
 * PostgreSQL releases the lock only after the commit is visible. A reader that sees seq N+1 can
 * therefore never later find an N that was still committing: streams read "seq > cursor" without
 * a watermark. That is the same serialisation an advisory xact lock would give, and the counter
 * costs no extra statement; the serialised section is short because one transaction carries a
 * whole batch. (NOTIFY serialises commits too: PostgreSQL takes a database-wide lock on its queue
 * at commit; one NOTIFY per channel per batch keeps that cost per batch as well.)
 *
 * Wake-ups. The ingest transaction runs `pg_notify('relay_ingest', channel)` for each channel in
 * its batch: PostgreSQL sends it only when the transaction commits, and the payload is the
 * channel's name only (never a delivery: payloads are capped at 8000 bytes, and the stream reads
 * the store anyway). Each store LISTENs on a dedicated connection that reconnects with backoff;
 * a poll every POLL_MS asks which channels got seqs past the last one seen, so a wake-up lost
 * while that connection was down is late by one poll at most. Local ingests also wake locally at
 * once.
 *
 * Stream leases. One stream per token across instances: `claimStream` upserts
 * relay_stream_leases (token → instance, generation + 1, expires_at = now() + LEASE_TTL_MS) in a
 * transaction with `pg_notify('relay_lease', token)`. The instance that held it hears the
 * notification (or, failing that, its next lease check, every POLL_MS) and sees the generation
 * moved on: it closes its stream as `replaced`. Meanwhile its reads are fenced: `pending()` for a
 * token this instance leases joins the lease row, so they return nothing once another claim has
 * committed, notification heard or not. A holder renews its leases at each check; the
 * lease of a killed instance is simply left to expire (LEASE_TTL_MS), which only matters to
 * `status` (connected or not) — a new stream never waits for it, it takes the lease at once.
 *
 * Connections. A pg Pool with a statement timeout, a query timeout and a connect timeout, so a
 * database that vanished answers an error within seconds rather than holding requests open;
 * broken connections are dropped by the pool and new ones made on the next query, so a
 * PostgreSQL restart needs no relay restart. Nothing here logs; errors never carry the URL's
 * password.
 */
import { randomUUID } from 'node:crypto'
import type { Client, Pool, PoolClient } from 'pg'
import { GroupCommit } from './group-commit.js'
import { checkSchema, type Queryable } from './postgres-schema.js'
import { redactSecretIn } from './postgres-url.js'
import {
  type ChannelRecord,
  type NewDelivery,
  type PendingDelivery,
  type PruneResult,
  type RelayStatusSnapshot,
  type RelayStore,
  RelayStoreConflict,
  RelayStoreUnavailable,
  type StoredDelivery,
  type StreamLease,
  type TokenRecord,
  type TokenStatus,
} from './types.js'

const MAX_BATCH = 500
/** Deliveries one prune round deletes at most (the oldest first): a relay back after a long stop catches up over rounds, each within the statement timeout. */
const PRUNE_BATCH = 50_000
export const POLL_MS = 1000
export const LEASE_TTL_MS = 30_000
const INGEST_CHANNEL = 'relay_ingest'
const LEASE_CHANNEL = 'relay_lease'
const ACK_CHANNEL = 'relay_ack'

export interface PostgresStoreOptions {
  /** Names this instance's connections in pg_stat_activity (and its leases). */
  applicationName?: string
  /** Tables live in this schema (search_path); default: the URL's / the server's. */
  schema?: string
  /** Per statement, server side. */
  statementTimeoutMs?: number
  /** Connecting, and waiting for a pooled connection. */
  connectTimeoutMs?: number
  poolSize?: number
  /** How often the fallback poll and the lease check run. */
  pollMs?: number
  leaseTtlMs?: number
}

export type LeaseLostReason = 'replaced' | 'revoked'

interface HeldLease {
  generation: number
  lost?: LeaseLostReason
  callbacks: Array<(reason: LeaseLostReason) => void>
}

type Gap = { lost: number; fromSeq?: number; toSeq?: number; reason?: 'retention' | 'max_bytes' }

const num = (v: unknown): number => Number(v)
const optNum = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v))
const optStr = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v))

/** A pg error that means "the database cannot be reached or is going away", not a bug of ours. */
function isConnectionFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string }
  const code = e?.code ?? ''
  if (/^(08|53|57)/.test(code)) return true // connection exception, insufficient resources, operator intervention (incl. statement timeout)
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'].includes(code)) return true
  return /Connection terminated|connection timeout|timeout exceeded|Client has encountered a connection error|not queryable|ECONNREFUSED/i.test(e?.message ?? '')
}

function rowToChannel(r: Record<string, unknown>): ChannelRecord {
  const c: ChannelRecord = { name: String(r.name), secrets: r.secrets as string[], createdAt: String(r.created_at) }
  const retentionMs = optNum(r.retention_ms)
  const maxBytes = optNum(r.max_bytes)
  if (retentionMs !== undefined) c.retentionMs = retentionMs
  if (maxBytes !== undefined) c.maxBytes = maxBytes
  return c
}

function rowToToken(r: Record<string, unknown>): TokenRecord {
  const t: TokenRecord = {
    name: String(r.name),
    channel: String(r.channel),
    hash: String(r.hash),
    only: r.only_types as string[],
    match: r.match_rules as TokenRecord['match'],
    createdAt: String(r.created_at),
    startSeq: num(r.start_seq),
  }
  const revokedAt = optStr(r.revoked_at)
  if (revokedAt !== undefined) t.revokedAt = revokedAt
  return t
}

function rowToDelivery(r: Record<string, unknown>): StoredDelivery {
  const d: StoredDelivery = {
    seq: num(r.seq),
    channel: String(r.channel),
    arrivedAt: String(r.arrived_at),
    headers: r.headers as Record<string, string>,
    body: new Uint8Array(r.body as Buffer),
  }
  const eventId = optStr(r.event_id)
  const eventType = optStr(r.event_type)
  if (eventId !== undefined) d.eventId = eventId
  if (eventType !== undefined) d.eventType = eventType
  return d
}

const TOKEN_COLUMNS = 'name, channel, hash, only_types, match_rules, created_at, start_seq, revoked_at'

export class PostgresRelayStore implements RelayStore {
  readonly kind = 'postgres' as const
  /** This instance's id in the leases table. */
  readonly instanceId: string
  private readonly group: GroupCommit<NewDelivery, StoredDelivery>
  private closed = false
  private readonly wakers = new Set<(channel: string) => void>()
  private readonly ackWakers = new Set<(token: string) => void>()
  private readonly leases = new Map<string, HeldLease>()
  private listener?: Client
  private listenerBackoff = 250
  private listenerTimer?: NodeJS.Timeout
  private pollTimer?: NodeJS.Timeout
  private lastSeenSeq = -1
  private polling = false
  private readonly guarded = new WeakSet<PoolClient>()

  constructor(
    private readonly pool: Pool,
    private readonly makeClient: () => Client,
    private readonly url: string,
    private readonly opts: Required<Pick<PostgresStoreOptions, 'pollMs' | 'leaseTtlMs'>> & { applicationName: string },
  ) {
    this.instanceId = `${opts.applicationName}:${randomUUID()}`
    // An idle pooled connection that breaks (PostgreSQL restarted) emits 'error' on the pool;
    // unheard it would end the process. The pool drops it; the next query makes a new one.
    pool.on('error', () => {})
    this.group = new GroupCommit({ commit: (items) => this.commitIngest(items), maxBatch: MAX_BATCH })
  }

  /** Starts the LISTEN connection and the poll, from the seq the store is at now. */
  start(lastSeq: number): void {
    this.lastSeenSeq = lastSeq
    this.connectListener()
    this.pollTimer = setInterval(() => void this.poll(), this.opts.pollMs)
    this.pollTimer.unref()
  }

  private unavailable(err: unknown): RelayStoreUnavailable {
    if (err instanceof RelayStoreUnavailable) return err
    const message = redactSecretIn(err instanceof Error ? err.message : String(err), this.url)
    return new RelayStoreUnavailable(`PostgreSQL cannot commit: ${message}`)
  }

  /** Runs `fn`, turning a lost database into RelayStoreUnavailable (messages scrubbed of the password). */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      if (err instanceof RelayStoreConflict || err instanceof RelayStoreUnavailable) throw err
      if (isConnectionFailure(err)) throw this.unavailable(err)
      if (err instanceof Error) err.message = redactSecretIn(err.message, this.url)
      throw err
    }
  }

  /**
   * A pooled connection with an 'error' listener: one that breaks while checked out (between two
   * statements of a transaction) would otherwise throw out of the process. The statement that
   * uses it next fails, and the transaction with it.
   */
  private async checkout(): Promise<PoolClient> {
    const client = await this.pool.connect()
    if (!this.guarded.has(client)) {
      this.guarded.add(client)
      client.on('error', () => {})
    }
    return client
  }

  private q(text: string, values?: unknown[]) {
    return this.guard(() => this.pool.query(text, values))
  }

  private async tx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.guard(async () => {
      const client = await this.checkout()
      let broken: unknown
      try {
        await client.query('BEGIN')
        const out = await fn(client)
        await client.query('COMMIT')
        return out
      } catch (err) {
        broken = err
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release(broken !== undefined && isConnectionFailure(broken) ? (broken as Error) : undefined)
      }
    })
  }

  // ---- channels -------------------------------------------------------------------------------

  async addChannel(channel: ChannelRecord): Promise<void> {
    const res = await this.q('INSERT INTO relay_channels (name, secrets, created_at, retention_ms, max_bytes) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING', [
      channel.name,
      JSON.stringify(channel.secrets),
      channel.createdAt,
      channel.retentionMs ?? null,
      channel.maxBytes ?? null,
    ])
    if (res.rowCount === 0) throw new RelayStoreConflict(`A channel named ${channel.name} already exists.`, 'name')
  }

  async removeChannel(name: string): Promise<boolean> {
    return this.tx(async (c) => {
      const res = await c.query('DELETE FROM relay_channels WHERE name = $1', [name])
      if (res.rowCount === 0) return false
      await c.query('DELETE FROM relay_acks WHERE token IN (SELECT name FROM relay_tokens WHERE channel = $1)', [name])
      await c.query('DELETE FROM relay_sends WHERE token IN (SELECT name FROM relay_tokens WHERE channel = $1)', [name])
      await c.query('DELETE FROM relay_stream_leases WHERE token IN (SELECT name FROM relay_tokens WHERE channel = $1)', [name])
      await c.query('DELETE FROM relay_tokens WHERE channel = $1', [name])
      await c.query('DELETE FROM relay_deliveries WHERE channel = $1', [name])
      return true
    })
  }

  async getChannel(name: string): Promise<ChannelRecord | undefined> {
    const res = await this.q('SELECT * FROM relay_channels WHERE name = $1', [name])
    return res.rows[0] ? rowToChannel(res.rows[0]) : undefined
  }

  async listChannels(): Promise<ChannelRecord[]> {
    const res = await this.q('SELECT * FROM relay_channels ORDER BY name')
    return res.rows.map(rowToChannel)
  }

  // ---- tokens ---------------------------------------------------------------------------------

  async createToken(token: Omit<TokenRecord, 'startSeq' | 'revokedAt'>): Promise<TokenRecord> {
    return this.tx(async (c) => {
      const channel = await c.query('SELECT 1 FROM relay_channels WHERE name = $1', [token.channel])
      if (!channel.rowCount) throw new RelayStoreConflict(`No channel named ${token.channel}.`, 'channel')
      const named = await c.query('SELECT 1 FROM relay_tokens WHERE name = $1', [token.name])
      if (named.rowCount) throw new RelayStoreConflict(`A token named ${token.name} already exists.`, 'name')
      const hashed = await c.query('SELECT 1 FROM relay_tokens WHERE hash = $1', [token.hash])
      if (hashed.rowCount) throw new RelayStoreConflict('A token with this hash exists.', 'hash')
      const res = await c.query(
        `INSERT INTO relay_tokens (name, channel, hash, only_types, match_rules, created_at, start_seq, ack_floor)
         SELECT $1, $2, $3, $4, $5, $6, last, last FROM relay_seq WHERE id = 1
         ON CONFLICT DO NOTHING RETURNING ${TOKEN_COLUMNS}`,
        [token.name, token.channel, token.hash, JSON.stringify(token.only), JSON.stringify(token.match), token.createdAt],
      )
      if (!res.rows[0]) throw new RelayStoreConflict(`A token named ${token.name} already exists.`, 'name')
      return rowToToken(res.rows[0])
    })
  }

  async revokeToken(name: string, at: string): Promise<boolean> {
    const res = await this.q(
      `WITH r AS (UPDATE relay_tokens SET revoked_at = $2, connected_at = NULL WHERE name = $1 AND revoked_at IS NULL RETURNING name)
       SELECT name, pg_notify('${LEASE_CHANNEL}', name) FROM r`,
      [name, at],
    )
    return (res.rowCount ?? 0) > 0
  }

  async listTokens(): Promise<TokenRecord[]> {
    const res = await this.q(`SELECT ${TOKEN_COLUMNS} FROM relay_tokens ORDER BY name`)
    return res.rows.map(rowToToken)
  }

  async findToken(hash: string): Promise<TokenRecord | undefined> {
    const res = await this.q(`SELECT ${TOKEN_COLUMNS} FROM relay_tokens WHERE hash = $1 AND revoked_at IS NULL`, [hash])
    return res.rows[0] ? rowToToken(res.rows[0]) : undefined
  }

  // ---- ingest (group commit) ------------------------------------------------------------------

  ingest(delivery: NewDelivery): Promise<StoredDelivery> {
    if (this.closed) return Promise.reject(new RelayStoreUnavailable('The relay store is closed.'))
    return this.group.submit(delivery)
  }

  /** One ingest transaction (group-commit.ts calls it with every delivery gathered meanwhile). */
  private async commitIngest(items: readonly NewDelivery[]): Promise<StoredDelivery[]> {
    let stored: StoredDelivery[]
    try {
      stored = await this.commitBatch(items).catch((err: unknown) => {
        // A pooled connection PostgreSQL had already dropped (a restart) fails before the statement
        // is sent: nothing can have committed, so a fresh connection may try once more. A failure
        // after sending is ambiguous and goes back to the service as 503 (it retries).
        if (/not queryable/i.test(err instanceof Error ? err.message : '')) return this.commitBatch(items)
        throw err
      })
    } catch (err) {
      throw this.unavailable(err)
    }
    for (const ch of new Set(stored.map((d) => d.channel))) this.wake(ch)
    return stored
  }

  /**
   * One statement, so one round trip: PostgreSQL runs it as its own transaction (BEGIN and COMMIT
   * implied), the seq row stays locked until that commit, and the NOTIFYs go out only with it.
   * `pg_notify` sits in a CTE the final SELECT reads, so it runs once per channel of the batch.
   */
  private async commitBatch(deliveries: readonly NewDelivery[]): Promise<StoredDelivery[]> {
    const res = await this.pool.query(
      `WITH s AS (UPDATE relay_seq SET last = last + $1 WHERE id = 1 RETURNING last),
       ins AS (
         INSERT INTO relay_deliveries (seq, channel, event_id, event_type, arrived_at, arrived, headers, body, bytes)
         SELECT s.last - $1 + u.ord, u.ch, u.eid, u.et, u.at, u.at::timestamptz, u.h::jsonb, u.b, octet_length(u.b)
         FROM s, unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bytea[]) WITH ORDINALITY AS u(ch, eid, et, at, h, b, ord)
         RETURNING 1),
       n AS (SELECT pg_notify('${INGEST_CHANNEL}', ch) FROM (SELECT DISTINCT ch FROM unnest($2::text[]) AS ch) AS chans)
       SELECT (SELECT last FROM s) AS last, (SELECT count(*) FROM ins) AS inserted, (SELECT count(*) FROM n) AS notified`,
      [
        deliveries.length,
        deliveries.map((d) => d.channel),
        deliveries.map((d) => d.eventId ?? null),
        deliveries.map((d) => d.eventType ?? null),
        deliveries.map((d) => d.arrivedAt),
        deliveries.map((d) => JSON.stringify(d.headers)),
        deliveries.map((d) => Buffer.from(d.body.buffer, d.body.byteOffset, d.body.byteLength)),
      ],
    )
    const row = res.rows[0]
    if (!row || num(row.inserted) !== deliveries.length) throw new Error(`ingest stored ${row?.inserted ?? 0} of ${deliveries.length} deliveries`)
    const first = num(row.last) - deliveries.length + 1
    return deliveries.map((d, i) => ({ ...d, seq: first + i }))
  }

  // ---- streams --------------------------------------------------------------------------------

  /**
   * Fenced by the stream lease when this instance holds one for the token: once another
   * instance's claim has committed, this read returns nothing, even before the notification
   * arrives — two instances never read one token's deliveries for a stream at once. Only what was
   * read just before the claim can go out twice (the listener's dedup by event id drops it).
   */
  async pending(token: string, afterSeq: number, limit: number): Promise<PendingDelivery[]> {
    const lease = this.leases.get(token)
    if (lease?.lost) return []
    const fence = lease ? 'AND EXISTS (SELECT 1 FROM relay_stream_leases l WHERE l.token = t.name AND l.instance = $4 AND l.generation = $5)' : ''
    const res = await this.q(
      `SELECT d.seq, d.channel, d.event_id, d.event_type, d.arrived_at, d.headers, d.body, COALESCE(s.sends, 0) AS sends
       FROM relay_tokens t
       JOIN relay_deliveries d ON d.channel = t.channel AND d.seq > GREATEST(t.start_seq, t.ack_floor, $2::bigint)
       LEFT JOIN relay_acks a ON a.token = t.name AND a.seq = d.seq
       LEFT JOIN relay_sends s ON s.token = t.name AND s.seq = d.seq
       WHERE t.name = $1 AND a.seq IS NULL ${fence}
       ORDER BY d.seq LIMIT $3`,
      lease ? [token, afterSeq, limit, this.instanceId, lease.generation] : [token, afterSeq, limit],
    )
    return res.rows.map((r) => ({ ...rowToDelivery(r), sends: num(r.sends) }))
  }

  async markSent(token: string, seqs: number[]): Promise<void> {
    if (seqs.length === 0) return
    await this.q(
      `INSERT INTO relay_sends (token, seq, sends) SELECT $1, s, 1 FROM unnest($2::bigint[]) AS s
       ON CONFLICT (token, seq) DO UPDATE SET sends = relay_sends.sends + 1`,
      [token, seqs],
    )
  }

  async backlog(token: string): Promise<number> {
    const res = await this.q(
      `SELECT count(d.seq) AS n FROM relay_tokens t
       JOIN relay_deliveries d ON d.channel = t.channel AND d.seq > GREATEST(t.start_seq, t.ack_floor)
       WHERE t.name = $1 AND NOT EXISTS (SELECT 1 FROM relay_acks a WHERE a.token = t.name AND a.seq = d.seq)`,
      [token],
    )
    return num(res.rows[0]?.n)
  }

  async ack(token: string, seqs: number[], at: string): Promise<void> {
    if (seqs.length === 0) return
    await this.tx(async (c) => {
      // The token's row lock orders two acks of one token (two streams' last acks racing a replace).
      const t = await c.query('SELECT channel, GREATEST(start_seq, ack_floor) AS floor FROM relay_tokens WHERE name = $1 FOR UPDATE', [token])
      const row = t.rows[0]
      if (!row) return
      const res = await c.query(
        `INSERT INTO relay_acks (token, seq)
         SELECT $1, d.seq FROM relay_deliveries d WHERE d.channel = $2 AND d.seq > $3 AND d.seq = ANY($4::bigint[])
         ON CONFLICT DO NOTHING`,
        [token, row.channel, row.floor, seqs],
      )
      if (!res.rowCount) return
      // Sent at commit: the instance streaming this token (maybe not this one) frees its window.
      await c.query(`SELECT pg_notify('${ACK_CHANNEL}', $1)`, [token])
      await c.query('UPDATE relay_tokens SET last_ack_at = $2 WHERE name = $1', [token, at])
      await this.advanceFloor(c, token, String(row.channel), num(row.floor))
    })
  }

  /** Moves the token's cursor up to just below its oldest unacked delivery, dropping the ack rows it passed. */
  private async advanceFloor(c: PoolClient, token: string, channel: string, floor: number): Promise<void> {
    const res = await c.query(
      `SELECT (SELECT min(d.seq) FROM relay_deliveries d WHERE d.channel = $1 AND d.seq > $2
                 AND NOT EXISTS (SELECT 1 FROM relay_acks a WHERE a.token = $3 AND a.seq = d.seq)) AS unacked,
              (SELECT max(seq) FROM relay_deliveries WHERE channel = $1) AS newest`,
      [channel, floor, token],
    )
    const r = res.rows[0]
    const next = r?.unacked !== null && r?.unacked !== undefined ? num(r.unacked) - 1 : r?.newest !== null && r?.newest !== undefined ? num(r.newest) : floor
    if (next <= floor) return
    await c.query('UPDATE relay_tokens SET ack_floor = $2 WHERE name = $1', [token, next])
    await c.query('DELETE FROM relay_acks WHERE token = $1 AND seq <= $2', [token, next])
    await c.query('DELETE FROM relay_sends WHERE token = $1 AND seq <= $2', [token, next])
  }

  async markConnected(token: string, at: string | undefined): Promise<void> {
    await this.q('UPDATE relay_tokens SET connected_at = $2 WHERE name = $1', [token, at ?? null])
  }

  async takeGap(token: string): Promise<Gap | undefined> {
    const res = await this.q(
      `WITH old AS (SELECT name, untold_lost, gap_from, gap_to, gap_reason FROM relay_tokens WHERE name = $1 AND untold_lost > 0 FOR UPDATE)
       UPDATE relay_tokens t SET untold_lost = 0, gap_from = NULL, gap_to = NULL, gap_reason = NULL
       FROM old WHERE t.name = old.name
       RETURNING old.untold_lost, old.gap_from, old.gap_to, old.gap_reason`,
      [token],
    )
    const r = res.rows[0]
    if (!r) return undefined
    const gap: Gap = { lost: num(r.untold_lost) }
    const fromSeq = optNum(r.gap_from)
    const toSeq = optNum(r.gap_to)
    if (fromSeq !== undefined) gap.fromSeq = fromSeq
    if (toSeq !== undefined) gap.toSeq = toSeq
    if (r.gap_reason === 'retention' || r.gap_reason === 'max_bytes') gap.reason = r.gap_reason
    return gap
  }

  // ---- retention and status -------------------------------------------------------------------

  async prune(now: Date, defaultRetentionMs: number): Promise<PruneResult> {
    return this.tx(async (c) => {
      // Every instance prunes on its own timer: one at a time, or two would count one loss twice.
      // The other instance pruning right now does this round's work; this one skips it.
      const lock = await c.query("SELECT pg_try_advisory_xact_lock(hashtext('svc_relay_prune')::bigint) AS got")
      if (lock.rows[0]?.got !== true) return { deleted: 0, lostByToken: {} }
      // Past retention, then the oldest beyond a channel's max bytes.
      const doomed = await c.query(
        `SELECT d.seq, d.channel, 'retention' AS reason FROM relay_deliveries d JOIN relay_channels ch ON ch.name = d.channel
           WHERE d.arrived < $1::timestamptz - (COALESCE(ch.retention_ms, $2::bigint) * interval '1 millisecond')
         UNION ALL
         SELECT x.seq, x.channel, 'max_bytes' FROM (
           SELECT d.seq, d.channel, ch.max_bytes, sum(d.bytes) OVER (PARTITION BY d.channel ORDER BY d.seq DESC) AS total
           FROM relay_deliveries d JOIN relay_channels ch ON ch.name = d.channel
           WHERE ch.max_bytes IS NOT NULL
             AND d.arrived >= $1::timestamptz - (COALESCE(ch.retention_ms, $2::bigint) * interval '1 millisecond')
         ) x WHERE x.total > x.max_bytes
         ORDER BY seq LIMIT ${PRUNE_BATCH}`,
        [now.toISOString(), defaultRetentionMs],
      )
      if (doomed.rows.length === 0) return { deleted: 0, lostByToken: {} }
      const seqs = doomed.rows.map((r) => num(r.seq))
      const lost = await c.query(
        `SELECT t.name, count(*) AS lost, min(d.seq) AS from_seq, max(d.seq) AS to_seq,
                bool_or(x.reason = 'max_bytes') AS by_bytes
         FROM unnest($1::bigint[], $2::text[]) AS x(seq, reason)
         JOIN relay_deliveries d ON d.seq = x.seq
         JOIN relay_tokens t ON t.channel = d.channel AND d.seq > GREATEST(t.start_seq, t.ack_floor) AND t.revoked_at IS NULL
         LEFT JOIN relay_acks a ON a.token = t.name AND a.seq = d.seq
         WHERE a.seq IS NULL
         GROUP BY t.name`,
        [seqs, doomed.rows.map((r) => String(r.reason))],
      )
      const lostByToken: Record<string, number> = {}
      for (const r of lost.rows) {
        lostByToken[String(r.name)] = num(r.lost)
        await c.query(
          `UPDATE relay_tokens SET untold_lost = untold_lost + $2,
             gap_from = LEAST(COALESCE(gap_from, $3), $3), gap_to = GREATEST(COALESCE(gap_to, $4), $4), gap_reason = $5
           WHERE name = $1`,
          [r.name, num(r.lost), num(r.from_seq), num(r.to_seq), r.by_bytes ? 'max_bytes' : 'retention'],
        )
      }
      const del = await c.query('DELETE FROM relay_deliveries WHERE seq = ANY($1::bigint[])', [seqs])
      await c.query('DELETE FROM relay_acks WHERE seq = ANY($1::bigint[])', [seqs])
      await c.query('DELETE FROM relay_sends WHERE seq = ANY($1::bigint[])', [seqs])
      return { deleted: del.rowCount ?? 0, lostByToken }
    })
  }

  async status(now: Date): Promise<RelayStatusSnapshot> {
    const channels = await this.q(
      `SELECT ch.name, count(d.seq) AS deliveries, COALESCE(sum(d.bytes), 0) AS bytes
       FROM relay_channels ch LEFT JOIN relay_deliveries d ON d.channel = ch.name GROUP BY ch.name ORDER BY ch.name`,
    )
    const tokens = await this.q(
      `SELECT t.name, t.channel, t.revoked_at, t.last_ack_at, t.untold_lost, t.connected_at,
              count(d.seq) AS backlog, min(d.arrived_at) AS oldest
       FROM relay_tokens t
       LEFT JOIN relay_deliveries d ON d.channel = t.channel AND d.seq > GREATEST(t.start_seq, t.ack_floor)
         AND NOT EXISTS (SELECT 1 FROM relay_acks a WHERE a.token = t.name AND a.seq = d.seq)
       GROUP BY t.name ORDER BY t.name`,
    )
    const hour = await this.q(`SELECT count(*) AS n FROM relay_deliveries WHERE arrived > $1::timestamptz - interval '1 hour'`, [now.toISOString()])
    return {
      channels: channels.rows.map((r) => ({ name: String(r.name), deliveries: num(r.deliveries), bytes: num(r.bytes) })),
      tokens: tokens.rows.map((r) => {
        const s: TokenStatus = {
          name: String(r.name),
          channel: String(r.channel),
          revoked: r.revoked_at !== null,
          backlog: num(r.backlog),
          untoldLost: num(r.untold_lost),
        }
        const oldest = optStr(r.oldest)
        const lastAck = optStr(r.last_ack_at)
        const connectedAt = optStr(r.connected_at)
        if (oldest !== undefined) s.oldestUnackedAt = oldest
        if (lastAck !== undefined) s.lastAckAt = lastAck
        if (connectedAt !== undefined) (s as TokenStatus & { connectedAt?: string }).connectedAt = connectedAt
        return s
      }),
      ingestedLastHour: num(hour.rows[0]?.n),
    }
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false
    try {
      // A standby answers SELECT but cannot commit: healthy means "a write would commit now".
      const res = await this.pool.query('SELECT NOT pg_is_in_recovery() AS ok')
      return res.rows[0]?.ok === true
    } catch {
      return false
    }
  }

  // ---- wake-ups -------------------------------------------------------------------------------

  onAcked(acked: (token: string) => void): () => void {
    this.ackWakers.add(acked)
    return () => this.ackWakers.delete(acked)
  }

  onIngest(wake: (channel: string) => void): () => void {
    this.wakers.add(wake)
    return () => this.wakers.delete(wake)
  }

  private wake(channel: string): void {
    for (const w of this.wakers) {
      try {
        w(channel)
      } catch {
        // a waker's failure is its stream's business
      }
    }
  }

  private connectListener(): void {
    if (this.closed) return
    const client = this.makeClient()
    this.listener = client
    let gone = false
    const retry = () => {
      if (gone) return
      gone = true
      if (this.listener === client) this.listener = undefined
      client.removeAllListeners('notification')
      client.end().catch(() => {})
      if (this.closed) return
      this.listenerTimer = setTimeout(() => this.connectListener(), this.listenerBackoff)
      this.listenerTimer.unref()
      this.listenerBackoff = Math.min(this.listenerBackoff * 2, 5000)
    }
    client.on('error', retry)
    client.on('end', retry)
    client.on('notification', (msg) => {
      if (!msg.payload) return
      if (msg.channel === INGEST_CHANNEL) this.wake(msg.payload)
      else if (msg.channel === LEASE_CHANNEL && this.leases.has(msg.payload)) {
        // Like poll()'s check: the database away (or the store closing) fails it, and the next poll checks again.
        // Unhandled, that rejection would end the relay's process.
        this.checkLeases([msg.payload]).catch(() => {})
      } else if (msg.channel === ACK_CHANNEL && this.leases.has(msg.payload)) {
        for (const w of this.ackWakers) {
          try {
            w(msg.payload)
          } catch {
            // the stream's own business
          }
        }
      }
    })
    client
      .connect()
      .then(() => client.query(`LISTEN ${INGEST_CHANNEL}; LISTEN ${LEASE_CHANNEL}; LISTEN ${ACK_CHANNEL}`))
      .then(() => {
        this.listenerBackoff = 250
        // Whatever committed while we were not listening: the poll finds it now, not in a second.
        void this.poll()
      })
      .catch(retry)
  }

  /** The fallback: channels with seqs past the last seen wake; held leases are checked and renewed. */
  private async poll(): Promise<void> {
    if (this.polling || this.closed) return
    this.polling = true
    try {
      // Tracked from open on, wakers or not: a stream that starts later reads its backlog itself.
      const res = await this.pool.query('SELECT last FROM relay_seq WHERE id = 1')
      const last = num(res.rows[0]?.last)
      if (this.lastSeenSeq >= 0 && last > this.lastSeenSeq) {
        const chans = await this.pool.query('SELECT DISTINCT channel FROM relay_deliveries WHERE seq > $1', [this.lastSeenSeq])
        for (const r of chans.rows) this.wake(String(r.channel))
      }
      this.lastSeenSeq = last
      if (this.leases.size > 0) await this.checkLeases([...this.leases.keys()])
    } catch {
      // the database is away: the next poll tries again; healthy() says so meanwhile
    } finally {
      this.polling = false
    }
  }

  // ---- stream leases --------------------------------------------------------------------------

  async claimStream(token: string): Promise<StreamLease> {
    const res = await this.q(
      `WITH l AS (
         INSERT INTO relay_stream_leases (token, instance, generation, expires_at)
         VALUES ($1, $2, 1, now() + $3::bigint * interval '1 millisecond')
         ON CONFLICT (token) DO UPDATE SET instance = EXCLUDED.instance, generation = relay_stream_leases.generation + 1,
           expires_at = EXCLUDED.expires_at
         RETURNING generation)
       SELECT generation, pg_notify('${LEASE_CHANNEL}', $1) FROM l`,
      [token, this.instanceId, this.opts.leaseTtlMs],
    )
    const generation = num(res.rows[0]?.generation)
    // A stream of this instance that held the token is replaced as well.
    const previous = this.leases.get(token)
    if (previous) this.lose(previous, 'replaced')
    const held: HeldLease = { generation, callbacks: [] }
    this.leases.set(token, held)
    return {
      token,
      generation,
      held: () => held.lost === undefined,
      onLost: (cb) => {
        if (held.lost) cb(held.lost)
        else held.callbacks.push(cb)
      },
      release: async () => {
        if (this.leases.get(token) === held) this.leases.delete(token)
        if (held.lost) return
        held.lost = 'replaced'
        await this.pool.query('DELETE FROM relay_stream_leases WHERE token = $1 AND instance = $2 AND generation = $3', [token, this.instanceId, generation]).catch(() => {})
      },
    }
  }

  private lose(held: HeldLease, reason: LeaseLostReason): void {
    if (held.lost) return
    held.lost = reason
    // Kept (lost) until the stream releases it or a new stream here claims the token: pending() stays fenced meanwhile.
    for (const cb of held.callbacks) {
      try {
        cb(reason)
      } catch {
        // the stream's own business
      }
    }
  }

  /** Renews the leases still ours; those another instance took (or whose token was revoked) are lost. */
  private async checkLeases(tokens: string[]): Promise<void> {
    const mine = tokens.map((t) => [t, this.leases.get(t)] as const).filter((x): x is readonly [string, HeldLease] => x[1] !== undefined && !x[1].lost)
    if (mine.length === 0) return
    const res = await this.pool.query(
      `SELECT l.token, l.instance, l.generation, t.name AS live_name, t.revoked_at
       FROM relay_stream_leases l LEFT JOIN relay_tokens t ON t.name = l.token
       WHERE l.token = ANY($1::text[])`,
      [mine.map(([t]) => t)],
    )
    const rows = new Map(res.rows.map((r) => [String(r.token), r]))
    const renew: string[] = []
    for (const [token, held] of mine) {
      const r = rows.get(token)
      if (!r) this.lose(held, 'replaced')
      else if (r.live_name === null || r.revoked_at !== null) this.lose(held, 'revoked')
      else if (String(r.instance) !== this.instanceId || num(r.generation) !== held.generation) this.lose(held, 'replaced')
      else renew.push(token)
    }
    if (renew.length > 0) {
      await this.pool.query(`UPDATE relay_stream_leases SET expires_at = now() + $3::bigint * interval '1 millisecond' WHERE token = ANY($1::text[]) AND instance = $2`, [renew, this.instanceId, this.opts.leaseTtlMs])
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // Queued ingests finish their commit (and get their answer) before the pool goes.
    await this.group.drain()
    if (this.pollTimer) clearInterval(this.pollTimer)
    if (this.listenerTimer) clearTimeout(this.listenerTimer)
    const leases = [...this.leases.entries()]
    this.leases.clear()
    if (leases.length > 0) {
      await this.pool.query('DELETE FROM relay_stream_leases WHERE instance = $1 AND token = ANY($2::text[])', [this.instanceId, leases.map(([t]) => t)]).catch(() => {})
    }
    const listener = this.listener
    this.listener = undefined
    if (listener) {
      listener.removeAllListeners()
      listener.on('error', () => {})
      await listener.end().catch(() => {})
    }
    await this.pool.end().catch(() => {})
  }
}

/**
 * Opens the store at `url` (loading `pg` only now, so other commands never pay for it) and checks
 * its schema: a missing or unknown version throws RelaySchemaError naming `svc relay migrate`.
 * An unreachable database throws RelayStoreUnavailable (password scrubbed).
 */
export async function openPostgresRelayStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresRelayStore> {
  const { Pool, Client } = await import('pg')
  const applicationName = options.applicationName ?? 'svc-relay'
  const statementTimeout = options.statementTimeoutMs ?? 10_000
  const connectTimeout = options.connectTimeoutMs ?? 3000
  const config = {
    connectionString: url,
    application_name: applicationName,
    statement_timeout: statementTimeout,
    // Client side as well: a connection whose server vanished without a FIN answers nothing.
    query_timeout: statementTimeout + 2000,
    connectionTimeoutMillis: connectTimeout,
    keepAlive: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  }
  const pool = new Pool({ ...config, max: options.poolSize ?? 10, idleTimeoutMillis: 30_000 })
  const store = new PostgresRelayStore(pool, () => new Client({ ...config, query_timeout: undefined }), url, {
    applicationName,
    pollMs: options.pollMs ?? POLL_MS,
    leaseTtlMs: options.leaseTtlMs ?? LEASE_TTL_MS,
  })
  let lastSeq = 0
  try {
    await checkSchema(pool as unknown as Queryable)
    lastSeq = num((await pool.query('SELECT last FROM relay_seq WHERE id = 1')).rows[0]?.last)
  } catch (err) {
    await pool.end().catch(() => {})
    if (isConnectionFailure(err)) throw new RelayStoreUnavailable(`PostgreSQL cannot be reached: ${redactSecretIn(err instanceof Error ? err.message : String(err), url)}`)
    if (err instanceof Error) err.message = redactSecretIn(err.message, url)
    throw err
  }
  store.start(lastSeq)
  return store
}

/** For `svc relay migrate`: one client, no pool, no LISTEN. The caller ends it. */
export async function connectPostgresForMigrate(url: string, options: Pick<PostgresStoreOptions, 'schema' | 'connectTimeoutMs' | 'applicationName'> = {}): Promise<Client> {
  const { Client } = await import('pg')
  const client = new Client({
    connectionString: url,
    application_name: options.applicationName ?? 'svc-relay-migrate',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  client.on('error', () => {})
  try {
    await client.connect()
  } catch (err) {
    throw new RelayStoreUnavailable(`PostgreSQL cannot be reached: ${redactSecretIn(err instanceof Error ? err.message : String(err), url)}`)
  }
  return client
}
