/**
 * Webhook signatures (spec 6.2): HMAC-SHA256 keyed with the webhook secret over
 * `<timestamp>.<raw body>`, header `v1=<lowercase hex>`. Pure: bytes in, verdict out.
 * Verification is constant-time, tries every secret (rotation), and rejects a timestamp more
 * than `toleranceSeconds` away from `now`, in either direction.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { LIMITS } from '../contract/limits.js'

export type Body = Uint8Array | string

function toBuffer(body: Body): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength)
}

/** The hex HMAC of `<timestamp>.<body>`. */
export function computeSignature(secret: string, timestamp: number | string, body: Body): string {
  const hmac = createHmac('sha256', secret)
  hmac.update(`${timestamp}.`)
  hmac.update(toBuffer(body))
  return hmac.digest('hex')
}

/** The `X-SVC-Signature` header value for this delivery. */
export function signatureHeader(secret: string, timestamp: number | string, body: Body): string {
  return `v1=${computeSignature(secret, timestamp, body)}`
}

export type VerifyFailure = 'missing_signature' | 'malformed_signature' | 'missing_timestamp' | 'malformed_timestamp' | 'timestamp_too_old' | 'timestamp_in_future' | 'no_secret' | 'signature_mismatch'

export type VerifyResult = { ok: true; secretIndex: number } | { ok: false; reason: VerifyFailure; message: string }

export interface VerifyInput {
  body: Body
  signature: string | string[] | undefined
  timestamp: string | string[] | undefined
  secrets: readonly string[]
  /** Seconds since the epoch; injected so tests and replays control the clock. */
  nowSeconds?: number
  toleranceSeconds?: number
}

const SIGNATURE_PATTERN = /^v1=[0-9a-f]{64}$/
const TIMESTAMP_PATTERN = /^\d{1,12}$/

function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined
  return value
}

export function verifySignature(input: VerifyInput): VerifyResult {
  const tolerance = input.toleranceSeconds ?? LIMITS.webhookToleranceSeconds
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000)
  const rawSig = input.signature
  const rawTs = input.timestamp
  if (rawSig === undefined || (Array.isArray(rawSig) && rawSig.length === 0)) {
    return { ok: false, reason: 'missing_signature', message: 'X-SVC-Signature header is missing' }
  }
  const sig = single(rawSig)?.trim()
  if (sig === undefined || !SIGNATURE_PATTERN.test(sig)) {
    return { ok: false, reason: 'malformed_signature', message: 'X-SVC-Signature must be v1= followed by 64 lowercase hex characters' }
  }
  if (rawTs === undefined || (Array.isArray(rawTs) && rawTs.length === 0)) {
    return { ok: false, reason: 'missing_timestamp', message: 'X-SVC-Timestamp header is missing' }
  }
  const ts = single(rawTs)?.trim()
  if (ts === undefined || !TIMESTAMP_PATTERN.test(ts)) {
    return { ok: false, reason: 'malformed_timestamp', message: 'X-SVC-Timestamp must be an integer number of epoch seconds' }
  }
  const skew = now - Number(ts)
  if (skew > tolerance) {
    return { ok: false, reason: 'timestamp_too_old', message: `timestamp is ${skew}s old (tolerance ${tolerance}s)` }
  }
  if (-skew > tolerance) {
    return { ok: false, reason: 'timestamp_in_future', message: `timestamp is ${-skew}s in the future (tolerance ${tolerance}s)` }
  }
  if (input.secrets.length === 0) return { ok: false, reason: 'no_secret', message: 'no webhook secret configured to verify with' }
  const given = Buffer.from(sig.slice(3), 'hex')
  let match = -1
  // Compare against every secret (no early exit) so timing does not reveal which one matched.
  input.secrets.forEach((secret, i) => {
    const expected = Buffer.from(computeSignature(secret, ts, input.body), 'hex')
    if (timingSafeEqual(expected, given) && match === -1) match = i
  })
  if (match === -1) return { ok: false, reason: 'signature_mismatch', message: 'signature does not match the body and timestamp for any configured secret' }
  return { ok: true, secretIndex: match }
}
