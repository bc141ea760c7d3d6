/**
 * Sending one delivery as the service does (spec 6.1, 6.2): the five headers, signed over the
 * wall-clock second of sending, POSTed through the shared outbound helper with no redirect
 * followed and the answer cut after what the log keeps.
 */
import { WEBHOOK_HEADERS } from '../../contract/event-types.js'
import { errorCodeOf, OutboundClient, reasonOf, targetOf } from '../../net/outbound.js'
import { signatureHeader } from '../../webhooks/signature.js'

/** One HTTP POST as the worker sends it (what an injected sender receives). */
export interface OutgoingDelivery {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  /**
   * True for the attempts of the retry schedule (first attempts and retries); false for a resend
   * and an injected duplicate. The faults layer (faults/) touches only scheduled attempts.
   */
  scheduled?: boolean
}

export interface DeliveryResponse {
  status: number
  /** The start of the response body (for the log). */
  body: string
  /** Set by the faults layer: the faults injected into this attempt (the log marks them). */
  injected?: string[]
  /** Set by the faults layer: nothing was sent (`lose`); the delivery counts as done. */
  notSent?: boolean
  /** Set by the faults layer: deliver the event once more, signed afresh (`duplicate`). */
  duplicate?: boolean
}

/** Sends one delivery; rejects on a network error or timeout. */
export type DeliverySender = (delivery: OutgoingDelivery) => Promise<DeliveryResponse>

/** How much of an answer the log keeps, and how much is read before the connection is cut. */
export const RESPONSE_SNIPPET = 1024
const RESPONSE_READ_CAP = 64 * 1024

/**
 * The headers of one attempt. The schedule runs on the sandbox clock, but X-SVC-Timestamp is the
 * wall-clock second of sending: receivers check it against their own clock (±300 s), and the
 * sandbox clock may run fast or have been advanced by hours.
 */
export function deliveryHeaders(secret: string, wallNowMs: number, event: { id: string; type: string; body: string }): Record<string, string> {
  const timestamp = Math.floor(wallNowMs / 1000)
  return {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.eventId]: event.id,
    [WEBHOOK_HEADERS.eventType]: event.type,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signatureHeader(secret, timestamp, event.body),
  }
}

/** The sender over one outbound client (128 connections per endpoint, kept alive). */
export function outboundSender(): { send: DeliverySender; close(): Promise<void> } {
  const client = new OutboundClient({ connections: 128, keepAliveTimeoutMs: 4_000 })
  return {
    async send(d) {
      const answer = await client.send({ ...targetOf(d.url), method: 'POST', headers: d.headers, body: d.body, timeoutMs: d.timeoutMs, maxBodyBytes: RESPONSE_READ_CAP, overflow: 'cut' })
      return { status: answer.status, body: answer.body.toString('utf8', 0, Math.min(answer.body.length, RESPONSE_SNIPPET * 4)) }
    },
    close: () => client.close(),
  }
}

/** What the log says of a failed send. */
export function describeSendError(err: unknown, timeoutMs: number): string {
  if (reasonOf(err) === 'timeout') return `timeout: no answer within ${timeoutMs / 1000} s`
  return errorCodeOf(err) ?? (err as { message?: string })?.message ?? String(err)
}

/** Why an answer is not a success (spec 6.4 item 3: only a 2xx is), or undefined for a 2xx. */
export function failureOfStatus(status: number): string | undefined {
  if (status >= 200 && status < 300) return undefined
  return status >= 300 && status < 400 ? `redirect (${status}) is not a success` : `HTTP ${status}`
}
