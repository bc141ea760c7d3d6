/**
 * `svc-cli/webhooks`: verify a webhook delivery of the Pix charge service exactly as the service
 * specifies (spec 6.2), with the same code `svc webhooks listen` runs.
 *
 * @example
 * ```ts
 * import { isEventType, verifyWebhook, WebhookVerificationError } from 'svc-cli/webhooks'
 *
 * // Your framework must give you the raw body (bytes or text), not parsed JSON.
 * try {
 *   const event = verifyWebhook(rawBody, req.headers, process.env.SVC_WEBHOOK_SECRET!)
 *   if (isEventType(event, 'charge.settled')) releaseOrder(event.data.charge.id)
 *   res.statusCode = 200
 * } catch (err) {
 *   if (err instanceof WebhookVerificationError) res.statusCode = 400 // never trust it
 *   else throw err
 * }
 * ```
 *
 * @packageDocumentation
 */
// First: on an old Node this throws one clear Error before anything else is evaluated (see node-guard.ts).
import './node-guard.js'
import { createRequire } from 'node:module'
import type { UnknownWebhookEvent, WebhookEvent } from '../lib/contract/event-schemas.js'
import { type DeliveryFailure, verifyDelivery } from '../lib/webhooks/verify-delivery.js'

type EventSchemas = typeof import('../lib/contract/event-schemas.js')
let schemas: EventSchemas | undefined

/**
 * The event schemas (and zod) load on the first verification, not on import: importing this
 * module stays cheap for a server that starts often (zod alone takes ~150 ms to load on a slow machine).
 */
function eventSchemas(): EventSchemas {
  schemas ??= createRequire(import.meta.url)('../lib/contract/event-schemas.js') as EventSchemas
  return schemas
}

export type { UnknownWebhookEvent, WebhookEvent } from '../lib/contract/event-schemas.js'
export { EVENT_TYPES, type EventType, WEBHOOK_HEADERS } from '../lib/contract/event-types.js'

/**
 * Why a delivery was refused:
 * - `missing_signature`, `malformed_signature`, `signature_mismatch`: `X-SVC-Signature` absent,
 *   not `v1=<64 hex>`, or made with none of your secrets (or over other bytes: verify the raw body);
 * - `missing_timestamp`, `malformed_timestamp`, `timestamp_too_old`, `timestamp_in_future`:
 *   `X-SVC-Timestamp` absent, not seconds since the epoch, or more than the tolerance away (a replay);
 * - `no_secret`: no secret was given;
 * - `event_id_mismatch`, `event_type_mismatch`: `X-SVC-Event-Id` / `X-SVC-Event-Type` do not name
 *   the signed body's id and type (a captured delivery re-sent under another id);
 * - `invalid_body`: signed, but not a JSON event object, or a known type whose body does not match
 *   its schema (`message` names the field).
 */
export type WebhookVerificationReason = DeliveryFailure | 'invalid_body'

/** A delivery that must not be trusted: answer it 400 and do nothing with it. */
export class WebhookVerificationError extends Error {
  /** Why, as a stable code (see {@link WebhookVerificationReason}). */
  readonly reason: WebhookVerificationReason
  /** The header (or `body`) that failed. */
  readonly field: string

  constructor(reason: WebhookVerificationReason, message: string, field: string) {
    super(message)
    this.name = 'WebhookVerificationError'
    this.reason = reason
    this.field = field
  }
}

/** Request headers as node:http gives them (lower-case keys), a plain object in any case, or a Fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | { get(name: string): string | null }

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `X-SVC-Timestamp` and now, in seconds (default 300, the spec's). */
  toleranceSeconds?: number
  /** "Now", for tests (default: the current time). */
  now?: Date | number
}

/**
 * Verifies one delivery and returns its event, typed by `type`: one of the 14 event types of spec
 * 6.3 (checked against its schema), or, for a type this version does not know, the event as sent
 * (spec 6.3: new types may appear; answer them 2xx). Throws {@link WebhookVerificationError}
 * when the delivery must be refused.
 *
 * @param rawBody - the request body exactly as received (a Buffer/Uint8Array, or the text).
 * @param headers - the request headers.
 * @param secrets - your webhook secret, or several during a rotation (any one may have signed).
 */
export function verifyWebhook(rawBody: Uint8Array | string, headers: WebhookHeaders, secrets: string | readonly string[], opts: VerifyWebhookOptions = {}): WebhookEvent | UnknownWebhookEvent {
  const list = typeof secrets === 'string' ? [secrets] : [...secrets]
  const nowSeconds = opts.now === undefined ? undefined : Math.floor((typeof opts.now === 'number' ? opts.now : opts.now.getTime()) / 1000)
  const verdict = verifyDelivery({ body: rawBody, headers: lowerCase(headers), secrets: list.filter(Boolean), nowSeconds, toleranceSeconds: opts.toleranceSeconds })
  if (!verdict.ok) throw new WebhookVerificationError(verdict.reason, verdict.message, verdict.field)
  if (!verdict.event) throw new WebhookVerificationError('invalid_body', 'the signed body is not a JSON object', 'body')
  try {
    return eventSchemas().parseWebhookEvent(verdict.event).event
  } catch (err) {
    const issue = (err as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues?.[0]
    const field = issue ? issue.path.map(String).join('.') || 'body' : 'body'
    throw new WebhookVerificationError('invalid_body', `the signed ${String(verdict.event.type ?? 'event')} does not match its schema: ${field}: ${issue?.message ?? (err as Error).message}`, field)
  }
}

/** The event of one type, e.g. `EventOf<'charge.settled'>`. */
export type EventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>

/**
 * Narrows a verified event to one type (or several), so its `data` is typed:
 * `if (isEventType(event, 'withdrawal.paid')) event.data.withdrawal.pix.endToEndId`.
 * (Comparing `event.type` alone cannot narrow: an unknown type is any string.)
 */
export function isEventType<T extends WebhookEvent['type']>(event: WebhookEvent | UnknownWebhookEvent, ...types: T[]): event is EventOf<T> {
  return (types as string[]).includes(event.type)
}

const HEADER_NAMES = ['x-svc-signature', 'x-svc-timestamp', 'x-svc-event-id', 'x-svc-event-type']

function lowerCase(headers: WebhookHeaders): Record<string, string | string[] | undefined> {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const h = headers as { get(name: string): string | null }
    return Object.fromEntries(HEADER_NAMES.map((n) => [n, h.get(n) ?? undefined]))
  }
  const out: Record<string, string | string[] | undefined> = {}
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) out[k.toLowerCase()] = v
  return out
}
