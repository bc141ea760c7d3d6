/**
 * Every HTTP request svc sends: the API client, the forwarder, the sandbox's webhook sender, the
 * sandbox panel client and `webhooks check`. One keep-alive undici Agent per caller (the bundle
 * takes the Agent's own module rather than undici's index: packaging/patches.js); each
 * request goes through the Agent's dispatch with a plain handler, so no body stream or promise
 * is made per request. Every exchange has a deadline from dispatch to its last byte, never
 * follows a redirect (a 3xx comes back as an answer), and reads at most `maxBodyBytes` of the
 * answer: past that it fails, or keeps the start and discards or cuts the rest, as asked.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { Agent, type Dispatcher } from 'undici'

export interface OutboundOptions {
  /** Connections per origin (undici's default: unlimited). */
  connections?: number
  pipelining?: number
  keepAliveTimeoutMs?: number
  connectTimeoutMs?: number
}

/** What to do with an answer longer than `maxBodyBytes`. */
export type Overflow =
  /** Reject with an OutboundError of kind `too_large` and cut the connection. */
  | 'fail'
  /** Keep the first `maxBodyBytes`, read and drop the rest (the connection stays reusable). */
  | 'truncate'
  /** Keep the first `maxBodyBytes` and cut the connection there. */
  | 'cut'

export interface OutboundRequest {
  origin: string
  /** Path and query, starting with `/`. */
  path: string
  method: string
  headers?: Record<string, string>
  body?: string | Uint8Array
  /** Deadline of the whole exchange, from dispatch to the answer's last byte. */
  timeoutMs: number
  maxBodyBytes: number
  overflow: Overflow
}

export interface OutboundAnswer {
  status: number
  headers: IncomingHttpHeaders
  /** At most `maxBodyBytes`. */
  body: Buffer
  /** The bytes the answer had, as far as they were read. */
  size: number
  truncated: boolean
}

export type OutboundFailure = 'timeout' | 'too_large' | 'transport'

/**
 * Why no complete answer came, sorted once here for every caller (the API client's retries,
 * `webhooks check`, the forwarder, the sandbox's webhook sender), each of which words it its own way.
 */
export type OutboundReason =
  /** The deadline passed (ours, or undici's head/body deadline). */
  | 'timeout'
  /** The answer was over the read cap. */
  | 'too_large'
  /** Nothing listens there: ECONNREFUSED. */
  | 'refused'
  /** No way there: no route, no such local address, no such address family. */
  | 'unreachable'
  /** The connection was not made in time. */
  | 'connect_timeout'
  /** The host name does not resolve. */
  | 'dns'
  /** The TLS handshake failed (certificate, protocol). */
  | 'tls'
  /** The connection was made, then closed or reset before the answer ended. */
  | 'reset'
  /** Not the network: a bad argument or a bug (an error with no errno or undici code). */
  | 'invalid'
  | 'other'

const REASON_OF_CODE: Record<string, OutboundReason> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  EAFNOSUPPORT: 'unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect_timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_INVALID_ARG: 'invalid',
  ERR_INVALID_ARG_TYPE: 'invalid',
  ERR_INVALID_CHAR: 'invalid',
  ERR_INVALID_HTTP_TOKEN: 'invalid',
  ERR_INVALID_URL: 'invalid',
  UND_ERR_NOT_SUPPORTED: 'invalid',
}

/** The reason of a failure with this errno or undici code (undefined: no code, not a network error). */
export function reasonOfCode(code: string | undefined): OutboundReason {
  if (code === undefined) return 'invalid'
  const known = REASON_OF_CODE[code]
  if (known) return known
  if (/CERT|TLS|SSL|SELF_SIGNED/.test(code)) return 'tls'
  return 'other'
}

/** The reason of any failure of a send: an OutboundError's own, or sorted by the code it carries. */
export function reasonOf(err: unknown): OutboundReason {
  if (err instanceof OutboundError) return err.reason
  if ((err as { name?: unknown })?.name === 'TimeoutError') return 'timeout'
  return reasonOfCode(errorCodeOf(err))
}

/** No complete answer: the deadline passed, the answer was over the cap, or the connection failed. */
export class OutboundError extends Error {
  readonly kind: OutboundFailure
  /** Why, sorted once (see OutboundReason). */
  readonly reason: OutboundReason
  /** errno or undici code of a transport failure, e.g. ECONNREFUSED, UND_ERR_SOCKET. */
  readonly code?: string
  /** The status, when the answer had started before the failure. */
  readonly status?: number
  constructor(kind: OutboundFailure, message: string, opts: { code?: string; status?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause })
    this.name = 'OutboundError'
    this.kind = kind
    this.reason = kind === 'transport' ? reasonOfCode(opts.code) : kind
    this.code = opts.code
    this.status = opts.status
  }
}

/**
 * The errno or undici code behind a failure, looking into causes and happy-eyeballs'
 * AggregateError. UND_ERR_SOCKET says only that the socket failed: the errno under it, when
 * there is one, says how (ECONNRESET, EPIPE), so it wins.
 */
export function errorCodeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] }
  const own = typeof e?.code === 'string' ? e.code : undefined
  if (own !== undefined && own !== 'UND_ERR_SOCKET') return own
  if (e?.cause && e.cause !== err) {
    const inner = errorCodeOf(e.cause)
    if (inner) return inner
  }
  if (Array.isArray(e?.errors)) for (const x of e.errors) if (errorCodeOf(x)) return errorCodeOf(x)
  return own
}

export interface StreamRequest {
  origin: string
  path: string
  method?: string
  headers?: Record<string, string>
  /** Deadline for the answer's head. */
  headTimeoutMs: number
}

export interface StreamHandlers {
  onHead(status: number, headers: IncomingHttpHeaders): void
  onData(chunk: Buffer): void
  /** The server ended the answer. */
  onEnd(): void
  onError(err: OutboundError): void
}

export interface StreamHandle {
  /** Cuts the stream; no handler is called after it. */
  abort(reason?: string): void
  /** Stops reading (TCP backpressure) until resume(). */
  pause(): void
  resume(): void
}

export class OutboundClient {
  private readonly agent: Dispatcher

  constructor(opts: OutboundOptions = {}) {
    this.agent = new Agent({
      keepAliveTimeout: opts.keepAliveTimeoutMs ?? 4_000,
      ...(opts.connections !== undefined ? { connections: opts.connections } : {}),
      ...(opts.pipelining !== undefined ? { pipelining: opts.pipelining } : {}),
      ...(opts.connectTimeoutMs !== undefined ? { connect: { timeout: opts.connectTimeoutMs } } : {}),
    })
  }

  send(req: OutboundRequest): Promise<OutboundAnswer> {
    return new Promise((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined
      let settled = false
      let status: number | undefined
      let headers: IncomingHttpHeaders = {}
      const chunks: Buffer[] = []
      let kept = 0
      let size = 0
      const answer = (truncated: boolean): OutboundAnswer => ({ status: status!, headers, body: Buffer.concat(chunks, kept), size, truncated })
      const settle = (outcome: OutboundAnswer | OutboundError) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        if (outcome instanceof OutboundError) reject(outcome)
        else resolve(outcome)
      }
      const timer = setTimeout(() => {
        const err = new OutboundError('timeout', `no complete answer within ${req.timeoutMs} ms`, { status })
        settle(err)
        controller?.abort(err)
      }, req.timeoutMs)
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c
          if (settled) c.abort(new Error('the deadline passed before the request was sent'))
        },
        onResponseStart(_c, statusCode, responseHeaders) {
          status = statusCode
          headers = responseHeaders
        },
        onResponseData(c, chunk) {
          if (settled) return
          size += chunk.length
          const room = req.maxBodyBytes - kept
          if (room > 0) {
            const part = chunk.length <= room ? chunk : chunk.subarray(0, room)
            chunks.push(part)
            kept += part.length
          }
          if (size <= req.maxBodyBytes) return
          if (req.overflow === 'truncate') return
          if (req.overflow === 'cut') settle(answer(true))
          else settle(new OutboundError('too_large', `the answer is larger than ${req.maxBodyBytes} bytes`, { status }))
          c.abort(new Error('answer over the read cap'))
        },
        onResponseEnd() {
          settle(answer(size > req.maxBodyBytes))
        },
        onResponseError(_c, err) {
          const code = errorCodeOf(err)
          settle(new OutboundError('transport', err.message || code || 'the connection failed', { code, status, cause: err }))
        },
      }
      try {
        this.agent.dispatch(
          {
            origin: req.origin,
            path: req.path,
            method: req.method as Dispatcher.HttpMethod,
            headers: req.headers,
            body: req.body,
            headersTimeout: req.timeoutMs,
            bodyTimeout: req.timeoutMs,
          },
          handler,
        )
      } catch (err) {
        const code = errorCodeOf(err)
        settle(new OutboundError('transport', err instanceof Error ? err.message : String(err), { code, cause: err }))
      }
    })
  }

  /**
   * A request whose answer is read as it comes, for as long as it lasts (a Server-Sent Events
   * stream): no body deadline (the caller decides when silence means a dead stream), only one
   * for the head. Exactly one of `onEnd`/`onError` is called, unless the caller aborted first.
   */
  stream(req: StreamRequest, on: StreamHandlers): StreamHandle {
    let controller: Dispatcher.DispatchController | undefined
    let done = false
    let pauseWanted = false
    const finish = (err?: OutboundError) => {
      if (done) return
      done = true
      if (err) on.onError(err)
      else on.onEnd()
    }
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c
        if (done) c.abort(new Error('aborted before the request was sent'))
      },
      onResponseStart(c, statusCode, headers) {
        if (!done) on.onHead(statusCode, headers)
        if (pauseWanted) c.pause()
      },
      onResponseData(_c, chunk) {
        if (!done) on.onData(chunk)
      },
      onResponseEnd() {
        finish()
      },
      onResponseError(_c, err) {
        const code = errorCodeOf(err)
        finish(new OutboundError('transport', err.message || code || 'the connection failed', { code, cause: err }))
      },
    }
    try {
      this.agent.dispatch(
        {
          origin: req.origin,
          path: req.path,
          method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
          headers: req.headers,
          headersTimeout: req.headTimeoutMs,
          bodyTimeout: 0,
        },
        handler,
      )
    } catch (err) {
      const code = errorCodeOf(err)
      queueMicrotask(() => finish(new OutboundError('transport', err instanceof Error ? err.message : String(err), { code, cause: err })))
    }
    return {
      abort(reason = 'aborted') {
        if (done) return
        done = true
        controller?.abort(new Error(reason))
      },
      pause() {
        pauseWanted = true
        controller?.pause()
      },
      resume() {
        pauseWanted = false
        controller?.resume()
      },
    }
  }

  /** Lets go of the kept-alive connections, after the requests in flight. */
  async close(): Promise<void> {
    await this.agent.close()
  }
}

/** Origin and path of a URL, parsed once per distinct URL (a sender posts to a few URLs many times). */
const targets = new Map<string, { origin: string; path: string }>()
export function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url)
  if (!target) {
    const u = new URL(url)
    target = { origin: u.origin, path: `${u.pathname}${u.search}` }
    if (targets.size >= 64) targets.clear()
    targets.set(url, target)
  }
  return target
}
