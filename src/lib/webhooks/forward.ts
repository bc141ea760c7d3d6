/**
 * Forwarding a delivery to the merchant's local app: the raw bytes, the original content-type
 * and every X-SVC-* header, a hard deadline (10 s by default, as the service's own timeout),
 * and no redirects followed (spec 6.4.3: a 3xx is a failure). `localhost` reaches an app bound
 * to IPv4 or IPv6 alone: 127.0.0.1 is tried first, then ::1, and the one that answered is
 * remembered. Connections to the app are kept alive (one outbound client per forwarder, made on
 * the first send so that it costs nothing at start-up): a new TCP connection per delivery was a
 * large part of the listener's cost under load. The app's answer is read whole, its start kept.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { performance } from 'node:perf_hooks'
import { LIMITS } from '../contract/limits.js'
import { UsageError } from '../errors.js'
import { OutboundClient, OutboundError } from '../net/outbound.js'

/** `localhost:3000` → `http://localhost:3000/`; a path is kept; other schemes are refused. */
export function parseForwardUrl(input: string, field = 'forward'): URL {
  const text = input.trim()
  if (!text) throw new UsageError('The forward URL is empty.', { field, hint: 'Pass the address of your app, e.g. --forward localhost:3000/webhooks.' })
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text.replace(/^\/\//, '')}`
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new UsageError(`"${input}" is not a URL.`, { field, hint: 'Use host:port[/path], e.g. localhost:3000/webhooks.' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`The forward URL must be http or https, not ${url.protocol.replace(':', '')}.`, { field })
  }
  if (url.username || url.password) throw new UsageError('The forward URL must not carry credentials.', { field })
  return url
}

/** The headers a forwarded delivery keeps: content-type and every X-SVC-* header. */
export function forwardedHeaders(incoming: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase()
    if (value === undefined || (lower !== 'content-type' && !lower.startsWith('x-svc-'))) continue
    out[lower] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

export type ForwardFailure = 'unreachable' | 'timeout' | 'bad_status' | 'error'

export interface ForwardResult {
  ok: boolean
  /** The app's HTTP status, when it answered. */
  status?: number
  latencyMs: number
  failure?: ForwardFailure
  message?: string
  /** The start of the app's answer (for the details view and the log). */
  responseSnippet?: string
}

export interface ForwarderOptions {
  timeoutMs?: number
  /** Monotonic milliseconds, for latency (injected in tests). */
  monotonic?: () => number
}

const SNIPPET_BYTES = 2048

interface Attempt {
  status?: number
  snippet?: string
  error?: NodeJS.ErrnoException
  timedOut?: boolean
  /** The connection was never made (refused, no route): the next loopback address may answer. */
  notConnected?: boolean
}

export class Forwarder {
  readonly timeoutMs: number
  private readonly monotonic: () => number
  /** The loopback address that last answered for a `localhost` target. */
  private localhostPreferred?: string
  private outbound?: OutboundClient

  constructor(opts: ForwarderOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? LIMITS.webhookTimeoutMs
    this.monotonic = opts.monotonic ?? (() => performance.now())
  }

  async send(url: URL, body: Uint8Array, headers: Record<string, string>): Promise<ForwardResult> {
    const started = this.monotonic()
    const deadline = Date.now() + this.timeoutMs
    let last: Attempt = {}
    for (const address of this.candidates(url)) {
      last = await this.attempt(url, address, body, headers, deadline)
      if (!last.notConnected) {
        if (address && last.status !== undefined) this.localhostPreferred = address
        break
      }
    }
    const latencyMs = Math.round(this.monotonic() - started)
    if (last.timedOut) return { ok: false, failure: 'timeout', latencyMs, message: `the app did not answer within ${this.timeoutMs / 1000} s` }
    if (last.status === undefined) {
      return {
        ok: false,
        failure: last.notConnected ? 'unreachable' : 'error',
        latencyMs,
        message: last.notConnected ? `nothing is listening at ${url.host} (${last.error?.code})` : (last.error?.message ?? 'the request to the app failed'),
      }
    }
    const ok = last.status >= 200 && last.status < 300
    return {
      ok,
      status: last.status,
      latencyMs,
      responseSnippet: last.snippet,
      ...(ok ? {} : { failure: 'bad_status' as const, message: `the app answered ${last.status}${last.status >= 300 && last.status < 400 ? ' (a redirect is not a success)' : ''}` }),
    }
  }

  /** Addresses to try: both loopbacks for `localhost`, else the host itself (undefined). */
  private candidates(url: URL): Array<string | undefined> {
    if (url.hostname !== 'localhost') return [undefined]
    const both = ['127.0.0.1', '::1']
    return this.localhostPreferred === '::1' ? ['::1', '127.0.0.1'] : both
  }

  /** Lets go of the kept-alive connections to the app. */
  async close(): Promise<void> {
    const outbound = this.outbound
    this.outbound = undefined
    await outbound?.close()
  }

  private client(): OutboundClient {
    this.outbound ??= new OutboundClient({ keepAliveTimeoutMs: 4_000 })
    return this.outbound
  }

  /** One request; the whole answer is read (so the connection is reused), its start kept. */
  private async attempt(url: URL, address: string | undefined, body: Uint8Array, headers: Record<string, string>, deadline: number): Promise<Attempt> {
    // `localhost` is pinned to one loopback address per attempt; the Host header stays as given.
    const origin = address ? `${url.protocol}//${address.includes(':') ? `[${address}]` : address}${url.port ? `:${url.port}` : ''}` : url.origin
    try {
      const answer = await this.client().send({
        origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: address ? { ...headers, host: url.host } : headers,
        body,
        timeoutMs: Math.max(1, deadline - Date.now()),
        maxBodyBytes: SNIPPET_BYTES,
        overflow: 'truncate',
      })
      return { status: answer.status, snippet: answer.body.toString('utf8') }
    } catch (err) {
      if (!(err instanceof OutboundError)) return { error: err as NodeJS.ErrnoException }
      if (err.reason === 'timeout') return { timedOut: true }
      if (err.status !== undefined) return { status: err.status }
      const error = Object.assign(new Error(err.message), { code: err.code }) as NodeJS.ErrnoException
      return { error, notConnected: err.reason === 'refused' || err.reason === 'unreachable' }
    }
  }
}
