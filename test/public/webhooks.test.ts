/**
 * svc-cli/webhooks, as built (dist/, what the package ships): verifyWebhook gives the same verdict
 * as the listener's verifier (webhooks/verify-delivery.ts) on the same generated deliveries, and
 * returns the typed event or throws WebhookVerificationError with the reason.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type * as Webhooks from '../../src/public/webhooks.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'
import { verifyDelivery } from '../../src/lib/webhooks/verify-delivery.js'
import { chargeEvent, settledCharge, unknownTypeEvent, withdrawalPaidEvent } from '../../src/lib/webhooks/check/battery-events.js'

// The built module (npm test builds first), typed from its source: `npm run typecheck` passes on a
// fresh clone, before any build.
const built = new URL('../../dist/public/webhooks.js', import.meta.url).href
const { isEventType, verifyWebhook, WebhookVerificationError } = (await import(built)) as typeof Webhooks

const NOW = 1_795_000_000
const ctx = { nowMs: NOW * 1000, environment: 'test' as const }
const SECRET = 'whsec_library_test_0123456789'
const bodies = [JSON.stringify(chargeEvent(ctx, 'charge.settled', settledCharge(ctx))), JSON.stringify(withdrawalPaidEvent(ctx)), JSON.stringify(unknownTypeEvent(ctx))]

const delivery = fc.record({
  body: fc.constantFrom(...bodies),
  skew: fc.oneof(fc.integer({ min: -299, max: 299 }), fc.integer({ min: -5000, max: 5000 })),
  signWith: fc.constantFrom(SECRET, 'whsec_other', ''),
  tamper: fc.boolean(),
  idHeader: fc.constantFrom('body', 'other', 'missing'),
  typeHeader: fc.constantFrom('body', 'other', 'missing'),
  signature: fc.constantFrom('valid', 'malformed', 'missing'),
  timestamp: fc.constantFrom('valid', 'malformed', 'missing'),
  secrets: fc.constantFrom([SECRET], ['whsec_old', SECRET], [], ['whsec_other']),
})

type Delivery = typeof delivery extends fc.Arbitrary<infer T> ? T : never

function build(d: Delivery) {
  const event = JSON.parse(d.body) as { id: string; type: string }
  const ts = NOW + d.skew
  const sent = d.tamper ? d.body.replace('"test"', '"live"') : d.body
  const headers: Record<string, string> = {}
  if (d.signature === 'valid') headers['x-svc-signature'] = signatureHeader(d.signWith || 'x', ts, d.body)
  if (d.signature === 'malformed') headers['x-svc-signature'] = 'sha256=abc'
  if (d.timestamp === 'valid') headers['x-svc-timestamp'] = String(ts)
  if (d.timestamp === 'malformed') headers['x-svc-timestamp'] = 'yesterday'
  if (d.idHeader !== 'missing') headers['x-svc-event-id'] = d.idHeader === 'body' ? event.id : 'evt_other'
  if (d.typeHeader !== 'missing') headers['x-svc-event-type'] = d.typeHeader === 'body' ? event.type : 'charge.paid'
  return { body: Buffer.from(sent), headers, secrets: d.secrets }
}

function library(input: ReturnType<typeof build>): string {
  try {
    const event = verifyWebhook(input.body, input.headers, input.secrets, { now: NOW * 1000 })
    return `ok ${event.id} ${event.type}`
  } catch (err) {
    if (err instanceof WebhookVerificationError) return `refused ${err.reason}`
    throw err
  }
}

function listener(input: ReturnType<typeof build>): string {
  const v = verifyDelivery({ body: input.body, headers: input.headers, secrets: input.secrets, nowSeconds: NOW })
  return v.ok ? `ok ${v.eventId} ${v.type}` : `refused ${v.reason}`
}

describe('verifyWebhook', () => {
  it("gives the listener verifier's verdict on every generated delivery", () => {
    fc.assert(
      fc.property(delivery, (d) => {
        const input = build(d)
        expect(library(input)).toBe(listener(input))
      }),
      { numRuns: 1000 },
    )
  })

  it('returns the typed event; a Fetch Headers object and mixed-case keys work too', () => {
    const body = bodies[1]!
    const event = JSON.parse(body) as { id: string; type: string }
    const headers = { 'X-SVC-Signature': signatureHeader(SECRET, NOW, body), 'X-SVC-Timestamp': String(NOW), 'X-SVC-Event-Id': event.id, 'X-SVC-Event-Type': event.type }
    const a = verifyWebhook(body, headers, SECRET, { now: NOW * 1000 })
    const b = verifyWebhook(Buffer.from(body), new Headers(headers), [SECRET], { now: new Date(NOW * 1000) })
    expect(a).toEqual(b)
    if (!isEventType(a, 'withdrawal.paid')) throw new Error('expected withdrawal.paid')
    expect(a.data.withdrawal.pix.endToEndId).toMatch(/^E/)
    expect(isEventType(a, 'charge.settled', 'charge.refunded')).toBe(false)
  })

  it('a signed known type whose body breaks its schema is refused as invalid_body, naming the field', () => {
    const broken = JSON.parse(bodies[1]!) as { data: { withdrawal: { pix: Record<string, unknown> } }; id: string; type: string }
    delete broken.data.withdrawal.pix.endToEndId
    const body = JSON.stringify(broken)
    const headers = { 'x-svc-signature': signatureHeader(SECRET, NOW, body), 'x-svc-timestamp': String(NOW), 'x-svc-event-id': broken.id, 'x-svc-event-type': broken.type }
    expect(() => verifyWebhook(body, headers, SECRET, { now: NOW * 1000 })).toThrow(expect.objectContaining({ reason: 'invalid_body', field: 'data.withdrawal.pix.endToEndId' }))
  })
})
