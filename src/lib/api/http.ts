/**
 * One API exchange over the shared outbound helper (net/outbound.ts): one keep-alive Agent for
 * every page and retry, a deadline over connect + headers + body, an answer capped at
 * MAX_ANSWER_BYTES, and transport failures sorted into the reasons the retry policy needs. No
 * retries, no parsing here.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { OutboundClient, OutboundError, type OutboundReason } from '../net/outbound.js'
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

/** How the API client's retry policy words the sorted reasons (net/outbound.ts sorts them). */
const API_REASON: Record<OutboundReason, TransportReason> = {
  refused: 'refused',
  dns: 'dns',
  reset: 'reset',
  timeout: 'timeout',
  connect_timeout: 'timeout',
  unreachable: 'other',
  tls: 'other',
  too_large: 'other',
  invalid: 'other',
  other: 'other',
}

/** The most of an API answer svc reads: a page of 100 charges is a small fraction of it. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024

/** The server's answer is over MAX_ANSWER_BYTES: read no further, and say so (exit 1). */
export class AnswerTooLargeError extends Error {
  constructor(readonly status: number | undefined) {
    super(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`)
    this.name = 'AnswerTooLargeError'
  }
}

export class HttpTransport {
  private readonly client: OutboundClient
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
    this.client = new OutboundClient({ keepAliveTimeoutMs: 10_000, connectTimeoutMs: timeoutMs })
  }

  get host(): string {
    return new URL(this.origin).host
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    try {
      const answer = await this.client.send({
        origin: this.origin,
        path: this.prefix + req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        timeoutMs: this.timeoutMs,
        maxBodyBytes: MAX_ANSWER_BYTES,
        overflow: 'fail',
      })
      return { status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') }
    } catch (err) {
      throw this.transportError(err)
    }
  }

  /** A failure without an HTTP answer, sorted for the retry policy; a bug or bad argument as it is. */
  private transportError(err: unknown): unknown {
    if (!(err instanceof OutboundError)) return err
    if (err.kind === 'too_large') return new AnswerTooLargeError(err.status)
    if (err.kind === 'timeout') return new TransportError('timeout', 'ETIMEDOUT', `timed out after ${this.timeoutMs} ms`, err)
    // Bytes that are not HTTP (another protocol on that port, a broken proxy): a network failure, exit 7.
    if ((err.cause as { name?: unknown } | undefined)?.name === 'HTTPParserError' || err.code?.startsWith('HPE_')) {
      return new TransportError('other', err.code ?? 'not_http', 'the answer was not HTTP (is another kind of server on that port?)', err.cause ?? err)
    }
    // A bad argument or a bug is not the network: never retried, shown as it is.
    if (err.reason === 'invalid' || err.code === undefined) return err.cause ?? err
    return new TransportError(API_REASON[err.reason], err.code, err.message || err.code, err.cause ?? err)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.client.close()
  }
}
