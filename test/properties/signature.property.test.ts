/**
 * Properties of webhook signatures (spec 6.2), on arbitrary bytes: sign then verify always
 * holds, and verification never accepts a body, timestamp or signature that was changed, nor
 * the right signature made with another secret.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { signatureHeader, verifySignature } from '../../src/lib/webhooks/signature.js'

const NOW = 1_795_000_000
const secretArb = fc.string({ minLength: 1, maxLength: 64 })
const bodyArb = fc.uint8Array({ maxLength: 2048 })
/** A timestamp within the tolerance of NOW. */
const tsArb = fc.integer({ min: NOW - 300, max: NOW + 300 })

const verify = (body: Uint8Array, ts: number | string, signature: string, secrets: string[]) => verifySignature({ body, timestamp: String(ts), signature, secrets, nowSeconds: NOW })

describe('webhook signatures (properties)', () => {
  it('sign then verify holds for arbitrary bytes, secrets and in-tolerance timestamps, with the secret among others (rotation)', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, tsArb, fc.array(secretArb, { maxLength: 3 }), (body, secret, ts, others) => {
        const secrets = [...others.filter((o) => o !== secret), secret]
        const r = verify(body, ts, signatureHeader(secret, ts, body), secrets)
        expect(r).toEqual({ ok: true, secretIndex: secrets.length - 1 })
      }),
      { numRuns: 300 },
    )
  })

  it('never accepts a tampered body', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, tsArb, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.constantFrom('flip', 'append', 'truncate'), (body, secret, ts, at, xor, how) => {
        const header = signatureHeader(secret, ts, body)
        let tampered: Uint8Array
        if (how === 'append') tampered = Buffer.concat([body, Buffer.from([xor])])
        else if (how === 'truncate' && body.length > 0) tampered = body.subarray(0, at % body.length)
        else if (body.length > 0) {
          tampered = Uint8Array.from(body)
          tampered[at % body.length]! ^= xor
        } else tampered = Uint8Array.from([xor])
        expect(verify(tampered, ts, header, [secret]).ok).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('never accepts a changed timestamp, even one inside the tolerance', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, tsArb, tsArb, (body, secret, ts, other) => {
        fc.pre(ts !== other)
        expect(verify(body, other, signatureHeader(secret, ts, body), [secret]).ok).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('never accepts a timestamp outside the tolerance, even correctly signed', () => {
    const outside = fc.oneof(fc.integer({ min: 0, max: NOW - 301 }), fc.integer({ min: NOW + 301, max: NOW + 10 ** 9 }))
    fc.assert(
      fc.property(bodyArb, secretArb, outside, (body, secret, ts) => {
        const r = verify(body, ts, signatureHeader(secret, ts, body), [secret])
        expect(r.ok).toBe(false)
      }),
      { numRuns: 200 },
    )
  })

  it('never accepts a changed signature: any other hex, another secret, another shape', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, secretArb, tsArb, fc.nat({ max: 63 }), fc.integer({ min: 1, max: 15 }), (body, secret, wrong, ts, pos, xor) => {
        const header = signatureHeader(secret, ts, body)
        const hex = header.slice(3)
        const flipped = `v1=${hex.slice(0, pos)}${(Number.parseInt(hex[pos]!, 16) ^ xor).toString(16)}${hex.slice(pos + 1)}`
        expect(verify(body, ts, flipped, [secret]).ok).toBe(false)
        if (wrong !== secret) expect(verify(body, ts, signatureHeader(wrong, ts, body), [secret]).ok).toBe(false)
        for (const shape of [hex, `v0=${hex}`, `v1=${hex.toUpperCase()}`, `${header},${header}`, `v1=${hex.slice(1)}`, '']) {
          if (shape === header) continue
          expect(verify(body, ts, shape, [secret]).ok).toBe(false)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('never accepts arbitrary header values', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, fc.string(), fc.string(), (body, secret, ts, sig) => {
        const r = verifySignature({ body, timestamp: ts, signature: sig, secrets: [secret], nowSeconds: NOW })
        // Only a correct signature over this exact timestamp and body can pass.
        if (r.ok) expect(sig.trim()).toBe(signatureHeader(secret, ts.trim(), body))
      }),
      { numRuns: 300 },
    )
  })
})
