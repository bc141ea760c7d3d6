/**
 * One HTTP exchange over a single keep-alive undici Agent: connection reuse across pages and
 * retries, a timeout that covers connect + headers + body, and transport failures sorted into
 * the reasons the retry policy needs. No retries, no parsing here.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { Agent } from 'undici'
import type { TransportReason } from './retry.js'

export interface HttpRequest {
  method: string
  /** Path and query, starting with `/` (relative to the base URL's own path, if any). */
  path: string
  headers: Record<string, string>
  body?: string
}

export interface HttpResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** The request got no HTTP answer. */
export class TransportError extends Error {
  readonly reason: TransportReason
  /** errno or undici code, e.g. ECONNREFUSED, UND_ERR_SOCKET. */
  readonly code: string
  constructor(reason: TransportReason, code: string, message: string, cause?: unknown) {
    super(message, { cause })
    this.name = 'TransportError'
    this.reason = reason
    this.code = code
  }
}

const REASON_OF_CODE: Record<string, TransportReason> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
}

/** Errors that are a bug or a bad argument, not the network: never retried. */
const NOT_TRANSPORT = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'UND_ERR_NOT_SUPPORTED'])

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> }
  if (typeof e?.code === 'string') return e.code
  if (typeof e?.cause?.code === 'string') return e.cause.code
  // Happy-eyeballs connects fail with an AggregateError of the per-address errors.
  const inner = e?.errors?.find((x) => typeof x?.code === 'string')
  return inner?.code as string | undefined
}

export class HttpTransport {
  private readonly agent: Agent
  private readonly origin: string
  private readonly prefix: string
  private closed = false

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(baseUrl)
    this.origin = url.origin
    this.prefix = url.pathname.replace(/\/+$/, '')
    this.agent = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: timeoutMs } })
  }

  get host(): string {
    return new URL(this.origin).host
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, this.timeoutMs)
    try {
      const res = await this.agent.request({
        origin: this.origin,
        path: this.prefix + req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: controller.signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      })
      const body = await res.body.text()
      return { status: res.statusCode, headers: res.headers, body }
    } catch (err) {
      if (timedOut) throw new TransportError('timeout', 'ETIMEDOUT', `timed out after ${this.timeoutMs} ms`, err)
      const code = errorCode(err)
      if (code === undefined || NOT_TRANSPORT.has(code)) throw err
      const message = err instanceof Error && err.message ? err.message : code
      throw new TransportError(REASON_OF_CODE[code] ?? 'other', code, message, err)
    } finally {
      clearTimeout(timer)
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.agent.close()
  }
}
