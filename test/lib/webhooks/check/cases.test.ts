import { describe, expect, it } from 'vitest'
import { buildBattery } from '../../../../src/lib/webhooks/check/cases.js'
import { verifySignature } from '../../../../src/lib/webhooks/signature.js'

const secret = 'whsec_cases_0123456789abcdef'
const nowMs = Date.UTC(2026, 10, 22, 12, 0, 0)
const ts = nowMs / 1000
const delivery = (id: string) =>
  buildBattery({ secret, nowMs })
    .find((c) => c.id === id)!
    .build(ts)
const verify = (d: { headers: Record<string, string>; body: Buffer | string }, nowSeconds = ts) =>
  verifySignature({ body: d.body, signature: d.headers['x-svc-signature'], timestamp: d.headers['x-svc-timestamp'], secrets: [secret], nowSeconds })

describe('check battery cases', () => {
  it('valid deliveries are compact JSON, verifiable over the raw bytes, with the spec headers', () => {
    const d = delivery('valid')
    expect(verify(d).ok).toBe(true)
    expect(d.body.toString()).toBe(JSON.stringify(JSON.parse(d.body.toString())))
    const event = JSON.parse(d.body.toString())
    expect(d.headers).toMatchObject({ 'content-type': 'application/json', 'x-svc-event-id': event.id, 'x-svc-event-type': 'charge.settled', 'x-svc-timestamp': String(ts) })
    expect(d.headers['x-svc-signature']).toMatch(/^v1=[0-9a-f]{64}$/)
  })

  it('the re-serialised row fails raw-byte verification but passes a verifier that re-serialises first', () => {
    const d = delivery('reserialised')
    const text = d.body.toString()
    expect(text).not.toBe(JSON.stringify(JSON.parse(text)))
    expect(verify(d)).toMatchObject({ ok: false, reason: 'signature_mismatch' })
    expect(verify({ ...d, body: JSON.stringify(JSON.parse(text)) }).ok).toBe(true)
  })

  it('the raw-bytes row is signed as sent but is not what re-serialising produces', () => {
    const d = delivery('raw-bytes')
    expect(verify(d).ok).toBe(true)
    expect(verify({ ...d, body: JSON.stringify(JSON.parse(d.body.toString())) }).ok).toBe(false)
  })

  it('timestamps sit just outside the 300 s tolerance, each way, with a valid signature', () => {
    expect(verify(delivery('timestamp-old'), ts)).toMatchObject({ ok: false, reason: 'timestamp_too_old' })
    expect(verify(delivery('timestamp-ahead'), ts + 0.999)).toMatchObject({ ok: false, reason: 'timestamp_in_future' })
    expect(verify(delivery('timestamp-old'), ts - 2).ok).toBe(true)
    expect(verify(delivery('timestamp-ahead'), ts + 3).ok).toBe(true)
  })

  it('forged, other-secret, missing and malformed signatures are each rejected for their own reason', () => {
    expect(verify(delivery('forged-signature')).ok).toBe(false)
    expect(verify(delivery('wrong-secret'))).toMatchObject({ ok: false, reason: 'signature_mismatch' })
    expect(verify(delivery('missing-signature'))).toMatchObject({ ok: false, reason: 'missing_signature' })
    const malformed = delivery('malformed-signature')
    expect(verify(malformed)).toMatchObject({ ok: false, reason: 'malformed_signature' })
    // It carries the right digest: only the header's format is wrong.
    const digest = malformed.headers['x-svc-signature']!.replace(/^sha256=/, '')
    expect(verify({ ...malformed, headers: { ...malformed.headers, 'x-svc-signature': `v1=${digest}` } }).ok).toBe(true)
  })

  it('the duplicate carries the same event id as the valid delivery; every other row a fresh one', () => {
    const cases = buildBattery({ secret, nowMs })
    const ids = cases.map((c) => c.build(ts).headers['x-svc-event-id'])
    expect(ids[1]).toBe(ids[0])
    expect(new Set(ids).size).toBe(cases.length - 1)
  })
})
