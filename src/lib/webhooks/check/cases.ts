/**
 * The battery: each case is one delivery and the answer a handler that follows spec part 6 must
 * give. Deliveries are built lazily, right before they are sent, so their timestamps are fresh.
 */
import { randomBytes } from 'node:crypto'
import { LIMITS } from '../../contract/limits.js'
import { WEBHOOK_HEADERS } from '../../contract/event-types.js'
import type { SvcEvent } from '../../contract/schemas.js'
import { computeSignature, signatureHeader } from '../signature.js'
import { chargeEvent, type EventContext, settledCharge, unknownTypeEvent, withdrawalPaidEvent } from './battery-events.js'
import type { Environment } from '../../contract/schemas.js'

export type Expectation = 'accept' | 'reject'

export interface Delivery {
  headers: Record<string, string>
  body: Buffer
}

export interface CheckCase {
  /** Stable key for scripts (`jq '.rows[] | select(.id == "timestamp-old")'`). */
  id: string
  name: string
  expect: Expectation
  /** Why a failure matters, shown next to a failing row. */
  why: string
  build(nowSeconds: number): Delivery
}

export interface BatteryOptions {
  secret: string
  /** Every secret the user configured: the "another secret" must be none of them. */
  secrets?: readonly string[]
  environment?: Environment
  nowMs: number
}

const TOLERANCE = LIMITS.webhookToleranceSeconds

/** The bytes the service sends: compact JSON, exactly what JSON.stringify produces. */
function compact(event: SvcEvent): Buffer {
  return Buffer.from(JSON.stringify(event), 'utf8')
}

/** The same event with whitespace changed: same JSON value, different bytes. */
function pretty(event: SvcEvent): Buffer {
  return Buffer.from(`${JSON.stringify(event, null, 2)}\n`, 'utf8')
}

function headersFor(event: SvcEvent, timestamp: number, signature: string | undefined): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'svc-webhooks-check',
    [WEBHOOK_HEADERS.eventId]: event.id,
    [WEBHOOK_HEADERS.eventType]: event.type,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
  }
  if (signature !== undefined) h[WEBHOOK_HEADERS.signature] = signature
  return h
}

function otherSecret(secrets: readonly string[]): string {
  let s: string
  do s = `whsec_${randomBytes(16).toString('hex')}`
  while (secrets.includes(s))
  return s
}

export function buildBattery(opts: BatteryOptions): CheckCase[] {
  const ctx: EventContext = { nowMs: opts.nowMs, environment: opts.environment ?? 'test' }
  const { secret } = opts
  const signed = (event: SvcEvent, body: Buffer, ts: number): Delivery => ({
    headers: headersFor(event, ts, signatureHeader(secret, ts, body)),
    body,
  })
  const charge = settledCharge(ctx)
  const settled = chargeEvent(ctx, 'charge.settled', charge)
  const fresh = () => chargeEvent(ctx, 'charge.settled', charge)
  const accept = (id: string, name: string, why: string, build: CheckCase['build']): CheckCase => ({ id, name, expect: 'accept', why, build })
  const reject = (id: string, name: string, why: string, build: CheckCase['build']): CheckCase => ({ id, name, expect: 'reject', why, build })

  return [
    accept('valid', 'valid charge.settled', 'a correctly signed delivery must be acknowledged, or the service retries and deactivates the endpoint', (ts) => signed(settled, compact(settled), ts)),
    accept('duplicate', 'same event again (same id)', 'delivery is at-least-once: a duplicate must be answered 2xx and ignored (spec 6.4)', (ts) => signed(settled, compact(settled), ts)),
    reject('forged-signature', 'forged signature', 'anyone could post fake payments to the endpoint', (ts) => {
      const event = fresh()
      return { headers: headersFor(event, ts, `v1=${randomBytes(32).toString('hex')}`), body: compact(event) }
    }),
    reject('wrong-secret', 'signed with another secret', 'the handler must verify with its own webhook secret', (ts) => {
      const event = fresh()
      const body = compact(event)
      return { headers: headersFor(event, ts, signatureHeader(otherSecret(opts.secrets ?? [secret]), ts, body)), body }
    }),
    reject('missing-signature', 'no signature header', 'an unsigned delivery must never be trusted', (ts) => {
      const event = fresh()
      return { headers: headersFor(event, ts, undefined), body: compact(event) }
    }),
    reject('malformed-signature', 'malformed signature header', 'the header must match v1=<64 lowercase hex>; anything else is rejected, not skipped', (ts) => {
      const event = fresh()
      const body = compact(event)
      // The right digest under the wrong scheme: a parser that ignores the `v1=` prefix accepts it.
      return { headers: headersFor(event, ts, `sha256=${computeSignature(secret, ts, body)}`), body }
    }),
    reject('reserialised', 'body re-serialised (whitespace changed)', 'verify the raw bytes received; re-serialising the JSON before verifying hides changes to the body (spec 6.2)', (ts) => {
      const event = fresh()
      // Signed over the bytes the service sends; the bytes that arrive differ in whitespace only.
      return { headers: headersFor(event, ts, signatureHeader(secret, ts, compact(event))), body: pretty(event) }
    }),
    accept('raw-bytes', 'valid, body not compact JSON', 'the signature covers the raw bytes as received, whatever their whitespace (spec 6.2)', (ts) => {
      const event = fresh()
      return signed(event, pretty(event), ts)
    }),
    // A margin of one second keeps the skew above the tolerance at the receiver even when the
    // clock ticks between signing and checking.
    reject('timestamp-old', `timestamp ${TOLERANCE + 1} s old`, `a delivery more than ${TOLERANCE} s old may be a replay (spec 6.2)`, (ts) => {
      const event = fresh()
      return signed(event, compact(event), ts - TOLERANCE - 1)
    }),
    reject('timestamp-ahead', `timestamp ${TOLERANCE + 1} s ahead`, `the tolerance applies both ways: more than ${TOLERANCE} s in the future is rejected too`, (ts) => {
      const event = fresh()
      return signed(event, compact(event), ts + TOLERANCE + 2)
    }),
    accept('unknown-type', 'unknown event type', 'new event types can be added: answer 2xx and ignore the body (spec 6.3)', (ts) => {
      const event = unknownTypeEvent(ctx)
      return signed(event, compact(event), ts)
    }),
    accept('withdrawal-paid', 'withdrawal.paid (data.withdrawal)', 'withdrawal events carry data.withdrawal, not data.charge: read the type first (spec 6.3)', (ts) => {
      const event = withdrawalPaidEvent(ctx)
      return signed(event, compact(event), ts)
    }),
  ]
}
