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
import { EVENT_TYPES } from '../contract/event-types.js'
import { LIMITS } from '../contract/limits.js'
import { UsageError } from '../errors.js'
import { OutboundClient, OutboundError } from '../net/outbound.js'
import { withHttpScheme } from '../net/url.js'
import { matchesEventFilter, parseEventFilter } from './event-filter.js'

/** `localhost:3000` → `http://localhost:3000/`; a path is kept; other schemes are refused. */
export function parseForwardUrl(input: string, field = 'forward', prefix = ''): URL {
  const text = input.trim()
  if (!text) throw new UsageError(`${prefix}The forward URL is empty.`, { field, hint: 'Pass the address of your app, e.g. --forward localhost:3000/webhooks.' })
  const withScheme = withHttpScheme(text)
  let url: URL
  try {
    url = new URL(withScheme)
  } catch {
    throw new UsageError(`${prefix}"${input}" is not a URL.`, { field, hint: 'Use host:port[/path], e.g. localhost:3000/webhooks.' })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${prefix}The forward URL must be http or https, not ${url.protocol.replace(':', '')}.`, { field })
  }
  if (url.username || url.password) throw new UsageError(`${prefix}The forward URL must not carry credentials.`, { field })
  if (!validHost(url.hostname)) {
    throw new UsageError(`${prefix}"${input}" does not name a valid host (${url.hostname || 'none'}).`, {
      field,
      hint: 'Use host:port[/path], e.g. localhost:3000/webhooks; a host is letters, digits, - and . (or an IP address).',
    })
  }
  return url
}

/** A host name (labels of letters, digits, `-` and `_`), an IPv4 address or a bracketed IPv6 one, as the URL parser gives them. */
function validHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return hostname.endsWith(']')
  const labels = hostname.replace(/\.$/, '').split('.')
  return hostname.length <= 253 && labels.every((l) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(l))
}

/**
 * Where the listener sends an event: a pattern (exact types or `prefix.*`, comma-separated, as
 * `--events`) and a URL; the target with no pattern is the default. Resolved once at start.
 */
export interface ForwardTarget {
  /** `null` for the default target (a bare `--forward URL`). */
  pattern: string | null
  url: URL
}

/** How NDJSON lines and the view name a target: the URL, or `pattern=URL`. */
export function targetName(t: ForwardTarget): string {
  return t.pattern === null ? t.url.href : `${t.pattern}=${t.url.href}`
}

/**
 * A target as the event log keeps it on each delivery (and `webhooks events --json` and the
 * NDJSON lines show it as `target`/`route`): the URL, and the pattern that chose it (absent for
 * the default target). Written by loggedTarget, read back by targetOfLogged.
 */
export interface LoggedTarget {
  forwardUrl?: string
  route?: string
}

/** The event log's fields for a delivery sent (or meant) to this target; both absent for none. */
export function loggedTarget(t: ForwardTarget | undefined): LoggedTarget {
  return { forwardUrl: t?.url.href, route: t?.pattern ?? undefined }
}

/** The target a logged delivery went to (or would have); undefined when it had none. */
export function targetOfLogged(r: LoggedTarget): ForwardTarget | undefined {
  return r.forwardUrl === undefined ? undefined : { pattern: r.route ?? null, url: new URL(r.forwardUrl) }
}

/** The default target (a bare URL), if any. */
export function defaultTarget(targets: readonly ForwardTarget[]): ForwardTarget | undefined {
  return targets.find((t) => t.pattern === null)
}

/**
 * The target of an event of this type: the first pattern that matches it, in flag order, else
 * the default target; undefined when none (the event is acknowledged and not forwarded).
 */
export function targetFor(targets: readonly ForwardTarget[], type: string | undefined): ForwardTarget | undefined {
  return targets.find((t) => t.pattern !== null && matchesEventFilter(type, t.pattern.split(','))) ?? defaultTarget(targets)
}

/** An event type or `prefix.*` given where a URL was expected (`--forward 'charge.*'`). */
function looksLikePattern(text: string): boolean {
  return text.endsWith('*') || (EVENT_TYPES as readonly string[]).includes(text)
}

/** `charge.settled=…`, `charge.*=…`, `a,b=…`: what may stand before the `=` of a routed target. */
const ROUTE = /^([^:/?#=]+)=(.*)$/s

/**
 * Parses the repeated `--forward [PATTERN=]URL`: at most one bare URL (the default target), each
 * pattern checked against the spec's event types and given once. Anything wrong is a usage
 * error (exit 2) naming --forward.
 */
export function parseForwardTargets(values: readonly string[]): ForwardTarget[] {
  if (values.length === 0) throw new UsageError('--forward: give at least one target.', { field: 'forward', hint: 'e.g. --forward localhost:3000/webhooks' })
  const targets: ForwardTarget[] = []
  const seen = new Set<string>()
  for (const value of values) {
    const route = ROUTE.exec(value.trim())
    if (value.trim().startsWith('=')) {
      throw new UsageError(`--forward: "${value.trim()}" has an empty pattern before the =.`, {
        field: 'forward',
        hint: "Route events by type with --forward 'charge.*=localhost:4000/charges', or give the bare URL alone.",
      })
    }
    if (!route && looksLikePattern(value.trim())) {
      throw new UsageError(`--forward: "${value.trim()}" is a pattern with no URL.`, { field: 'forward', hint: `Route it with --forward '${value.trim()}=localhost:4000/webhooks'.` })
    }
    let pattern: string | null = null
    if (route) pattern = parseEventFilter(route[1]!, 'forward').join(',')
    const url = parseForwardUrl(route ? route[2]! : value, 'forward', '--forward: ')
    const key = pattern ?? ''
    if (seen.has(key)) {
      throw new UsageError(pattern === null ? '--forward: more than one bare URL; only one default target can take the events no pattern matches.' : `--forward: the pattern ${pattern} is given twice.`, {
        field: 'forward',
        hint: "Route events by type with --forward 'charge.*=localhost:4000/charges'; one bare URL takes the rest.",
      })
    }
    seen.add(key)
    targets.push({ pattern, url })
  }
  return targets
}

/** A header field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** Headers the forward itself sets, or that frame the request: never taken from --header. */
const FRAMING = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'host', 'keep-alive', 'upgrade', 'te', 'trailer'])
/** Hop-by-hop headers undici refuses to send (Expect) or that speak to a proxy, not the app: every forward would fail or mean nothing. */
const HOP_BY_HOP = new Set(['expect', 'proxy-connection'])
/** What an HTTP header value may hold, as undici checks it before sending: tab, visible ASCII, space, and Latin-1's upper half. */
const NOT_IN_VALUE = /[^\t\x20-\x7e\x80-\xff]/u

/** The first character of `value` no header can carry, said by its code point (never the value: it is often a secret). */
function unsendable(value: string): string | undefined {
  const bad = NOT_IN_VALUE.exec(value)?.[0]
  if (bad === undefined) return undefined
  const point = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
  return bad.codePointAt(0)! < 0x80 ? `a control character (${point})` : `a character outside Latin-1 (${point})`
}

/**
 * Parses the repeated `--header 'Name: value'` added to every forwarded request. A name that is
 * not a token, a CR, LF or NUL anywhere, content-type, an X-SVC-* header (the delivery's own), a
 * framing or hop-by-hop header (Expect), or a value no HTTP header can carry (another control
 * character, past Latin-1, U+2028) is a usage error (exit 2): each would fail every forward. The
 * value is never echoed: it is often a secret.
 */
export function parseForwardHeaders(values: readonly string[] | undefined): Record<string, string> {
  // A Map, so that a name like __proto__ or constructor is a name like any other.
  const out = new Map<string, string>()
  for (const raw of values ?? []) {
    const colon = raw.indexOf(':')
    const name = (colon < 0 ? raw : raw.slice(0, colon)).trim()
    const shown = /[\r\n\0]/.test(name) || name.length > 64 ? 'a header' : `"${name}"`
    const fail = (why: string) => new UsageError(`--header: ${shown} ${why}`, { field: 'header', hint: "Use --header 'Name: value', e.g. --header 'Authorization: Bearer dev'." })
    if (colon < 0) throw fail('has no ":" between name and value.')
    if (!TOKEN.test(name)) throw fail('is not a valid header name.')
    if (/[\r\n\0]/.test(raw)) throw fail('contains a line break or NUL.')
    const lower = name.toLowerCase()
    if (lower === 'content-type' || lower.startsWith('x-svc-')) throw fail("cannot be overridden: the delivery's content-type and X-SVC-* headers are forwarded as they came.")
    if (FRAMING.has(lower)) throw fail('is set by the forward itself.')
    if (HOP_BY_HOP.has(lower)) throw fail('is a hop-by-hop header, for the next hop only: it cannot be forwarded to your app.')
    const bad = unsendable(raw.slice(colon + 1).trim())
    if (bad) throw fail(`has ${bad} in its value, which no HTTP header can carry: every forward would fail.`)
    if (out.has(lower)) throw fail('is given twice.')
    out.set(lower, raw.slice(colon + 1).trim())
  }
  return Object.fromEntries(out)
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
  /** Added to every request (`--header`), under the delivery's own headers. */
  headers?: Record<string, string>
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
  private readonly extraHeaders: Record<string, string>
  private readonly monotonic: () => number
  /** The loopback address that last answered for a `localhost` target. */
  private localhostPreferred?: string
  private outbound?: OutboundClient

  constructor(opts: ForwarderOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? LIMITS.webhookTimeoutMs
    this.extraHeaders = opts.headers ?? {}
    this.monotonic = opts.monotonic ?? (() => performance.now())
  }

  async send(url: URL, body: Uint8Array, delivery: Record<string, string>): Promise<ForwardResult> {
    const headers = { ...this.extraHeaders, ...delivery }
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
