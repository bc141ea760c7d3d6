/**
 * What a delivery is about, read from its body without trusting it to be well-formed: the event
 * id and type, and the subject — a charge (`data.charge`), a withdrawal (`data.withdrawal`), a
 * split (`data.charge.split`) or a product sale (`data.productPayment`). Read for display and
 * routing only; the bytes forwarded are always the raw ones.
 */
import type { ChargeStatus } from '../domain/charge-states.js'
import { CHARGE_STATUSES } from '../domain/charge-states.js'

export interface EventSummary {
  eventId?: string
  type?: string
  createdAt?: string
  environment?: string
  /** Whether the body is a JSON object at all. */
  json: boolean
  charge?: { id: string; status?: ChargeStatus; grossInCents?: number; externalId?: string }
  split?: Array<{ txId?: string; amountInCents?: number; destination?: string }>
  /** The split's own status (`pending`, `completed`, `failed`) when it has one. */
  splitStatus?: string
  withdrawal?: { id?: string; status?: string; endToEndId?: string; amountInCents?: number }
  productPayment?: { product?: string; valueInCents?: number; netValueInCents?: number; buyerEmail?: string }
}

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** First numeric field among `names` (the spec leaves several field names "not shown"). */
function firstNum(o: Obj, names: string[]): number | undefined {
  for (const n of names) {
    const v = num(o[n])
    if (v !== undefined) return v
    if (isObj(o[n])) {
      const inner = num((o[n] as Obj).grossInCents) ?? num((o[n] as Obj).amountInCents) ?? num((o[n] as Obj).valueInCents)
      if (inner !== undefined) return inner
    }
  }
  return undefined
}

/** Stateless between calls (no streaming), so one serves every delivery. */
const UTF8 = new TextDecoder('utf-8', { fatal: true })

export function parseBody(body: Uint8Array): unknown {
  try {
    return JSON.parse(UTF8.decode(body))
  } catch {
    return undefined
  }
}

export function summarizeEvent(body: Uint8Array | unknown, headers: Record<string, string | undefined> = {}): EventSummary {
  const parsed = body instanceof Uint8Array ? parseBody(body) : body
  const out: EventSummary = { json: isObj(parsed) }
  const root = isObj(parsed) ? parsed : {}
  out.eventId = str(root.id) ?? headers['x-svc-event-id']
  out.type = str(root.type) ?? headers['x-svc-event-type']
  out.createdAt = str(root.createdAt)
  out.environment = str(root.environment)
  const data = isObj(root.data) ? root.data : {}
  if (isObj(data.charge) && str(data.charge.id)) {
    const c = data.charge
    const status = str(c.status)
    out.charge = {
      id: str(c.id)!,
      status: (CHARGE_STATUSES as readonly string[]).includes(status ?? '') ? (status as ChargeStatus) : undefined,
      grossInCents: isObj(c.amount) ? num(c.amount.grossInCents) : undefined,
      externalId: str(c.externalId),
    }
    const split = c.split
    const parts = Array.isArray(split) ? split : isObj(split) ? (Array.isArray(split.destinations) ? split.destinations : Array.isArray(split.transactions) ? split.transactions : [split]) : []
    if (isObj(split)) out.splitStatus = str(split.status)
    if (split !== undefined) {
      out.split = parts.filter(isObj).map((p) => ({
        txId: str(p.txId),
        amountInCents: firstNum(p, ['amountInCents', 'amount', 'valueInCents']),
        destination: str(p.destination) ?? str(p.wallet) ?? str(p.address),
      }))
    }
  }
  if (isObj(data.withdrawal)) {
    const w = data.withdrawal
    out.withdrawal = { id: str(w.id), status: str(w.status), endToEndId: isObj(w.pix) ? str(w.pix.endToEndId) : undefined, amountInCents: firstNum(w, ['amountInCents', 'amount']) }
  }
  if (isObj(data.productPayment)) {
    const p = data.productPayment
    out.productPayment = {
      product: str(p.product) ?? (isObj(p.product) ? (str(p.product.name) ?? str(p.product.id)) : undefined) ?? str(p.productName),
      valueInCents: firstNum(p, ['valueInCents', 'value', 'amountInCents', 'amount']),
      netValueInCents: firstNum(p, ['netValueInCents', 'netValue', 'netInCents']),
      buyerEmail: str(p.buyerEmail),
    }
  }
  return out
}
