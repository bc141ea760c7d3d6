/**
 * The relay's embedded store: node:sqlite, one file `relay.db` (0600) in the data dir. WAL, so a
 * killed process never corrupts it. `synchronous=NORMAL` (the default durability) fsyncs only at
 * checkpoints: a commit survives a killed process, a power cut can lose the last commits;
 * `full` fsyncs the log at every commit, so a commit survives a power cut too (slower ingest).
 * Ingest goes through GroupCommit: deliveries arriving together share one transaction.
 *
 * Acks are per delivery: `ack_floor` is the highest seq below which every delivery of the
 * token's channel is acked (or pruned); acks above it are rows of `acks` until the floor passes
 * them. Several processes may open the file at once (serve and the admin commands): WAL
 * readers never block, writers wait up to 5 s for each other.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite'
import { GroupCommit } from './group-commit.js'
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
  type TokenRecord,
  type TokenStatus,
} from './types.js'

export const RELAY_DB_FILE = 'relay.db'
export type Durability = 'normal' | 'full'

const SCHEMA_VERSION = 1
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS channels (
  name TEXT PRIMARY KEY,
  secrets TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retention_ms INTEGER,
  max_bytes INTEGER
);
CREATE TABLE IF NOT EXISTS tokens (
  name TEXT PRIMARY KEY,
  channel TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  only_types TEXT NOT NULL,
  match_rules TEXT NOT NULL,
  created_at TEXT NOT NULL,
  start_seq INTEGER NOT NULL,
  revoked_at TEXT,
  ack_floor INTEGER NOT NULL DEFAULT 0,
  last_ack_at TEXT,
  untold_lost INTEGER NOT NULL DEFAULT 0,
  gap_from INTEGER,
  gap_to INTEGER,
  gap_reason TEXT,
  connected_at TEXT
);
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL,
  event_id TEXT,
  event_type TEXT,
  arrived_at TEXT NOT NULL,
  arrived_ms INTEGER NOT NULL,
  headers TEXT NOT NULL,
  body BLOB NOT NULL,
  size INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_channel ON deliveries (channel, seq);
CREATE INDEX IF NOT EXISTS deliveries_arrived ON deliveries (arrived_ms);
CREATE TABLE IF NOT EXISTS acks (token TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (token, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sends (token TEXT NOT NULL, seq INTEGER NOT NULL, sends INTEGER NOT NULL, PRIMARY KEY (token, seq)) WITHOUT ROWID;
`

export interface SqliteRelayStoreOptions {
  /** The data dir (created 0700); the file is `relay.db` inside it. */
  dir: string
  durability?: Durability
}

type Row = Record<string, SQLInputValue>

function unavailable(err: unknown): RelayStoreUnavailable {
  if (err instanceof RelayStoreUnavailable) return err
  const message = err instanceof Error ? err.message : String(err)
  return new RelayStoreUnavailable(`the relay's store cannot commit: ${message}`, { cause: err })
}

export async function openSqliteRelayStore(opts: SqliteRelayStoreOptions): Promise<SqliteRelayStore> {
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 })
  const path = join(opts.dir, RELAY_DB_FILE)
  // Created by us so that it is never readable by others, whatever the umask: it holds secrets.
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600))
  chmodSync(path, 0o600)
  const { DatabaseSync } = await import('node:sqlite')
  const db = new DatabaseSync(path, { timeout: 5000 })
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'};`)
  const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)
  if (version > SCHEMA_VERSION) {
    db.close()
    throw new RelayStoreUnavailable(`${path} was made by a newer svc (schema ${version}, this one knows ${SCHEMA_VERSION}): upgrade svc`)
  }
  if (version < SCHEMA_VERSION) db.exec(`BEGIN IMMEDIATE; ${SCHEMA} PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT;`)
  return new SqliteRelayStore(db, path)
}

export class SqliteRelayStore implements RelayStore {
  readonly kind = 'sqlite' as const
  private readonly wakers = new Set<(channel: string) => void>()
  private readonly group: GroupCommit<NewDelivery, StoredDelivery>
  private readonly writes: GroupCommit<() => unknown, unknown>
  private closed = false
  private readonly statements = new Map<string, StatementSync>()

  constructor(
    private readonly db: DatabaseSync,
    readonly path: string,
  ) {
    this.group = new GroupCommit({ commit: (items) => this.commitIngest(items) })
    this.writes = new GroupCommit({ commit: (fns) => this.commitWrites(fns) })
  }

  /**
   * The stream's own writes (sends, acks, heartbeats) share transactions too: 1 000 listeners
   * beating at once are one commit, not 1 000 (each an fsync under --durability full).
   */
  private batched<T>(fn: () => T): Promise<T> {
    if (this.closed) return Promise.reject(new RelayStoreUnavailable('the relay store is closed'))
    return this.writes.submit(fn) as Promise<T>
  }

  private commitWrites(fns: ReadonlyArray<() => unknown>): unknown[] {
    try {
      this.db.exec('BEGIN IMMEDIATE')
      const out = fns.map((fn) => fn())
      this.db.exec('COMMIT')
      return out
    } catch (err) {
      this.rollback()
      throw unavailable(err)
    }
  }

  async addChannel(c: ChannelRecord): Promise<void> {
    this.write(() => {
      if (this.sql('SELECT 1 FROM channels WHERE name = ?').get(c.name)) throw new RelayStoreConflict(`channel ${c.name} exists`, 'name')
      this.sql('INSERT INTO channels (name, secrets, created_at, retention_ms, max_bytes) VALUES (?, ?, ?, ?, ?)').run(c.name, JSON.stringify(c.secrets), c.createdAt, c.retentionMs ?? null, c.maxBytes ?? null)
    })
  }

  async removeChannel(name: string): Promise<boolean> {
    return this.write(() => {
      const gone = this.sql('DELETE FROM channels WHERE name = ?').run(name).changes > 0
      if (!gone) return false
      const tokens = (this.sql('SELECT name FROM tokens WHERE channel = ?').all(name) as Array<{ name: string }>).map((t) => t.name)
      for (const t of tokens) {
        this.sql('DELETE FROM acks WHERE token = ?').run(t)
        this.sql('DELETE FROM sends WHERE token = ?').run(t)
      }
      this.sql('DELETE FROM tokens WHERE channel = ?').run(name)
      this.sql('DELETE FROM deliveries WHERE channel = ?').run(name)
      return true
    })
  }

  async getChannel(name: string): Promise<ChannelRecord | undefined> {
    const row = this.read(() => this.sql('SELECT * FROM channels WHERE name = ?').get(name) as Row | undefined)
    return row ? channelOf(row) : undefined
  }

  async listChannels(): Promise<ChannelRecord[]> {
    return this.read(() => (this.sql('SELECT * FROM channels ORDER BY name').all() as Row[]).map(channelOf))
  }

  async createToken(t: Omit<TokenRecord, 'startSeq' | 'revokedAt'>): Promise<TokenRecord> {
    return this.write(() => {
      if (!this.sql('SELECT 1 FROM channels WHERE name = ?').get(t.channel)) throw new RelayStoreConflict(`no channel ${t.channel}`, 'channel')
      if (this.sql('SELECT 1 FROM tokens WHERE name = ?').get(t.name)) throw new RelayStoreConflict(`token ${t.name} exists`, 'name')
      if (this.sql('SELECT 1 FROM tokens WHERE hash = ?').get(t.hash)) throw new RelayStoreConflict('a token with this hash exists', 'hash')
      const startSeq = this.lastSeq()
      this.db
        .prepare('INSERT INTO tokens (name, channel, hash, only_types, match_rules, created_at, start_seq, ack_floor) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(t.name, t.channel, t.hash, JSON.stringify(t.only), JSON.stringify(t.match), t.createdAt, startSeq, startSeq)
      return { ...t, startSeq }
    })
  }

  async revokeToken(name: string, at: string): Promise<boolean> {
    return this.write(() => this.sql('UPDATE tokens SET revoked_at = ?, connected_at = NULL WHERE name = ? AND revoked_at IS NULL').run(at, name).changes > 0)
  }

  async listTokens(): Promise<TokenRecord[]> {
    return this.read(() => (this.sql('SELECT * FROM tokens ORDER BY name').all() as Row[]).map(tokenOf))
  }

  async findToken(hash: string): Promise<TokenRecord | undefined> {
    const row = this.read(() => this.sql('SELECT * FROM tokens WHERE hash = ? AND revoked_at IS NULL').get(hash) as Row | undefined)
    return row ? tokenOf(row) : undefined
  }

  ingest(delivery: NewDelivery): Promise<StoredDelivery> {
    if (this.closed) return Promise.reject(new RelayStoreUnavailable('the relay store is closed'))
    return this.group.submit(delivery)
  }

  private commitIngest(items: readonly NewDelivery[]): StoredDelivery[] {
    const insert = this.sql('INSERT INTO deliveries (channel, event_id, event_type, arrived_at, arrived_ms, headers, body, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
    const stored: StoredDelivery[] = []
    try {
      this.db.exec('BEGIN IMMEDIATE')
      for (const d of items) {
        const seq = Number(insert.run(d.channel, d.eventId ?? null, d.eventType ?? null, d.arrivedAt, Date.parse(d.arrivedAt), JSON.stringify(d.headers), d.body, d.body.length).lastInsertRowid)
        stored.push({ ...d, seq })
      }
      this.db.exec('COMMIT')
    } catch (err) {
      this.rollback()
      throw unavailable(err)
    }
    const channels = new Set(items.map((d) => d.channel))
    for (const wake of this.wakers) for (const c of channels) wake(c)
    return stored
  }

  async pending(token: string, afterSeq: number, limit: number): Promise<PendingDelivery[]> {
    const rows = this.read(
      () =>
        this.db
          .prepare(
            `SELECT d.*, COALESCE(s.sends, 0) AS sends FROM tokens t
             JOIN deliveries d ON d.channel = t.channel AND d.seq > MAX(t.start_seq, t.ack_floor, ?)
             LEFT JOIN sends s ON s.token = t.name AND s.seq = d.seq
             WHERE t.name = ? AND NOT EXISTS (SELECT 1 FROM acks a WHERE a.token = t.name AND a.seq = d.seq)
             ORDER BY d.seq LIMIT ?`,
          )
          .all(afterSeq, token, limit) as Row[],
    )
    return rows.map((r) => ({ ...deliveryOf(r), sends: Number(r.sends) }))
  }

  async backlog(token: string): Promise<number> {
    const row = this.read(
      () =>
        this.db
          .prepare(
            `SELECT COUNT(d.seq) AS n FROM tokens t JOIN deliveries d ON d.channel = t.channel AND d.seq > MAX(t.start_seq, t.ack_floor)
             WHERE t.name = ? AND NOT EXISTS (SELECT 1 FROM acks a WHERE a.token = t.name AND a.seq = d.seq)`,
          )
          .get(token) as { n: number },
    )
    return Number(row.n)
  }

  async markSent(token: string, seqs: number[]): Promise<void> {
    if (seqs.length === 0) return
    await this.batched(() => {
      const up = this.sql('INSERT INTO sends (token, seq, sends) VALUES (?, ?, 1) ON CONFLICT (token, seq) DO UPDATE SET sends = sends + 1')
      for (const seq of seqs) up.run(token, seq)
    })
  }

  async ack(token: string, seqs: number[], at: string): Promise<void> {
    if (seqs.length === 0) return
    await this.batched(() => {
      const t = this.sql('SELECT channel, start_seq, ack_floor FROM tokens WHERE name = ?').get(token) as Row | undefined
      if (!t) return
      const channel = String(t.channel)
      const floor = Math.max(Number(t.start_seq), Number(t.ack_floor))
      const insert = this.sql('INSERT OR IGNORE INTO acks (token, seq) SELECT ?, seq FROM deliveries WHERE seq = ? AND channel = ? AND seq > ?')
      let any = false
      for (const seq of seqs) if (insert.run(token, seq, channel, floor).changes > 0) any = true
      if (!any) return
      this.sql('UPDATE tokens SET last_ack_at = ? WHERE name = ?').run(at, token)
      this.advanceFloor(token, channel, floor)
    })
  }

  /** Moves the token's floor up to just below its oldest unacked delivery, dropping the ack rows it passed. */
  private advanceFloor(token: string, channel: string, floor: number): void {
    const unacked = this.db
      .prepare('SELECT MIN(d.seq) AS seq FROM deliveries d WHERE d.channel = ? AND d.seq > ? AND NOT EXISTS (SELECT 1 FROM acks a WHERE a.token = ? AND a.seq = d.seq)')
      .get(channel, floor, token) as { seq: number | null }
    const next = unacked.seq !== null ? Number(unacked.seq) - 1 : Number((this.sql('SELECT MAX(seq) AS seq FROM deliveries WHERE channel = ?').get(channel) as { seq: number | null }).seq ?? floor)
    if (next <= floor) return
    this.sql('UPDATE tokens SET ack_floor = ? WHERE name = ?').run(next, token)
    this.sql('DELETE FROM acks WHERE token = ? AND seq <= ?').run(token, next)
    this.sql('DELETE FROM sends WHERE token = ? AND seq <= ?').run(token, next)
  }

  async takeGap(token: string): Promise<{ lost: number; fromSeq?: number; toSeq?: number; reason?: 'retention' | 'max_bytes' } | undefined> {
    return this.write(() => {
      const row = this.sql('SELECT untold_lost, gap_from, gap_to, gap_reason FROM tokens WHERE name = ?').get(token) as Row | undefined
      if (!row || Number(row.untold_lost) === 0) return undefined
      this.sql('UPDATE tokens SET untold_lost = 0, gap_from = NULL, gap_to = NULL, gap_reason = NULL WHERE name = ?').run(token)
      return {
        lost: Number(row.untold_lost),
        ...(row.gap_from !== null ? { fromSeq: Number(row.gap_from) } : {}),
        ...(row.gap_to !== null ? { toSeq: Number(row.gap_to) } : {}),
        ...(row.gap_reason !== null ? { reason: row.gap_reason as 'retention' | 'max_bytes' } : {}),
      }
    })
  }

  async markConnected(token: string, at: string | undefined): Promise<void> {
    await this.batched(() => this.sql('UPDATE tokens SET connected_at = ? WHERE name = ?').run(at ?? null, token))
  }

  async prune(now: Date, defaultRetentionMs: number): Promise<PruneResult> {
    return this.write(() => {
      const result: PruneResult = { deleted: 0, lostByToken: {} }
      for (const c of this.sql('SELECT * FROM channels').all() as Row[]) {
        const channel = String(c.name)
        const retention = c.retention_ms !== null ? Number(c.retention_ms) : defaultRetentionMs
        const byAge = Number((this.sql('SELECT MAX(seq) AS seq FROM deliveries WHERE channel = ? AND arrived_ms < ?').get(channel, now.getTime() - retention) as { seq: number | null }).seq ?? 0)
        let bySize = 0
        if (c.max_bytes !== null) {
          const over = this.db
            .prepare('SELECT seq FROM (SELECT seq, SUM(size) OVER (ORDER BY seq DESC) AS total FROM deliveries WHERE channel = ?) WHERE total > ? ORDER BY seq DESC LIMIT 1')
            .get(channel, Number(c.max_bytes)) as { seq: number } | undefined
          bySize = over ? Number(over.seq) : 0
        }
        const upTo = Math.max(byAge, bySize)
        if (upTo === 0) continue
        const reason = bySize > byAge ? 'max_bytes' : 'retention'
        const lost = this.db
          .prepare(
            `SELECT t.name, COUNT(d.seq) AS n, MIN(d.seq) AS lo, MAX(d.seq) AS hi FROM tokens t
             JOIN deliveries d ON d.channel = t.channel AND d.seq > MAX(t.start_seq, t.ack_floor) AND d.seq <= ?
             WHERE t.channel = ? AND t.revoked_at IS NULL AND NOT EXISTS (SELECT 1 FROM acks a WHERE a.token = t.name AND a.seq = d.seq)
             GROUP BY t.name`,
          )
          .all(upTo, channel) as Row[]
        for (const l of lost) {
          const name = String(l.name)
          result.lostByToken[name] = (result.lostByToken[name] ?? 0) + Number(l.n)
          this.db
            .prepare(`UPDATE tokens SET untold_lost = untold_lost + ?, gap_from = MIN(COALESCE(gap_from, ?), ?), gap_to = MAX(COALESCE(gap_to, ?), ?), gap_reason = ? WHERE name = ?`)
            .run(Number(l.n), Number(l.lo), Number(l.lo), Number(l.hi), Number(l.hi), reason, name)
        }
        result.deleted += Number(this.sql('DELETE FROM deliveries WHERE channel = ? AND seq <= ?').run(channel, upTo).changes)
        for (const t of this.sql('SELECT name, start_seq, ack_floor FROM tokens WHERE channel = ?').all(channel) as Row[]) {
          const name = String(t.name)
          this.sql('DELETE FROM acks WHERE token = ? AND seq <= ?').run(name, upTo)
          this.sql('DELETE FROM sends WHERE token = ? AND seq <= ?').run(name, upTo)
          if (Number(t.ack_floor) < upTo) this.sql('UPDATE tokens SET ack_floor = ? WHERE name = ?').run(upTo, name)
          this.advanceFloor(name, channel, Math.max(upTo, Number(t.start_seq), Number(t.ack_floor)))
        }
      }
      return result
    })
  }

  async status(now: Date): Promise<RelayStatusSnapshot> {
    return this.read(() => {
      const channels = (
        this.sql('SELECT c.name, COUNT(d.seq) AS n, COALESCE(SUM(d.size), 0) AS bytes FROM channels c LEFT JOIN deliveries d ON d.channel = c.name GROUP BY c.name ORDER BY c.name').all() as Row[]
      ).map((r) => ({ name: String(r.name), deliveries: Number(r.n), bytes: Number(r.bytes) }))
      const backlog = this.sql(
        `SELECT COUNT(d.seq) AS n, MIN(d.arrived_at) AS oldest FROM deliveries d
         WHERE d.channel = ? AND d.seq > ? AND NOT EXISTS (SELECT 1 FROM acks a WHERE a.token = ? AND a.seq = d.seq)`,
      )
      const tokens = (this.sql('SELECT * FROM tokens ORDER BY name').all() as Row[]).map((r): TokenStatus => {
        const name = String(r.name)
        const b = backlog.get(String(r.channel), Math.max(Number(r.start_seq), Number(r.ack_floor)), name) as { n: number; oldest: string | null }
        return {
          name,
          channel: String(r.channel),
          revoked: r.revoked_at !== null,
          backlog: Number(b.n),
          ...(b.oldest !== null ? { oldestUnackedAt: String(b.oldest) } : {}),
          ...(r.last_ack_at !== null ? { lastAckAt: String(r.last_ack_at) } : {}),
          untoldLost: Number(r.untold_lost),
          ...(r.connected_at !== null ? { connectedAt: String(r.connected_at) } : {}),
        }
      })
      const hour = this.sql('SELECT COUNT(*) AS n FROM deliveries WHERE arrived_ms >= ?').get(now.getTime() - 3_600_000) as { n: number }
      return { channels, tokens, ingestedLastHour: Number(hour.n) }
    })
  }

  async healthy(): Promise<boolean> {
    if (this.closed) return false
    try {
      this.db.exec('BEGIN IMMEDIATE')
      this.sql("INSERT INTO meta (key, value) VALUES ('health', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(new Date().toISOString())
      this.db.exec('COMMIT')
      return true
    } catch {
      this.rollback()
      return false
    }
  }

  onIngest(wake: (channel: string) => void): () => void {
    this.wakers.add(wake)
    return () => this.wakers.delete(wake)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.group.drain()
    await this.writes.drain()
    this.wakers.clear()
    this.db.close()
  }

  /** Prepared once per SQL text: preparing costs more than running most of these. */
  private sql(text: string): StatementSync {
    let st = this.statements.get(text)
    if (!st) {
      st = this.db.prepare(text)
      this.statements.set(text, st)
    }
    return st
  }

  private lastSeq(): number {
    const row = this.sql("SELECT seq FROM sqlite_sequence WHERE name = 'deliveries'").get() as { seq: number } | undefined
    return row ? Number(row.seq) : 0
  }

  private read<T>(fn: () => T): T {
    if (this.closed) throw new RelayStoreUnavailable('the relay store is closed')
    try {
      return fn()
    } catch (err) {
      throw unavailable(err)
    }
  }

  /** One transaction; a conflict passes through, any other failure is the store being unavailable. */
  private write<T>(fn: () => T): T {
    if (this.closed) throw new RelayStoreUnavailable('the relay store is closed')
    try {
      this.db.exec('BEGIN IMMEDIATE')
      const out = fn()
      this.db.exec('COMMIT')
      return out
    } catch (err) {
      this.rollback()
      if (err instanceof RelayStoreConflict) throw err
      throw unavailable(err)
    }
  }

  private rollback(): void {
    try {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
    } catch {
      // The failure that brought us here is the one to report.
    }
  }
}

function channelOf(r: Row): ChannelRecord {
  return {
    name: String(r.name),
    secrets: JSON.parse(String(r.secrets)) as string[],
    createdAt: String(r.created_at),
    ...(r.retention_ms !== null ? { retentionMs: Number(r.retention_ms) } : {}),
    ...(r.max_bytes !== null ? { maxBytes: Number(r.max_bytes) } : {}),
  }
}

function tokenOf(r: Row): TokenRecord {
  return {
    name: String(r.name),
    channel: String(r.channel),
    hash: String(r.hash),
    only: JSON.parse(String(r.only_types)) as string[],
    match: JSON.parse(String(r.match_rules)) as TokenRecord['match'],
    createdAt: String(r.created_at),
    startSeq: Number(r.start_seq),
    ...(r.revoked_at !== null ? { revokedAt: String(r.revoked_at) } : {}),
  }
}

function deliveryOf(r: Row): StoredDelivery {
  return {
    seq: Number(r.seq),
    channel: String(r.channel),
    ...(r.event_id !== null ? { eventId: String(r.event_id) } : {}),
    ...(r.event_type !== null ? { eventType: String(r.event_type) } : {}),
    arrivedAt: String(r.arrived_at),
    headers: JSON.parse(String(r.headers)) as Record<string, string>,
    body: r.body as Uint8Array,
  }
}
