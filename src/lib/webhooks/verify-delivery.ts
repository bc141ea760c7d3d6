/**
 * Everything a receiver must check before trusting a delivery (spec 6.2), in one function used
 * by the listener (and by the library's verifyWebhook): the signature over `<timestamp>.<raw
 * body>` and its timestamp, then the event's identity. The signature covers the body, not the
 * headers, so the id and type an app deduplicates and routes on must be the body's: a captured
 * delivery replayed within the tolerance with another X-SVC-Event-Id (or none) is refused, never
 * passed on with an id nobody signed.
 */
import { WEBHOOK_HEADERS } from '../contract/event-types.js'
import { parseBody } from './event-summary.js'
import { type Body, type VerifyFailure, verifySignature } from './signature.js'

export type DeliveryFailure = VerifyFailure | 'event_id_mismatch' | 'event_type_mismatch'

export type DeliveryVerdict = { ok: true; secretIndex: number; eventId?: string; type?: string; event?: Record<string, unknown> } | { ok: false; reason: DeliveryFailure; message: string; field: string }

export interface VerifyDeliveryInput {
  body: Body
  /** Header names in lower case, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>
  secrets: readonly string[]
  nowSeconds?: number
  toleranceSeconds?: number
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value
}

export function verifyDelivery(input: VerifyDeliveryInput): DeliveryVerdict {
  const signed = verifySignature({
    body: input.body,
    signature: input.headers[WEBHOOK_HEADERS.signature],
    timestamp: input.headers[WEBHOOK_HEADERS.timestamp],
    secrets: input.secrets,
    nowSeconds: input.nowSeconds,
    toleranceSeconds: input.toleranceSeconds,
  })
  if (!signed.ok) return { ...signed, field: signed.reason.includes('timestamp') ? 'X-SVC-Timestamp' : 'X-SVC-Signature' }
  const bytes = typeof input.body === 'string' ? Buffer.from(input.body, 'utf8') : input.body
  const parsed = parseBody(bytes)
  const event = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined
  // A signed body that is not an event (only the service could have signed it) is passed on as
  // is; an event's id and type are the signed ones, and the headers must say the same.
  const id = typeof event?.id === 'string' ? event.id : undefined
  const type = typeof event?.type === 'string' ? event.type : undefined
  const headerId = single(input.headers[WEBHOOK_HEADERS.eventId])
  if (id !== undefined && headerId !== id) {
    return { ok: false, reason: 'event_id_mismatch', message: `X-SVC-Event-Id ${headerId === undefined ? 'is missing' : 'differs from the signed body'}: the body's id is ${id}`, field: 'X-SVC-Event-Id' }
  }
  const headerType = single(input.headers[WEBHOOK_HEADERS.eventType])
  if (type !== undefined && headerType !== type) {
    return { ok: false, reason: 'event_type_mismatch', message: `X-SVC-Event-Type ${headerType === undefined ? 'is missing' : 'differs from the signed body'}: the body's type is ${type}`, field: 'X-SVC-Event-Type' }
  }
  return { ok: true, secretIndex: signed.secretIndex, eventId: id ?? headerId, type: type ?? headerType, event }
}
