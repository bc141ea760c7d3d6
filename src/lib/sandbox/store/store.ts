/**
 * Everything the sandbox keeps, over the database of db.ts: the merchant and its settings, the
 * API keys (test and live, with revocation), charges, idempotency records and events. Pure
 * persistence: the rules live in engine.ts and server.ts.
 *
 * Every request reads its API key and a charge creation reads the settings: both are kept in
 * memory, loaded on first use and replaced by the store's own writes (the panel changes them
 * only through this store, and one sandbox process owns its data dir).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'
import type { Environment, Charge } from '../../contract/schemas.js'
import type { ChargeStatus } from '../../domain/charge-states.js'
import { chargeId, newApiKey, newMerchantId, newWebhookSecret } from './ids.js'
import { transaction } from './db.js'
import { GroupCommit } from './group-commit.js'
import type { AccountSettings, StoredEvent } from '../types.js'

export const DEFAULT_SETTINGS: AccountSettings = {
  feeBps: 199,
  feeFixedInCents: 50,
  settlementDelayHours: 24,
  activated: true,
  blocked: false,
  merchantIdPresent: true,
  qrValiditySeconds: 3600,
  holdSettlements: false,
}

export interface Merchant {
  merchantId: string
  email: string
  webhookSecret: string
}

export interface KeyRecord {
  key: string
  environment: Environment
  revoked: boolean
  createdAt: string
}

export interface ChargeListFilter {
  status?: ChargeStatus
  externalId?: string
  createdAfterMs?: number
  createdBeforeMs?: number
  /** Position of the last charge of the previous page. */
  after?: { createdMs: number; id: string }
  limit: number
}

type Row = Record<string, unknown>

export class SandboxStore {
  private readonly st: Record<string, StatementSync>
  private settings?: AccountSettings
  private readonly keys = new Map<string, KeyRecord>()

  constructor(
    readonly db: DatabaseSync,
    /** Where charge creations are committed, together with whatever else is written in the same turn. */
    readonly writes: GroupCommit = new GroupCommit(db),
  ) {
    const p = (sql: string) => db.prepare(sql)
    this.st = {
      metaGet: p('SELECT value FROM meta WHERE key = ?'),
      metaSet: p('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      keyInsert: p('INSERT INTO api_keys (key, environment, revoked, created_at) VALUES (?, ?, 0, ?)'),
      keyGet: p('SELECT * FROM api_keys WHERE key = ?'),
      keyList: p('SELECT * FROM api_keys ORDER BY created_at, rowid'),
      keyRevoke: p('UPDATE api_keys SET revoked = 1 WHERE key = ?'),
      nextSeq: p("SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'charges'), 0) + 1 AS seq"),
      chargeInsert: p('INSERT INTO charges (seq, id, environment, external_id, status, created_ms, request_hash, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      chargeUpdate: p('UPDATE charges SET status = ?, body = ? WHERE id = ?'),
      chargeGet: p('SELECT * FROM charges WHERE id = ? AND environment = ?'),
      chargeGetAny: p('SELECT * FROM charges WHERE id = ?'),
      chargeByExternal: p('SELECT * FROM charges WHERE environment = ? AND external_id = ?'),
      chargeByStatus: p('SELECT * FROM charges WHERE status = ? ORDER BY seq'),
      chargeCount: p('SELECT COUNT(*) AS n FROM charges'),
      chargeCountEnv: p('SELECT COUNT(*) AS n FROM charges WHERE environment = ?'),
      idemGet: p('SELECT * FROM idempotency WHERE environment = ? AND key = ?'),
      idemInsert: p('INSERT INTO idempotency (environment, key, request_hash, charge_id, created_ms) VALUES (?, ?, ?, ?, ?)'),
      idemDeleteUnfinished: p('DELETE FROM idempotency WHERE charge_id IS NULL'),
      eventInsert: p('INSERT INTO events (id, type, environment, created_at, charge_id, body, resource_key, dispatched) VALUES (?, ?, ?, ?, ?, ?, ?, 0)'),
      eventsOfCharge: p('SELECT * FROM events WHERE charge_id = ? ORDER BY seq'),
      pendingSplits: p("SELECT * FROM charges WHERE status = 'settled' AND json_extract(body, '$.split.status') = 'pending' ORDER BY seq"),
      eventsAfter: p('SELECT seq, id, type, environment, created_at, resource_key FROM events WHERE seq > ? ORDER BY seq LIMIT ?'),
      eventsOfResource: p('SELECT seq, id, type, environment, created_at, resource_key FROM events WHERE resource_key = ? AND seq > ? ORDER BY seq LIMIT ?'),
      lastEventSeq: p("SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS seq"),
    }
  }

  // ------------------------------------------------------------ meta, merchant, settings

  getMeta(key: string): string | undefined {
    return (this.st.metaGet!.get(key) as Row | undefined)?.value as string | undefined
  }

  setMeta(key: string, value: string): void {
    this.st.metaSet!.run(key, value)
  }

  /** The latest instant the store has seen (a charge's creation, an event), in ms; undefined when empty. */
  latestInstant(): number | undefined {
    const row = this.db.prepare('SELECT (SELECT MAX(created_ms) FROM charges) AS charge, (SELECT MAX(created_at) FROM events) AS event').get() as { charge: number | null; event: string | null }
    const instants = [row.charge ?? Number.NaN, row.event ? Date.parse(row.event) : Number.NaN].filter((n) => Number.isFinite(n))
    return instants.length ? Math.max(...instants) : undefined
  }

  /** The merchant, its webhook secret and one key per environment, made on the first start and reused after. */
  ensureMerchant(nowIso: string): { merchant: Merchant; testKey: string; liveKey: string } {
    return transaction(this.db, () => {
      let raw = this.getMeta('merchant')
      if (!raw) {
        const merchant: Merchant = { merchantId: newMerchantId(), email: 'merchant@sandbox.local', webhookSecret: newWebhookSecret() }
        raw = JSON.stringify(merchant)
        this.setMeta('merchant', raw)
      }
      const merchant = JSON.parse(raw) as Merchant
      // Seeded from an export without live secrets: the webhook secret is made anew.
      if (!merchant.webhookSecret) {
        merchant.webhookSecret = newWebhookSecret()
        this.setMeta('merchant', JSON.stringify(merchant))
      }
      // The banner shows a usable key per environment: the first one still valid, or a new one
      // when every key of that environment was revoked.
      const testKey = this.firstValidKey('test') ?? this.insertKey('test', nowIso)
      const liveKey = this.firstValidKey('live') ?? this.insertKey('live', nowIso)
      return { merchant, testKey, liveKey }
    })
  }

  getSettings(): AccountSettings {
    if (!this.settings) {
      const raw = this.getMeta('settings')
      this.settings = { ...DEFAULT_SETTINGS, ...(raw ? (JSON.parse(raw) as Partial<AccountSettings>) : {}) }
    }
    return { ...this.settings }
  }

  updateSettings(patch: Partial<AccountSettings>): AccountSettings {
    const next = { ...this.getSettings() }
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as Record<string, unknown>)[k] = v
    this.setMeta('settings', JSON.stringify(next))
    this.settings = { ...next }
    return next
  }

  // ------------------------------------------------------------ keys

  insertKey(environment: Environment, nowIso: string): string {
    const key = newApiKey(environment)
    this.st.keyInsert!.run(key, environment, nowIso)
    return key
  }

  findKey(key: string): KeyRecord | undefined {
    const known = this.keys.get(key)
    if (known) return { ...known }
    const row = this.st.keyGet!.get(key) as Row | undefined
    if (!row) return undefined
    const record = toKey(row)
    this.keys.set(key, record)
    return { ...record }
  }

  listKeys(): KeyRecord[] {
    return (this.st.keyList!.all() as Row[]).map(toKey)
  }

  revokeKey(key: string): boolean {
    const changed = Number(this.st.keyRevoke!.run(key).changes) > 0
    this.keys.delete(key)
    return changed
  }

  private firstValidKey(env: Environment): string | undefined {
    return this.listKeys().find((k) => k.environment === env && !k.revoked)?.key
  }

  // ------------------------------------------------------------ charges

  /**
   * Inserts a new charge with its events and its idempotency record, atomically, in the next group
   * commit; resolves once committed. `build` gets the creation instant and the charge id (made from
   * that instant and the row number, so ids grow in commit order) and may run twice (group-commit.ts).
   */
  insertCharge(
    now: () => number,
    build: (id: string, createdMs: number) => { charge: Charge; requestHash: string; events: StoredEvent[] },
    idempotencyKey?: string,
  ): Promise<{ charge: Charge; events: StoredEvent[] }> {
    return this.writes.run(() => {
      const createdMs = now()
      const seq = Number((this.st.nextSeq!.get() as Row).seq)
      const { charge, requestHash, events } = build(chargeId(createdMs, seq), createdMs)
      this.st.chargeInsert!.run(seq, charge.id, charge.environment, charge.externalId ?? null, charge.status, createdMs, requestHash, JSON.stringify(charge))
      for (const e of events) this.insertEvent(e, charge.id)
      if (idempotencyKey !== undefined) this.st.idemInsert!.run(charge.environment, idempotencyKey, requestHash, charge.id, createdMs)
      return { charge, events }
    })
  }

  /** Saves a charge's new state together with the events of the move, atomically. */
  updateCharge(charge: Charge, events: StoredEvent[]): void {
    transaction(this.db, () => {
      this.st.chargeUpdate!.run(charge.status, JSON.stringify(charge), charge.id)
      for (const e of events) this.insertEvent(e, charge.id)
    })
  }

  getCharge(env: Environment, id: string): StoredCharge | undefined {
    const row = this.st.chargeGet!.get(id, env) as Row | undefined
    return row ? toCharge(row) : undefined
  }

  getChargeAnyEnv(id: string): StoredCharge | undefined {
    const row = this.st.chargeGetAny!.get(id) as Row | undefined
    return row ? toCharge(row) : undefined
  }

  getByExternalId(env: Environment, externalId: string): StoredCharge | undefined {
    const row = this.st.chargeByExternal!.get(env, externalId) as Row | undefined
    return row ? toCharge(row) : undefined
  }

  chargesInStatus(status: ChargeStatus): StoredCharge[] {
    return (this.st.chargeByStatus!.all(status) as Row[]).map(toCharge)
  }

  countCharges(env?: Environment): number {
    const row = (env ? this.st.chargeCountEnv!.get(env) : this.st.chargeCount!.get()) as Row
    return Number(row.n)
  }

  /** One page, newest first by (createdAt, id); asks for one more row to know whether there is more. */
  listCharges(env: Environment, f: ChargeListFilter): { data: Charge[]; hasMore: boolean } {
    const where: string[] = ['environment = ?']
    const args: Array<string | number> = [env]
    if (f.status) where.push('status = ?'), args.push(f.status)
    if (f.externalId !== undefined) where.push('external_id = ?'), args.push(f.externalId)
    if (f.createdAfterMs !== undefined) where.push('created_ms > ?'), args.push(f.createdAfterMs)
    // Past the first page the cursor is already below createdBefore: that bound then only made
    // SQLite pick a created_ms range over the row-value seek, scanning from the top on every page
    // (a month's report over 100 000 charges took 35 s instead of a few).
    const cursorBelow = f.after !== undefined && f.createdBeforeMs !== undefined && f.after.createdMs < f.createdBeforeMs
    if (f.createdBeforeMs !== undefined && !cursorBelow) where.push('created_ms < ?'), args.push(f.createdBeforeMs)
    if (f.after) {
      // A row-value comparison lets SQLite seek the listing index; the equivalent OR form made it
      // scan from the top on every page, so deep pages got slower and slower.
      where.push('(created_ms, id) < (?, ?)')
      args.push(f.after.createdMs, f.after.id)
    }
    const sql = `SELECT * FROM charges WHERE ${where.join(' AND ')} ORDER BY created_ms DESC, id DESC LIMIT ?`
    const rows = this.db.prepare(sql).all(...args, f.limit + 1) as Row[]
    return { data: rows.slice(0, f.limit).map((r) => toCharge(r).charge), hasMore: rows.length > f.limit }
  }

  // ------------------------------------------------------------ idempotency

  getIdempotency(env: Environment, key: string): { requestHash: string; chargeId?: string } | undefined {
    const row = this.st.idemGet!.get(env, key) as Row | undefined
    if (!row) return undefined
    return { requestHash: row.request_hash as string, chargeId: (row.charge_id as string | null) ?? undefined }
  }

  /** Records that `key` answers with an existing charge (a replay by externalId under a new key). */
  saveIdempotency(env: Environment, key: string, requestHash: string, chargeId: string, nowMs: number): void {
    this.st.idemInsert!.run(env, key, requestHash, chargeId, nowMs)
  }

  /**
   * Sandboxes before group commit reserved a key in the database before creating its charge; one
   * cut short by a crash left the reservation, which must not answer `charge_processing` forever.
   */
  clearUnfinishedIdempotency(): void {
    this.st.idemDeleteUnfinished!.run()
  }

  // ------------------------------------------------------------ events

  insertEvent(e: StoredEvent, chargeId?: string): void {
    this.st.eventInsert!.run(e.id, e.type, e.environment, e.createdAt, chargeId ?? null, e.body, e.resourceKey ?? null)
  }

  /**
   * Empties the data: charges, events, idempotency records, the delivery log, withdrawals and
   * sales. The merchant, its keys and webhook secret, the plan, the webhook URLs and the clock stay.
   */
  reset(): void {
    transaction(this.db, () => {
      for (const table of ['charges', 'idempotency', 'events', 'webhook_attempts', 'webhook_deliveries', 'withdrawals', 'product_sales']) {
        this.db.exec(`DELETE FROM ${table}`)
      }
    })
  }

  /** Settled split charges whose division has not run yet (their timers, after a restart). */
  pendingSplits(): StoredCharge[] {
    return (this.st.pendingSplits!.all() as Row[]).map(toCharge)
  }

  /** The event log after `afterSeq`, oldest first, optionally of one resource (`charge:…`, `withdrawal:…`). */
  eventLog(f: { afterSeq: number; limit: number; resource?: string }): { data: EventLogEntry[]; lastSeq: number } {
    const rows = (f.resource === undefined ? this.st.eventsAfter!.all(f.afterSeq, f.limit) : this.st.eventsOfResource!.all(f.resource, f.afterSeq, f.limit)) as Row[]
    const data = rows.map((r) => ({
      seq: Number(r.seq),
      id: r.id as string,
      type: r.type as string,
      environment: r.environment as Environment,
      createdAt: r.created_at as string,
      ...(r.resource_key ? { resource: r.resource_key as string } : {}),
    }))
    return { data, lastSeq: Number((this.st.lastEventSeq!.get() as Row).seq) }
  }

  eventsOfCharge(chargeId: string): StoredEvent[] {
    return (this.st.eventsOfCharge!.all(chargeId) as Row[]).map((r) => ({
      id: r.id as string,
      type: r.type as string,
      environment: r.environment as Environment,
      createdAt: r.created_at as string,
      body: r.body as string,
    }))
  }
}

export interface EventLogEntry {
  seq: number
  id: string
  type: string
  environment: Environment
  createdAt: string
  resource?: string
}

export interface StoredCharge {
  charge: Charge
  createdMs: number
  requestHash: string
}

function toCharge(row: Row): StoredCharge {
  return { charge: JSON.parse(row.body as string) as Charge, createdMs: Number(row.created_ms), requestHash: row.request_hash as string }
}

function toKey(row: Row): KeyRecord {
  return { key: row.key as string, environment: row.environment as Environment, revoked: Number(row.revoked) === 1, createdAt: row.created_at as string }
}
