/**
 * One HTTP exchange over a single keep-alive agent: connection reuse across pages and retries,
 * a timeout that covers connect + headers + body, and transport failures sorted into the
 * reasons the retry policy needs. No retries, no parsing here.
 *
 * Node's own http/https, not the undici package: loading undici costs ~75 ms, about three times
 * Node's whole start-up, on every command that makes a request, and one agent with keep-alive
 * gives the same connection reuse. The modules are taken with process.getBuiltinModule: an ESM
 * `import 'node:http'` builds the module namespace, whose WebSocket/fetch getters load Node's
 * bundled undici (~35 ms) even though nothing here uses them.
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http'
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
const NOT_TRANSPORT = new Set([
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
  'ERR_INVALID_URL',
  'UND_ERR_NOT_SUPPORTED',
])

function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> }
  if (typeof e?.code === 'string') return e.code
  if (typeof e?.cause?.code === 'string') return e.cause.code
  // Happy-eyeballs connects fail with an AggregateError of the per-address errors.
  const inner = e?.errors?.find((x) => typeof x?.code === 'string')
  return inner?.code as string | undefined
}

type HttpModule = typeof import('node:http')

export class HttpTransport {
  private readonly http: HttpModule
  private readonly agent: Agent
  private readonly origin: URL
  private readonly prefix: string
  private closed = false

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    const url = new URL(baseUrl)
    this.origin = new URL(url.origin)
    this.prefix = url.pathname.replace(/\/+$/, '')
    this.http = (url.protocol === 'https:' ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http')) as HttpModule
    // Idle keep-alive sockets are unref'd by the agent, so they never hold the process open.
    this.agent = new this.http.Agent({ keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16 })
  }

  get host(): string {
    return this.origin.host
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    let timedOut = false
    let request: ClientRequest | undefined
    const timer = setTimeout(() => {
      timedOut = true
      request?.destroy(new Error(`timed out after ${this.timeoutMs} ms`))
    }, this.timeoutMs)
    try {
      return await new Promise<HttpResponse>((resolve, reject) => {
        const headers: Record<string, string | number> = { ...req.headers }
        if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body)
        request = this.http.request(
          {
            protocol: this.origin.protocol,
            hostname: this.origin.hostname.replace(/^\[|\]$/g, ''),
            port: this.origin.port || undefined,
            path: this.prefix + req.path,
            method: req.method,
            headers,
            agent: this.agent,
          },
          (res: IncomingMessage) => {
            const chunks: Buffer[] = []
            res.on('data', (chunk: Buffer) => chunks.push(chunk))
            res.on('error', reject)
            // A connection cut mid-body ends the message without 'end': that is a reset, not an answer.
            res.on('close', () => {
              if (!res.complete) reject(Object.assign(new Error('the connection closed before the whole answer came'), { code: 'ECONNRESET' }))
            })
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
          },
        )
        request.on('error', reject)
        request.end(req.body)
      })
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
    this.agent.destroy()
  }
}
