/**
 * Forwarding a delivery to the merchant's local app: the raw bytes, the original content-type
 * and every X-SVC-* header, a hard deadline (10 s by default, as the service's own timeout),
 * and no redirects followed (spec 6.4.3: a 3xx is a failure). `localhost` reaches an app bound
 * to IPv4 or IPv6 alone: 127.0.0.1 is tried first, then ::1, and the one that answered is
 * remembered.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { performance } from 'node:perf_hooks'
import { LIMITS } from '../contract/limits.js'
import { UsageError } from '../errors.js'

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
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'EAFNOSUPPORT', 'ENETUNREACH', 'EHOSTUNREACH'])

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void

function pinnedLookup(address: string) {
  const family = address.includes(':') ? 6 : 4
  return (_host: string, opts: { all?: boolean } | undefined, cb: LookupCallback) => {
    if (opts?.all) cb(null, [{ address, family }])
    else cb(null, address, family)
  }
}

interface Attempt {
  status?: number
  snippet?: string
  error?: NodeJS.ErrnoException
  timedOut?: boolean
}

export class Forwarder {
  readonly timeoutMs: number
  private readonly monotonic: () => number
  /** The loopback address that last answered for a `localhost` target. */
  private localhostPreferred?: string

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
      const refused = last.error?.code !== undefined && CONNECT_ERRORS.has(last.error.code)
      if (!refused) {
        if (address && last.status !== undefined) this.localhostPreferred = address
        break
      }
    }
    const latencyMs = Math.round(this.monotonic() - started)
    if (last.timedOut) return { ok: false, failure: 'timeout', latencyMs, message: `the app did not answer within ${this.timeoutMs / 1000} s` }
    if (last.status === undefined) {
      const code = last.error?.code
      const unreachable = code !== undefined && CONNECT_ERRORS.has(code)
      return {
        ok: false,
        failure: unreachable ? 'unreachable' : 'error',
        latencyMs,
        message: unreachable ? `nothing is listening at ${url.host} (${code})` : (last.error?.message ?? 'the request to the app failed'),
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

  private attempt(url: URL, address: string | undefined, body: Uint8Array, headers: Record<string, string>, deadline: number): Promise<Attempt> {
    return new Promise((resolve) => {
      const remaining = Math.max(1, deadline - Date.now())
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest
      let settled = false
      const done = (a: Attempt) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(a)
      }
      const req = send(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          // Pin `localhost` to one loopback address per attempt (the Host header stays as given).
          ...(address ? { lookup: pinnedLookup(address) } : {}),
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...headers, 'content-length': String(body.byteLength), connection: 'close' },
        },
        (res) => {
          const chunks: Buffer[] = []
          let size = 0
          res.on('data', (c: Buffer) => {
            if (size < SNIPPET_BYTES) chunks.push(c)
            size += c.length
          })
          res.on('end', () => done({ status: res.statusCode, snippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8') }))
          res.on('error', () => done({ status: res.statusCode }))
        },
      )
      const timer = setTimeout(() => {
        done({ timedOut: true })
        req.destroy()
      }, remaining)
      req.on('error', (error: NodeJS.ErrnoException) => done({ error }))
      req.end(body)
    })
  }
}
