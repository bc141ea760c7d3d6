/**
 * One HTTP exchange over a single keep-alive undici Agent: connection reuse across pages and
 * retries, a timeout that covers connect + headers + body, and transport failures sorted into
 * the reasons the retry policy needs. No retries, no parsing here. The answer is gathered
 * through the Agent's dispatch handler (no stream per answer; see undici-agent.ts).
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { Dispatcher } from 'undici'
import type { TransportReason } from './retry.js'
import { createAgent, type LeanAgent } from './undici-agent.js'

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
  private readonly agent: LeanAgent
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
    this.agent = createAgent({ keepAliveTimeout: 10_000, connect: { timeout: timeoutMs } })
  }

  get host(): string {
    return new URL(this.origin).host
  }

  send(req: HttpRequest): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      let controller: Dispatcher.DispatchController | undefined
      let settled = false
      let status = 0
      let headers: IncomingHttpHeaders = {}
      const chunks: Buffer[] = []
      const fail = (err: unknown) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        reject(this.transportError(err, false))
      }
      const timer = setTimeout(() => {
        if (settled) return
        settled = true
        const err = new Error(`timed out after ${this.timeoutMs} ms`)
        controller?.abort(err)
        reject(this.transportError(err, true))
      }, this.timeoutMs)
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c
          if (settled) c.abort(new Error('timed out'))
        },
        onResponseStart(_c, statusCode, responseHeaders) {
          status = statusCode
          headers = responseHeaders
        },
        onResponseData(_c, chunk) {
          chunks.push(chunk)
        },
        onResponseEnd() {
          if (settled) return
          settled = true
          clearTimeout(timer)
          resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') })
        },
        onResponseError(_c, err) {
          fail(err)
        },
      }
      try {
        this.agent.dispatch(
          {
            origin: this.origin,
            path: this.prefix + req.path,
            method: req.method as Dispatcher.HttpMethod,
            headers: req.headers,
            body: req.body,
            headersTimeout: this.timeoutMs,
            bodyTimeout: this.timeoutMs,
          },
          handler,
        )
      } catch (err) {
        fail(err)
      }
    })
  }

  /** A failure without an HTTP answer, sorted for the retry policy; a bug or bad argument as it is. */
  private transportError(err: unknown, timedOut: boolean): unknown {
    if (timedOut) return new TransportError('timeout', 'ETIMEDOUT', `timed out after ${this.timeoutMs} ms`, err)
    const code = errorCode(err)
    if (code === undefined || NOT_TRANSPORT.has(code)) return err
    const message = err instanceof Error && err.message ? err.message : code
    return new TransportError(REASON_OF_CODE[code] ?? 'other', code, message, err)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.agent.close()
  }
}
