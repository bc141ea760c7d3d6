/**
 * Replay from the event log: the same raw bytes, the original content-type and X-SVC-* headers,
 * to the app. When a known secret signed the original, the delivery is re-signed with it and a
 * fresh timestamp (so that the app's own 300 s check passes); otherwise the original headers go
 * as they were and the caller warns.
 */
import { WEBHOOK_HEADERS } from '../contract/event-types.js'
import { CliError, UsageError, EXIT } from '../errors.js'
import type { LoggedDelivery, EventStore } from './event-store.js'
import { summarizeEvent } from './event-summary.js'
import { type Forwarder, type ForwardResult, type ForwardTarget, forwardedHeaders, loggedTarget, parseForwardUrl, targetFor } from './forward.js'
import { signatureHeader, verifySignature } from './signature.js'

export interface ReplayOptions {
  store: EventStore
  eventId: string
  forwarder: Forwarder
  /** Where to send; default: the target the event routes to among `targets`, else where the original delivery was forwarded. */
  forward?: URL
  /** The running listener's targets (the live view's replay). */
  targets?: readonly ForwardTarget[]
  secrets: readonly string[]
  now?: () => number
}

export interface ReplayResult {
  original: LoggedDelivery
  record: LoggedDelivery
  url: URL
  result: ForwardResult
  /** False when no secret was known and the original signature headers were sent. */
  resigned: boolean
}

/**
 * The known secret that signed this delivery (timestamp age ignored), if any. A delivery that
 * no known secret signed is never re-signed: that would turn a forgery into a valid event.
 */
function signingSecret(original: LoggedDelivery, secrets: readonly string[]): string | undefined {
  if (secrets.length === 0) return undefined
  const verdict = verifySignature({
    body: original.body,
    signature: original.headers[WEBHOOK_HEADERS.signature],
    timestamp: original.headers[WEBHOOK_HEADERS.timestamp],
    secrets,
    nowSeconds: Number(original.headers[WEBHOOK_HEADERS.timestamp]) || 0,
  })
  return verdict.ok ? secrets[verdict.secretIndex] : undefined
}

export async function replayEvent(opts: ReplayOptions): Promise<ReplayResult> {
  const original = opts.store.findForReplay(opts.eventId)
  if (!original) {
    throw new CliError(`No delivery of event ${opts.eventId} in the local event log.`, {
      exitCode: EXIT.notFound,
      code: 'event_not_found',
      hint: 'List what the listener received with `svc webhooks events`.',
    })
  }
  if (original.bodySize !== undefined) {
    throw new CliError(
      `The only delivery of event ${opts.eventId} in the local event log was refused, and only the first ${original.body.length} of its ${original.bodySize} bytes were kept: there is nothing whole to replay.`,
      {
        exitCode: EXIT.notFound,
        code: 'event_not_found',
        hint: 'Replay an event the listener verified (`svc webhooks events`), or resend it from the service.',
      },
    )
  }
  const routed = opts.targets ? targetFor(opts.targets, original.type)?.url : undefined
  const url = opts.forward ?? routed ?? (original.forwardUrl ? parseForwardUrl(original.forwardUrl) : undefined)
  if (!url) throw new UsageError('This delivery was never forwarded anywhere; say where to send it.', { field: 'forward' })
  const headers = forwardedHeaders(original.headers)
  const secret = signingSecret(original, opts.secrets)
  const now = opts.now ?? Date.now
  if (secret) {
    const ts = Math.floor(now() / 1000)
    headers[WEBHOOK_HEADERS.timestamp] = String(ts)
    headers[WEBHOOK_HEADERS.signature] = signatureHeader(secret, ts, original.body)
  }
  const result = await opts.forwarder.send(url, original.body, headers)
  const summary = summarizeEvent(original.body, original.headers)
  const record = opts.store.record({
    receivedAt: new Date(now()).toISOString(),
    source: 'replay',
    eventId: original.eventId ?? summary.eventId,
    type: original.type ?? summary.type,
    chargeId: original.chargeId,
    attempt: 1,
    headers,
    body: original.body,
    verification: original.verification,
    verifyReason: original.verifyReason,
    verifyMessage: original.verifyMessage,
    outcome: result.ok ? 'forwarded' : 'failed',
    answeredStatus: 0,
    ...loggedTarget({ pattern: null, url }),
    forwardStatus: result.status,
    latencyMs: result.latencyMs,
    error: result.ok ? undefined : result.message,
    responseSnippet: result.responseSnippet,
  })
  return { original, record, url, result, resigned: secret !== undefined }
}
