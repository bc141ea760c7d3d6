/**
 * What the sandbox relies on in a seeded state, beyond the columns' types (contract/sandbox-state.ts
 * checks those): checked before the first write, so a state the sandbox cannot honour is refused
 * naming its field (`tables.charges[3].body.amount.netInCents`) and never crashes a start half
 * way. Every check here guards something the engine, the delivery worker or the panels read back:
 *
 * - ids well formed and unique (charge 24 hex, `evt_`, keys `svc_<env>_` matching their
 *   environment, sequence numbers), the merchant and its webhook secret, the account settings;
 * - a charge's JSON body is a Charge whose id, environment, status, externalId and createdAt are
 *   its row's; its fee balances (fee + net = gross, none negative); its state has the fields
 *   the state needs (paid: paidAt and estimatedAt; settled: settledAt and blockchainTxId);
 * - references between tables: idempotency → charge, delivery → event, attempt → delivery;
 * - a sane clock: an instant between 2000 and 2200, not before anything the state holds.
 *
 * Pure: no I/O.
 */
import * as z from 'zod'
import { AccountPatchSchema } from '../../contract/panel-requests.js'
import type { SandboxState } from '../../contract/sandbox-state.js'
import { ChargeSchema, EventSchema } from '../../contract/schemas.js'
import { SplitSchema } from '../../contract/split-charges.js'
import { ProductPaymentSchema } from '../../contract/product-sales.js'
import { WithdrawalSchema } from '../../contract/withdrawals.js'
import { SandboxStateError } from './errors.js'

const MIN_CLOCK = Date.UTC(2000, 0, 1)
const MAX_CLOCK = Date.UTC(2200, 0, 1)

const MerchantSchema = z.looseObject({
  merchantId: z.string().regex(/^[\w-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
  email: z.string().min(3).max(254),
  // Absent from an export made without --include-live-secrets: the seeded sandbox makes a new one.
  webhookSecret: z
    .string()
    .regex(/^whsec_[\w-]{16,128}$/, 'must be whsec_ and 16 to 128 letters or digits')
    .optional(),
})
const SettingsSchema = z.looseObject(AccountPatchSchema.shape)
/** A charge, and a split charge's division when it has one (the engine runs it after settlement). */
const StoredChargeSchema = ChargeSchema.extend({ split: SplitSchema.optional() })

/** `tables.charges[3].body.amount.netInCents` from a table, a row index and a path inside it. */
export function fieldOf(table: string, index: number, ...path: Array<string | number>): string {
  let out = `tables.${table}[${index}]`
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `.${p}`
  return out
}

function fail(field: string, message: string): never {
  throw new SandboxStateError(`invalid sandbox state at ${field}: ${message}`, field)
}

/** The row's JSON column, parsed and checked against `schema`; the first issue names its field inside the body. */
function body<T>(schema: z.ZodType<T>, text: string, table: string, i: number, column = 'body'): T {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    fail(fieldOf(table, i, column), 'is not JSON')
  }
  const r = schema.safeParse(value)
  if (!r.success) {
    const issue = r.error.issues[0]!
    fail(fieldOf(table, i, column, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))), issue.message)
  }
  return r.data
}

function instant(text: string, field: string): number {
  const ms = Date.parse(text)
  if (!Number.isFinite(ms) || ms < MIN_CLOCK || ms >= MAX_CLOCK) fail(field, `${JSON.stringify(text.slice(0, 40))} is not an instant between 2000 and 2200`)
  return ms
}

function unique<T>(seen: Set<T>, value: T, field: string, what: string): void {
  if (seen.has(value)) fail(field, `${what} ${JSON.stringify(value)} appears twice`)
  seen.add(value)
}

function flag(v: number, field: string): void {
  if (v !== 0 && v !== 1) fail(field, 'must be 0 or 1')
}

const nonNegative = (v: number | null, field: string): void => {
  if (v !== null && v < 0) fail(field, 'must not be negative')
}

/** Throws SandboxStateError naming the first field the sandbox cannot honour. */
export function checkState(state: SandboxState): void {
  const t = state.tables
  const clock = instant(state.clock.now, 'clock.now')
  // exportedAt reaches the log: an instant, nothing longer.
  if (state.exportedAt.length > 40 || !Number.isFinite(Date.parse(state.exportedAt))) fail('exportedAt', 'must be an ISO 8601 instant')
  let latest = Number.NEGATIVE_INFINITY

  const metaKeys = new Set<string>()
  t.meta.forEach((row, i) => {
    unique(metaKeys, row.key, fieldOf('meta', i, 'key'), 'meta key')
    if (row.key === 'merchant') body(MerchantSchema, row.value, 'meta', i, 'value')
    if (row.key === 'settings') body(SettingsSchema, row.value, 'meta', i, 'value')
    // Not exported, but a hand-made state may carry it: a later restart reads it as the clock's lead.
    if (row.key === 'clock_lead_ms' && !/^-?\d{1,15}$/.test(row.value)) fail(fieldOf('meta', i, 'value'), 'the clock lead must be a whole number of milliseconds')
  })

  const keys = new Set<string>()
  t.api_keys.forEach((row, i) => {
    if (!new RegExp(`^svc_${row.environment}_[0-9a-f]{32}$`).test(row.key)) fail(fieldOf('api_keys', i, 'key'), `must be svc_${row.environment}_ and 32 hex digits (its environment is ${row.environment})`)
    unique(keys, row.key, fieldOf('api_keys', i, 'key'), 'key')
    flag(row.revoked, fieldOf('api_keys', i, 'revoked'))
    instant(row.created_at, fieldOf('api_keys', i, 'created_at'))
  })

  const charges = new Map<string, string>()
  const seqs = new Set<number>()
  const externalIds = new Set<string>()
  t.charges.forEach((row, i) => {
    const f = (...p: Array<string | number>) => fieldOf('charges', i, ...p)
    if (row.seq < 1) fail(f('seq'), 'must be 1 or more')
    unique(seqs, row.seq, f('seq'), 'seq')
    if (!/^[0-9a-f]{24}$/.test(row.id)) fail(f('id'), 'must be 24 hexadecimal characters')
    if (charges.has(row.id)) fail(f('id'), `charge ${row.id} appears twice`)
    charges.set(row.id, row.environment)
    if (row.external_id !== null) unique(externalIds, `${row.environment} ${row.external_id}`, f('external_id'), 'externalId (per environment)')
    const c = body(StoredChargeSchema, row.body, 'charges', i)
    if (c.id !== row.id) fail(f('body', 'id'), `is ${c.id}, not the row's id ${row.id}`)
    if (c.environment !== row.environment) fail(f('body', 'environment'), `is ${c.environment}, not the row's ${row.environment}`)
    if (c.status !== row.status) fail(f('body', 'status'), `is ${c.status}, not the row's status ${row.status}`)
    if ((c.externalId ?? null) !== row.external_id) fail(f('body', 'externalId'), "differs from the row's external_id")
    const created = instant(c.createdAt, f('body', 'createdAt'))
    if (created !== row.created_ms) fail(f('created_ms'), `is ${row.created_ms}, not body.createdAt (${c.createdAt})`)
    instant(c.updatedAt, f('body', 'updatedAt'))
    instant(c.pix.expiresAt, f('body', 'pix', 'expiresAt'))
    latest = Math.max(latest, created, Date.parse(c.updatedAt))
    const a = c.amount
    for (const k of ['grossInCents', 'feeBps', 'feeFixedInCents', 'feeInCents', 'netInCents'] as const) nonNegative(a[k], f('body', 'amount', k))
    if (a.feeInCents + a.netInCents !== a.grossInCents) fail(f('body', 'amount', 'netInCents'), `fee ${a.feeInCents} + net ${a.netInCents} is not gross ${a.grossInCents}`)
    const s = c.settlement
    for (const k of ['paidAt', 'estimatedAt', 'settledAt'] as const) if (s[k] !== undefined) instant(s[k], f('body', 'settlement', k))
    const paid = c.status === 'paid_pending_settlement' || c.status === 'settled' || c.status === 'refunded'
    if (paid && s.paidAt === undefined) fail(f('body', 'settlement', 'paidAt'), `a ${c.status} charge was paid: it needs paidAt`)
    if (c.status === 'paid_pending_settlement' && s.estimatedAt === undefined) fail(f('body', 'settlement', 'estimatedAt'), 'a paid_pending_settlement charge needs estimatedAt (when it settles)')
    if (c.status === 'settled' && s.settledAt === undefined) fail(f('body', 'settlement', 'settledAt'), 'a settled charge needs settledAt')
    if (c.status === 'settled' && !s.blockchainTxId) fail(f('body', 'settlement', 'blockchainTxId'), 'a settled charge needs blockchainTxId')
    c.split?.destinations.forEach((d, k) => {
      nonNegative(d.amountInCents, f('body', 'split', 'destinations', k, 'amountInCents'))
    })
  })

  const idem = new Set<string>()
  t.idempotency.forEach((row, i) => {
    unique(idem, `${row.environment} ${row.key}`, fieldOf('idempotency', i, 'key'), 'Idempotency-Key (per environment)')
    if (row.charge_id !== null && charges.get(row.charge_id) !== row.environment) fail(fieldOf('idempotency', i, 'charge_id'), `names no ${row.environment} charge of this state`)
  })

  const events = new Set<string>()
  const eventSeqs = new Set<number>()
  t.events.forEach((row, i) => {
    const f = (...p: Array<string | number>) => fieldOf('events', i, ...p)
    if (row.seq < 1) fail(f('seq'), 'must be 1 or more')
    unique(eventSeqs, row.seq, f('seq'), 'seq')
    if (!/^evt_[0-9a-f]{8,64}$/.test(row.id)) fail(f('id'), 'must be evt_ and hex digits')
    unique(events, row.id, f('id'), 'event')
    flag(row.dispatched, f('dispatched'))
    latest = Math.max(latest, instant(row.created_at, f('created_at')))
    const e = body(EventSchema, row.body, 'events', i)
    if (e.id !== row.id || e.type !== row.type || e.environment !== row.environment) fail(f('body'), "its id, type and environment must be the row's")
  })

  const endpoints = new Set<string>()
  t.webhook_endpoints.forEach((row, i) => {
    unique(endpoints, row.environment, fieldOf('webhook_endpoints', i, 'environment'), 'environment')
    if (!/^https?:\/\/[^\s]+$/.test(row.url) || !URL.canParse(row.url)) fail(fieldOf('webhook_endpoints', i, 'url'), 'must be an http or https URL')
    flag(row.active, fieldOf('webhook_endpoints', i, 'active'))
  })

  const deliveries = new Set<number>()
  const deliveredEvents = new Set<string>()
  t.webhook_deliveries.forEach((row, i) => {
    const f = (...p: Array<string | number>) => fieldOf('webhook_deliveries', i, ...p)
    unique(deliveries, row.id, f('id'), 'delivery id')
    unique(deliveredEvents, row.event_id, f('event_id'), 'event')
    if (!events.has(row.event_id)) fail(f('event_id'), `names no event of this state (${row.event_id})`)
    for (const k of ['attempts', 'retry_index'] as const) nonNegative(row[k], f(k))
    if (row.state === 'pending' && row.next_retry_ms === null) fail(f('next_retry_ms'), 'a pending delivery needs its next attempt')
    if (!URL.canParse(row.url)) fail(f('url'), 'must be a URL')
  })

  t.webhook_attempts.forEach((row, i) => {
    if (!deliveries.has(row.delivery_id)) fail(fieldOf('webhook_attempts', i, 'delivery_id'), `names no delivery of this state (${row.delivery_id})`)
    flag(row.manual, fieldOf('webhook_attempts', i, 'manual'))
    nonNegative(row.duration_ms, fieldOf('webhook_attempts', i, 'duration_ms'))
  })

  const withdrawals = new Set<string>()
  t.withdrawals.forEach((row, i) => {
    const f = (...p: Array<string | number>) => fieldOf('withdrawals', i, ...p)
    unique(withdrawals, row.id, f('id'), 'withdrawal')
    if (!['processing', 'paid', 'failed'].includes(row.status)) fail(f('status'), 'must be processing, paid or failed')
    if (!['paid', 'failed'].includes(row.outcome)) fail(f('outcome'), 'must be paid or failed')
    if (row.status === 'processing' && row.due_ms === null) fail(f('due_ms'), 'a processing withdrawal needs the instant it ends')
    const w = body(WithdrawalSchema, row.body, 'withdrawals', i)
    if (w.id !== row.id || w.status !== row.status || w.environment !== row.environment) fail(f('body'), "its id, status and environment must be the row's")
  })

  const sales = new Set<string>()
  t.product_sales.forEach((row, i) => {
    unique(sales, row.id, fieldOf('product_sales', i, 'id'), 'sale')
    const p = body(ProductPaymentSchema, row.body, 'product_sales', i)
    if (p.id !== row.id) fail(fieldOf('product_sales', i, 'body', 'id'), "must be the row's id")
  })

  if (clock < latest) fail('clock.now', `${state.clock.now} is before the latest instant the state holds (${new Date(latest).toISOString()}): the clock never runs back`)
}
