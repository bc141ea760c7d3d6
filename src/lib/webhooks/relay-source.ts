/**
 * The listener's second source of deliveries: a relay's stream (`svc webhooks listen --relay`).
 * It connects out to `GET /v1/stream` (contract/relay-stream.ts, the only thing it knows of the
 * relay), reads Server-Sent Events, and hands each delivery to the listener's pipeline
 * (WebhookListener.handle) with the relay's arrival time, so everything after arrival — verify,
 * route, dedup, forward, record — is the pipeline the listener's own server feeds. A delivery is
 * acked (`POST /v1/ack`) only when the pipeline answered 2xx: forwarded and answered 2xx by the
 * app, or not to be forwarded (filtered, no target, a duplicate already delivered). A failed
 * forward and a delivery that failed verification are not acked: the relay sends them again (the
 * relay verified each one on arrival, so a failure here most likely means this listener's
 * secret differs from the channel's — acking would drop the event for good).
 *
 * It reconnects with backoff (at most 5 s between tries), through each URL in turn, and counts a
 * stream silent for 2× the ping interval as dead. It says "ready" only after the stream's `ready`
 * frame, and "disconnected" as soon as a stream ends. A `closing` frame that says the token was
 * revoked, replaced by another listener, or its channel removed stops it: reconnecting would not help.
 */
import { EventEmitter } from 'node:events'
import {
  RELAY_ACK_PATH,
  RELAY_PING_MS,
  RELAY_STREAM_PATH,
  type RelayClosing,
  RelayClosingSchema,
  RelayDeliverySchema,
  type RelayGap,
  RelayGapSchema,
  type RelayReady,
  RelayReadySchema,
} from '../contract/relay-stream.js'
import { UsageError } from '../errors.js'
import { OutboundClient, type OutboundError, type StreamHandle } from '../net/outbound.js'
import type { DeliveryAnswer, IncomingDelivery } from './listener.js'

/** Longest wait between two connection attempts. */
export const RELAY_MAX_BACKOFF_MS = 5_000
const FIRST_BACKOFF_MS = 250
/** Deliveries handled at once; past it the stream is paused (TCP backpressure on the relay). */
const MAX_IN_FLIGHT = 64
const ACK_BATCH = 1000
/**
 * Acks wait this long to travel together: each ack is a commit on the relay, and one per delivery
 * halved what a relay could take at low concurrency. A crash inside the window only means the
 * relay resends those deliveries, which the event log (committed before the ack) answers as
 * duplicates, not forwarded again.
 */
const ACK_DELAY_MS = 20

/** `relay.example.com` → `https://relay.example.com/`; http is taken for loopback and explicit URLs. */
export function parseRelayUrls(input: string, field = 'relay'): URL[] {
  const parts = input
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const name = field === 'relay' ? '--relay' : field
  if (parts.length === 0) throw new UsageError(`${name}: no relay URL given.`, { field, hint: 'Pass the relay’s address, e.g. --relay https://relay.example.com.' })
  return parts.map((p) => {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(p) ? p : `https://${p}`
    let url: URL
    try {
      url = new URL(withScheme)
    } catch {
      throw new UsageError(`${name}: "${p}" is not a URL.`, { field, hint: 'Pass the relay’s address, e.g. --relay https://relay.example.com.' })
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name}: the relay URL must be http or https, not ${url.protocol.replace(':', '')}.`, { field })
    if (url.username || url.password) throw new UsageError(`${name}: the relay URL must not carry credentials; the token goes in --token or SVC_RELAY_TOKEN.`, { field })
    if (!url.pathname.endsWith('/')) url.pathname += '/'
    url.search = ''
    url.hash = ''
    return url
  })
}

/** What the source says about its connection; the live view, the NDJSON lines and stderr show each. */
export type RelayStatus =
  | { kind: 'connecting'; url: string }
  | { kind: 'ready'; url: string; ready: RelayReady }
  | { kind: 'disconnected'; url: string; reason: string; retryInMs: number }
  | { kind: 'gap'; url: string; gap: RelayGap }
  | { kind: 'closing'; url: string; closing: RelayClosing }
  /** Something the relay sent that is not the wire (skipped), or an ack that could not be sent. */
  | { kind: 'warning'; url: string; message: string }

/** Why run() returned: stopped by its owner, or the relay said there is no point reconnecting. */
export type RelayEnd = { kind: 'stopped' } | { kind: 'ended'; reason: 'revoked' | 'replaced' | 'channel_removed' | 'unauthorized'; message: string }

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
}

export interface RelaySourceOptions {
  /** One or more relay base URLs, tried in turn. */
  urls: readonly URL[]
  token: string
  /** The listener's pipeline (WebhookListener.handle). */
  handle: (delivery: IncomingDelivery) => Promise<DeliveryAnswer>
  /** Its owner closes it. Default: one of its own, closed when run() ends. */
  client?: OutboundClient
  /** The stream's ping interval; silence for twice this is a dead stream. */
  pingMs?: number
  /** Timers (tests inject their own to fire the backoff and the silence deadline). */
  timers?: Timers
  maxInFlight?: number
}

type Events = { status: [RelayStatus] }

interface SseFrame {
  event: string
  data: string
  id?: string
}

/** Server-Sent Events framing (https://html.spec.whatwg.org/multipage/server-sent-events.html): text in, frames out. */
export class SseParser {
  private buffer = ''
  private readonly decoder = new TextDecoder()

  push(chunk: Uint8Array): SseFrame[] {
    this.buffer += this.decoder.decode(chunk, { stream: true })
    const frames: SseFrame[] = []
    for (;;) {
      const end = /\r\n\r\n|\n\n|\r\r/.exec(this.buffer)
      if (!end) break
      const block = this.buffer.slice(0, end.index)
      this.buffer = this.buffer.slice(end.index + end[0].length)
      let event = 'message'
      const data: string[] = []
      let id: string | undefined
      for (const line of block.split(/\r\n|\n|\r/)) {
        if (line === '' || line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon === -1 ? line : line.slice(0, colon)
        let value = colon === -1 ? '' : line.slice(colon + 1)
        if (value.startsWith(' ')) value = value.slice(1)
        if (field === 'event') event = value
        else if (field === 'data') data.push(value)
        else if (field === 'id') id = value
      }
      if (data.length > 0) frames.push({ event, data: data.join('\n'), id })
    }
    return frames
  }
}

const TERMINAL: ReadonlySet<string> = new Set(['revoked', 'replaced', 'channel_removed'])

export class RelaySource extends EventEmitter<Events> {
  private readonly opts: RelaySourceOptions
  private readonly timers: Timers
  private readonly pingMs: number
  private readonly maxInFlight: number
  private readonly client: OutboundClient
  /** Sequence numbers being handled: a redelivery of one of them (the relay's backoff was shorter than the app) is not handled twice. */
  private readonly handling = new Set<number>()
  private readonly work = new Set<Promise<void>>()
  /** Sequence numbers to ack, per relay URL they came from. */
  private readonly toAck = new Map<string, number[]>()
  private acking?: Promise<void>
  private lastSeq?: number
  private connected = false

  constructor(opts: RelaySourceOptions) {
    super()
    if (opts.urls.length === 0) throw new Error('the relay source needs at least one URL')
    this.opts = opts
    this.timers = opts.timers ?? realTimers
    this.pingMs = opts.pingMs ?? RELAY_PING_MS
    this.maxInFlight = opts.maxInFlight ?? MAX_IN_FLIGHT
    this.client = opts.client ?? new OutboundClient({ keepAliveTimeoutMs: 30_000 })
  }

  /** True only between a stream's `ready` frame and its end. */
  get isReady(): boolean {
    return this.connected
  }

  /** Deliveries being handled right now. */
  get inProgress(): number {
    return this.handling.size
  }

  /** Connects, and reconnects, until `stop` aborts or the relay says the token is done with. */
  async run(stop: AbortSignal): Promise<RelayEnd> {
    let turn = 0
    let failures = 0
    try {
      while (!stop.aborted) {
        const url = this.opts.urls[turn % this.opts.urls.length]!
        turn++
        const result = await this.connectOnce(url, stop)
        this.connected = false
        if (result.end) return result.end
        if (stop.aborted) break
        failures = result.wasReady ? 0 : failures + 1
        const backoff = Math.min(RELAY_MAX_BACKOFF_MS, result.retryAfterMs ?? FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1))
        this.emit('status', { kind: 'disconnected', url: url.href, reason: result.reason, retryInMs: backoff })
        await this.sleep(backoff, stop)
      }
      return { kind: 'stopped' }
    } finally {
      this.connected = false
      while (this.work.size > 0) await Promise.allSettled([...this.work])
      if (this.acking) await this.acking
      await this.flushAcks()
      if (!this.opts.client) await this.client.close()
    }
  }

  private sleep(ms: number, stop: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.timers.clearTimeout(handle)
        stop.removeEventListener('abort', done)
        resolve()
      }
      const handle = this.timers.setTimeout(done, ms)
      stop.addEventListener('abort', done, { once: true })
    })
  }

  private connectOnce(base: URL, stop: AbortSignal): Promise<{ end?: RelayEnd; reason: string; wasReady: boolean; retryAfterMs?: number }> {
    const url = new URL(RELAY_STREAM_PATH.replace(/^\//, ''), base)
    this.emit('status', { kind: 'connecting', url: base.href })
    return new Promise((resolve) => {
      const parser = new SseParser()
      let wasReady = false
      let settled = false
      let silence: unknown
      let handle: StreamHandle | undefined
      let status = 0
      let errorBody = ''
      let retryAfterMs: number | undefined
      const settle = (r: { end?: RelayEnd; reason: string }) => {
        if (settled) return
        settled = true
        this.timers.clearTimeout(silence)
        stop.removeEventListener('abort', onAbort)
        handle?.abort('stream closed by the listener')
        this.connected = false
        resolve({ ...r, wasReady, retryAfterMs })
      }
      const onAbort = () => settle({ reason: 'stopped' })
      let paused = false
      const watchSilence = () => {
        this.timers.clearTimeout(silence)
        // Paused, this listener is not reading (its app is slow): silence is its own, not the relay's.
        if (paused) return
        silence = this.timers.setTimeout(() => settle({ reason: `no data from the relay for ${Math.round((2 * this.pingMs) / 1000)} s (a dead stream)` }), 2 * this.pingMs)
      }
      stop.addEventListener('abort', onAbort, { once: true })
      watchSilence()
      const headers: Record<string, string> = { authorization: `Bearer ${this.opts.token}`, accept: 'text/event-stream' }
      if (this.lastSeq !== undefined) headers['last-event-id'] = String(this.lastSeq)
      const onFrame = (frame: SseFrame) => {
        if (frame.event === 'ready') {
          const ready = parseFrame(RelayReadySchema, frame.data)
          if (!ready) return this.emit('status', { kind: 'warning', url: base.href, message: 'the relay sent a ready frame this listener cannot read' })
          wasReady = true
          this.connected = true
          this.emit('status', { kind: 'ready', url: base.href, ready })
        } else if (frame.event === 'delivery') {
          const d = parseFrame(RelayDeliverySchema, frame.data)
          if (!d) return this.emit('status', { kind: 'warning', url: base.href, message: 'the relay sent a delivery this listener cannot read (skipped; it is not acked)' })
          this.take(base, d)
          if (this.handling.size >= this.maxInFlight && !paused) {
            paused = true
            this.timers.clearTimeout(silence)
            handle?.pause()
          }
        } else if (frame.event === 'gap') {
          const gap = parseFrame(RelayGapSchema, frame.data)
          if (gap) this.emit('status', { kind: 'gap', url: base.href, gap })
        } else if (frame.event === 'closing') {
          const closing = parseFrame(RelayClosingSchema, frame.data) ?? { reason: 'shutdown' as const, message: 'the relay is closing the stream' }
          this.emit('status', { kind: 'closing', url: base.href, closing })
          if (TERMINAL.has(closing.reason)) settle({ end: { kind: 'ended', reason: closing.reason as 'revoked', message: closing.message }, reason: closing.message })
        }
      }
      this.resumeStream = () => {
        if (!paused || settled) return
        paused = false
        watchSilence()
        handle?.resume()
      }
      handle = this.client.stream(
        { origin: url.origin, path: `${url.pathname}${url.search}`, headers, headTimeoutMs: 10_000 },
        {
          onHead: (s, h) => {
            status = s
            watchSilence()
            const retryAfter = Number(h['retry-after'])
            if (s === 429 && Number.isFinite(retryAfter)) retryAfterMs = retryAfter * 1000
          },
          onData: (chunk) => {
            watchSilence()
            if (status !== 200) {
              if (errorBody.length < 2048) errorBody += chunk.toString('utf8')
              return
            }
            for (const frame of parser.push(chunk)) {
              if (settled) return
              onFrame(frame)
            }
          },
          onEnd: () => {
            if (status === 401) {
              settle({ end: { kind: 'ended', reason: 'unauthorized', message: errorMessage(errorBody) ?? 'the relay does not know this token (unknown or revoked)' }, reason: 'unauthorized' })
            } else if (status !== 200) settle({ reason: `the relay answered ${status}${errorMessage(errorBody) ? `: ${errorMessage(errorBody)}` : ''}` })
            else settle({ reason: 'the relay ended the stream' })
          },
          onError: (err: OutboundError) => settle({ reason: `${err.reason === 'refused' ? 'connection refused' : err.message}` }),
        },
      )
      if (settled) handle.abort()
    })
  }

  private resumeStream: () => void = () => undefined

  private take(base: URL, d: { seq: number; arrivedAt: string; headers: Record<string, string>; body: string }): void {
    this.lastSeq = this.lastSeq === undefined ? d.seq : Math.max(this.lastSeq, d.seq)
    if (this.handling.has(d.seq)) return
    this.handling.add(d.seq)
    const arrived = Date.parse(d.arrivedAt)
    const job = this.opts
      .handle({ method: 'POST', headers: d.headers, body: Buffer.from(d.body, 'base64'), via: 'relay', arrivedAt: Number.isNaN(arrived) ? undefined : arrived })
      .then(
        (answer) => {
          if (answer.status >= 200 && answer.status < 300) this.ack(base, d.seq)
        },
        (err: Error) => {
          this.emit('status', { kind: 'warning', url: base.href, message: `delivery ${d.seq} was not handled: ${err.message} (not acked; the relay sends it again)` })
        },
      )
      .finally(() => {
        this.handling.delete(d.seq)
        this.work.delete(job)
        if (this.handling.size < this.maxInFlight) this.resumeStream()
      })
    this.work.add(job)
  }

  private ack(base: URL, seq: number): void {
    const list = this.toAck.get(base.href) ?? []
    list.push(seq)
    this.toAck.set(base.href, list)
    // One ack request at a time: what is acked meanwhile goes in the next one.
    if (!this.acking) this.acking = new Promise<void>((resolve) => setTimeout(resolve, ACK_DELAY_MS)).then(() => this.flushAcks())
  }

  /** Sends every pending ack; a failed ack is dropped (the relay sends those again, and the pipeline acks them as duplicates). */
  private async flushAcks(): Promise<void> {
    try {
      for (;;) {
        const next = [...this.toAck.entries()].find(([, seqs]) => seqs.length > 0)
        if (!next) return
        const [href, seqs] = next
        const batch = seqs.splice(0, ACK_BATCH)
        const url = new URL(RELAY_ACK_PATH.replace(/^\//, ''), href)
        try {
          const answer = await this.client.send({
            origin: url.origin,
            path: url.pathname,
            method: 'POST',
            headers: { authorization: `Bearer ${this.opts.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ seqs: batch }),
            timeoutMs: 10_000,
            maxBodyBytes: 4096,
            overflow: 'truncate',
          })
          if (answer.status !== 204 && answer.status !== 200) {
            this.emit('status', { kind: 'warning', url: href, message: `the relay refused an ack of ${batch.length} deliver${batch.length === 1 ? 'y' : 'ies'} (${answer.status}); it sends them again` })
          }
        } catch (err) {
          this.emit('status', { kind: 'warning', url: href, message: `an ack of ${batch.length} deliver${batch.length === 1 ? 'y' : 'ies'} failed (${(err as Error).message}); the relay sends them again` })
        }
      }
    } finally {
      this.acking = undefined
    }
  }
}

function parseFrame<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, data: string): T | undefined {
  try {
    const r = schema.safeParse(JSON.parse(data))
    return r.success ? r.data : undefined
  } catch {
    return undefined
  }
}

function errorMessage(body: string): string | undefined {
  try {
    const m = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message
    return typeof m === 'string' ? m : undefined
  } catch {
    return undefined
  }
}
