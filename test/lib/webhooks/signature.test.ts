/**
 * src/lib/webhooks/signature.ts, the HMAC check every surface relies on (the listener, `webhooks
 * verify`, svc-cli/webhooks, `webhooks check`, the sandbox's signer): spec 6.2 byte for byte.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeSignature, signatureHeader, verifySignature } from '../../../src/lib/webhooks/signature.js'

const SECRET = 'whsec_test'
const BODY = '{"id":"evt_1"}'
const TS = 1_700_000_000
// HMAC-SHA256('whsec_test', '1700000000.{"id":"evt_1"}'), computed outside svc (Python's hmac module).
const KNOWN = 'c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925'

const verify = (over: Partial<Parameters<typeof verifySignature>[0]> = {}) => verifySignature({ body: BODY, signature: `v1=${KNOWN}`, timestamp: String(TS), secrets: [SECRET], nowSeconds: TS, ...over })

describe('signing (spec 6.2)', () => {
  it('is HMAC-SHA256 over "<timestamp>.<raw body>", lowercase hex behind v1=', () => {
    expect(computeSignature(SECRET, TS, BODY)).toBe(KNOWN)
    expect(signatureHeader(SECRET, TS, BODY)).toBe(`v1=${KNOWN}`)
  })

  it('signs the bytes, so a string and its UTF-8 bytes (even a slice of a larger buffer) sign alike', () => {
    const text = '{"name":"Conceição"}'
    const big = Buffer.from(`xx${text}yy`, 'utf8')
    const slice = big.subarray(2, big.length - 2)
    expect(computeSignature(SECRET, TS, slice)).toBe(computeSignature(SECRET, TS, text))
  })
})

describe('verifying', () => {
  it('accepts the right signature, naming which secret matched', () => {
    expect(verify()).toEqual({ ok: true, secretIndex: 0 })
    expect(verify({ secrets: ['whsec_old', SECRET] })).toEqual({ ok: true, secretIndex: 1 })
  })

  it('refuses a re-serialised body (whitespace changes the bytes)', () => {
    expect(verify({ body: '{ "id": "evt_1" }' })).toMatchObject({ ok: false, reason: 'signature_mismatch' })
  })

  it('refuses a changed timestamp, even inside the tolerance (it is part of the signed text)', () => {
    expect(verify({ timestamp: String(TS + 1) })).toMatchObject({ ok: false, reason: 'signature_mismatch' })
  })

  it('applies the 300 s tolerance both ways, at the boundary', () => {
    expect(verify({ nowSeconds: TS + 300 }).ok).toBe(true)
    expect(verify({ nowSeconds: TS + 301 })).toMatchObject({ ok: false, reason: 'timestamp_too_old' })
    expect(verify({ nowSeconds: TS - 300 }).ok).toBe(true)
    expect(verify({ nowSeconds: TS - 301 })).toMatchObject({ ok: false, reason: 'timestamp_in_future' })
    expect(verify({ nowSeconds: TS + 30, toleranceSeconds: 10 })).toMatchObject({ ok: false, reason: 'timestamp_too_old' })
  })

  it('names what is wrong with malformed or missing headers', () => {
    expect(verify({ signature: undefined })).toMatchObject({ reason: 'missing_signature' })
    expect(verify({ signature: [] })).toMatchObject({ reason: 'missing_signature' })
    expect(verify({ signature: `v1=${KNOWN.toUpperCase()}` })).toMatchObject({ reason: 'malformed_signature' })
    expect(verify({ signature: `v2=${KNOWN}` })).toMatchObject({ reason: 'malformed_signature' })
    expect(verify({ signature: [`v1=${KNOWN}`, `v1=${KNOWN}`] })).toMatchObject({ reason: 'malformed_signature' })
    expect(verify({ timestamp: undefined })).toMatchObject({ reason: 'missing_timestamp' })
    expect(verify({ timestamp: '17e8' })).toMatchObject({ reason: 'malformed_timestamp' })
    expect(verify({ secrets: [] })).toMatchObject({ reason: 'no_secret' })
  })

  it('accepts exactly what it signed, for any body, secret and time', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.string({ minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 33 }), (body, secret, ts) => {
        const signature = signatureHeader(secret, ts, body)
        expect(verifySignature({ body, signature, timestamp: String(ts), secrets: [secret], nowSeconds: ts }).ok).toBe(true)
        const flipped = Uint8Array.from(body)
        if (flipped.length > 0) {
          flipped[0] = flipped[0]! ^ 1
          expect(verifySignature({ body: flipped, signature, timestamp: String(ts), secrets: [secret], nowSeconds: ts }).ok).toBe(false)
        }
      }),
    )
  })
})
