/**
 * The verifying local forwarder behind `svc webhooks listen`:
 *   receive (raw bytes) → verify → filter → route → deduplicate → forward → answer → record.
 * Deliveries arrive from this listener's own HTTP server or from a relay stream
 * (webhooks/relay-source.ts); both hand them to handle(), and the one difference is data on the
 * delivery: when it was first received (its signature's age is counted there) and by what.
 * Routing is data: the targets (`{pattern, url}`, resolved once) name the one app each event goes
 * to, and the rest of the pipeline is the same whichever it is. The service gets a 2xx only when
 * that app answered 2xx, so a failure is retried by the service and nothing is lost. An event
 * forwarded with success to a target is never forwarded to it again (the event log remembers it
 * per target across restarts); concurrent copies of one event share a single forward. Clock,
 * forwarder and store are injected so that tests control them.
 */
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WEBHOOK_HEADERS } from '../contract/event-types.js'
import { MAX_BODY_BYTES, readCappedBody } from '../net/body.js'
import { answerClientErrors, guardedServerOptions, type ServerTimeouts } from '../net/server-guard.js'
import { matchesEventFilter } from './event-filter.js'
import type { LoggedDelivery, EventStore, NewLoggedDelivery } from './event-store.js'
import { type EventSummary, summarizeEvent } from './event-summary.js'
import { type Forwarder, type ForwardResult, type ForwardTarget, forwardedHeaders, loggedTarget, targetFor } from './forward.js'
import { signatureHeader } from './signature.js'
import { type DeliveryVerdict, verifyDelivery } from './verify-delivery.js'

export interface ListenerOptions {
  /** The targets (`--forward [PATTERN=]URL`...), in flag order: at least one. */
  targets: readonly ForwardTarget[]
  /** Sends the forwards (its deadline and `--header`s are its own); its owner closes it, after the listener. */
  forwarder: Forwarder
  secrets: readonly string[]
  store: EventStore
  skipVerify?: boolean
  /** Event types to forward (`charge.*` style prefixes allowed); others are answered 2xx and skipped. */
  events?: readonly string[]
  host?: string
  port?: number
  toleranceSeconds?: number
  maxBodyBytes?: number
  /** Milliseconds since the epoch (injected in tests). */
  now?: () => number
  /** Deadlines for a request to arrive (slow-loris guard); tests shorten them. */
  serverTimeouts?: Partial<ServerTimeouts>
}

export interface IncomingDelivery {
  method: string
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>
  body: Uint8Array
  /** The body passed the size limit and was discarded. */
  tooLarge?: boolean
  /** What handed it over: this listener's own server (default, `service`) or a relay stream (`relay`); the event log keeps it. */
  via?: 'relay'
  /**
   * When it first reached a receiver that held it (a relay), ms since the epoch. The signature's
   * age is counted at that instant, not now, and the forward carries a fresh X-SVC-Timestamp and
   * X-SVC-Signature made with the secret that verified it, so that the app's own 300 s check
   * passes for an event held for hours. Absent: received now, forwarded with its own headers.
   */
  arrivedAt?: number
}

export interface DeliveryAnswer {
  status: number
  body: unknown
  record?: LoggedDelivery
}

/** One handled delivery, as the live view and the NDJSON output see it. */
export interface ListenerDelivery {
  record: LoggedDelivery
  summary: EventSummary
  skipVerify: boolean
}

type Events = { delivery: [ListenerDelivery] }

function flatHeaders(headers: IncomingDelivery['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return out
}

function errorBody(code: string, message: string, details?: Array<{ field: string; message: string }>) {
  return { error: { code, message, ...(details ? { details } : {}), requestId: `lsn_${randomBytes(8).toString('hex')}` } }
}

export class WebhookListener extends EventEmitter<Events> {
  private readonly opts: ListenerOptions
  /** Resolved once: the pipeline below asks it where an event goes and never branches per target. */
  readonly targets: readonly ForwardTarget[]
  private readonly forwarder: Forwarder
  private readonly now: () => number
  private readonly inFlight = new Map<string, Promise<ForwardResult>>()
  private readonly pending = new Set<Promise<unknown>>()
  private server?: Server
  private address?: AddressInfo

  constructor(opts: ListenerOptions) {
    super()
    this.opts = opts
    this.targets = opts.targets
    if (this.targets.length === 0) throw new Error('the listener needs at least one target')
    this.forwarder = opts.forwarder
    this.now = opts.now ?? Date.now
  }

  get skipVerify(): boolean {
    return Boolean(this.opts.skipVerify)
  }

  get url(): string {
    if (!this.address) throw new Error('listener not started')
    const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address
    return `http://${host}:${this.address.port}/`
  }

  /** Deliveries being handled right now (a clean stop waits for them). */
  get inProgress(): number {
    return this.pending.size
  }

  async start(): Promise<string> {
    // Deadlines against slow-loris clients, and a 2.9-shaped answer to requests node cannot parse.
    const server = createServer(guardedServerOptions(this.opts.serverTimeouts), (req, res) => this.serve(req, res))
    server.keepAliveTimeout = 5000
    answerClientErrors(server, () => `lsn_${randomBytes(8).toString('hex')}`)
    this.server = server
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.opts.port ?? 4242, this.opts.host ?? '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      })
    })
    this.address = server.address() as AddressInfo
    // Right after the start, off its path: the event log's index of delivered events, which the first delivery would otherwise load.
    setImmediate(() => this.opts.store.warm())
    return this.url
  }

  /** Stops accepting deliveries, finishes the ones in flight, then closes every connection. */
  async close(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = undefined
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    while (this.pending.size > 0) await Promise.allSettled([...this.pending])
    server.closeAllConnections()
    await closed
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    // A body declared too large is answered at once (and the connection closed), never read; one
    // that grows past the limit is drained and answered at its end. A failed request gets no answer.
    const work = readCappedBody(req, { limit: this.opts.maxBodyBytes ?? MAX_BODY_BYTES }).then(
      (read) => {
        if (!read.ok && read.tooLarge === 'declared') res.setHeader('connection', 'close')
        return this.handle({ method: req.method ?? 'GET', headers: req.headers, body: read.ok ? read.body : new Uint8Array(0), tooLarge: !read.ok })
          .then((answer) => {
            res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.status === 405 ? { allow: 'POST' } : {}) })
            res.end(JSON.stringify(answer.body))
          })
          .catch((err: unknown) => {
            res.writeHead(500, { 'content-type': 'application/json' })
            res.end(JSON.stringify(errorBody('internal_error', `the listener failed: ${(err as Error).message}`)))
          })
      },
      () => undefined,
    )
    this.pending.add(work)
    void work.finally(() => this.pending.delete(work))
  }

  /** The whole pipeline for one delivery, without HTTP (the server above only carries bytes). */
  async handle(delivery: IncomingDelivery): Promise<DeliveryAnswer> {
    if (delivery.method !== 'POST') {
      return { status: 405, body: errorBody('invalid_request', 'Deliveries are POST requests; this is the svc webhook listener.') }
    }
    const receivedAt = new Date(this.now()).toISOString()
    const headers = flatHeaders(delivery.headers)
    const verdict = delivery.tooLarge
      ? undefined
      : verifyDelivery({
          body: delivery.body,
          headers: delivery.headers,
          secrets: this.opts.secrets,
          nowSeconds: Math.floor((delivery.arrivedAt ?? this.now()) / 1000),
          toleranceSeconds: this.opts.toleranceSeconds,
        })
    // A verified body was parsed by the verifier: summarize that object instead of parsing again.
    const summary = summarizeEvent(verdict?.ok && verdict.event ? verdict.event : delivery.body, headers)
    const target = targetFor(this.targets, summary.type)
    const base: Omit<NewLoggedDelivery, 'outcome' | 'answeredStatus' | 'verification'> = {
      receivedAt,
      source: delivery.via ?? 'service',
      eventId: summary.eventId,
      type: summary.type,
      chargeId: summary.charge?.id,
      headers,
      body: delivery.body,
      ...loggedTarget(target),
    }
    const finish = (rec: NewLoggedDelivery, body: unknown) => this.finish(rec, summary, body)
    if (!verdict) {
      // Too large: never read, so never verified.
      const limit = this.opts.maxBodyBytes ?? MAX_BODY_BYTES
      const message = `the body is larger than ${limit} bytes`
      return finish({ ...base, verification: 'failed', verifyReason: 'body_too_large', verifyMessage: message, outcome: 'rejected', answeredStatus: 413 }, errorBody('invalid_request', message))
    }

    const verification = this.opts.skipVerify ? 'skipped' : verdict.ok ? 'verified' : 'failed'
    const verifyInfo = verdict.ok ? {} : { verifyReason: verdict.reason, verifyMessage: verdict.message }
    if (verification === 'failed' && !verdict.ok) {
      const body = errorBody('invalid_request', `${verdict.reason}: ${verdict.message}`, [{ field: verdict.field, message: verdict.message }])
      return finish({ ...base, verification, ...verifyInfo, outcome: 'rejected', answeredStatus: 400 }, body)
    }
    const accepted = { ...base, verification, ...verifyInfo } as const

    if (!matchesEventFilter(summary.type, this.opts.events)) {
      return finish({ ...accepted, outcome: 'skipped', answeredStatus: 200 }, { received: true, skipped: true, reason: 'filtered out by --events' })
    }
    if (!target) {
      // No pattern matches and there is no default target: acknowledged, as --events does.
      return finish({ ...accepted, outcome: 'skipped', answeredStatus: 200 }, { received: true, skipped: true, reason: 'no --forward target for this event type' })
    }
    const id = summary.eventId
    if (id && this.opts.store.isDelivered(id, target.url.href)) {
      return finish({ ...accepted, outcome: 'duplicate', answeredStatus: 200 }, { received: true, duplicate: true })
    }
    const flightKey = id && `${target.url.href}\n${id}`
    const running = flightKey ? this.inFlight.get(flightKey) : undefined
    if (running) {
      // A concurrent copy of an event being forwarded: share that forward's fate.
      const result = await running
      const status = result.ok ? 200 : failureStatus(result)
      return finish(
        { ...accepted, outcome: 'duplicate', answeredStatus: status, forwardStatus: result.status, error: result.ok ? undefined : result.message },
        result.ok ? { received: true, duplicate: true } : failureBody(result),
      )
    }

    const forwarding = this.forwarder.send(target.url, delivery.body, this.outgoingHeaders(delivery, headers, verdict))
    if (flightKey) this.inFlight.set(flightKey, forwarding)
    let result: ForwardResult
    try {
      result = await forwarding
    } catch (err) {
      if (flightKey) this.inFlight.delete(flightKey)
      throw err
    }
    // Record first (it marks the id delivered to this target), then let go of the in-flight entry: no window for a second forward.
    const fields = { forwardStatus: result.status, latencyMs: result.latencyMs, error: result.ok ? undefined : result.message, responseSnippet: result.responseSnippet }
    let answer: Promise<DeliveryAnswer>
    try {
      answer = result.ok
        ? finish({ ...accepted, ...fields, outcome: 'forwarded', answeredStatus: 200 }, { received: true, forwarded: true, status: result.status })
        : finish({ ...accepted, ...fields, outcome: 'failed', answeredStatus: failureStatus(result) }, failureBody(result))
    } finally {
      // finish() has recorded synchronously by now (the commit is what it awaits).
      if (flightKey && this.inFlight.get(flightKey) === forwarding) this.inFlight.delete(flightKey)
    }
    return answer
  }

  /** The headers the app gets: the delivery's own, or (held by a relay) freshly signed with the secret that verified it. */
  private outgoingHeaders(delivery: IncomingDelivery, headers: Record<string, string>, verdict: DeliveryVerdict): Record<string, string> {
    const out = forwardedHeaders(headers)
    const secret = verdict.ok ? this.opts.secrets[verdict.secretIndex] : undefined
    if (delivery.arrivedAt === undefined || secret === undefined) return out
    const ts = Math.floor(this.now() / 1000)
    out[WEBHOOK_HEADERS.timestamp] = String(ts)
    out[WEBHOOK_HEADERS.signature] = signatureHeader(secret, ts, delivery.body)
    return out
  }

  /**
   * Records the delivery, and answers once the record is committed: a 2xx never leaves before
   * the event's "delivered" mark is durable, so a resend after a crash is not forwarded again.
   * The record is visible to isDelivered() at once (same connection), which closes the window
   * for a concurrent copy.
   */
  private async finish(rec: NewLoggedDelivery, summary: EventSummary, body: unknown): Promise<DeliveryAnswer> {
    const record = this.opts.store.record(rec)
    await this.opts.store.committed()
    this.emit('delivery', { record, summary, skipVerify: this.skipVerify })
    return { status: record.answeredStatus, body, record }
  }
}

function failureStatus(result: ForwardResult): number {
  return result.failure === 'timeout' ? 504 : 502
}

function failureBody(result: ForwardResult) {
  const code = result.failure === 'timeout' ? 'forward_timeout' : result.failure === 'bad_status' ? 'forward_rejected' : 'forward_failed'
  return errorBody(code, `not delivered to the app: ${result.message ?? 'unknown failure'}; retry later`)
}
