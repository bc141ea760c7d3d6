/**
 * Guards for the HTTP servers svc runs on a user's machine (the sandbox and the webhook
 * listener), which answer whatever reaches their port: deadlines so that a slow-loris client
 * cannot hold connections open, and a spec-shaped error (spec 2.9) for requests so broken that
 * node:http refuses them before any handler runs (bad framing, duplicated Content-Length,
 * oversized headers, a request that never finishes arriving) — node's default is a bare
 * status line with no body.
 */
import type { Server, ServerOptions } from 'node:http'
import type { Duplex } from 'node:stream'

export interface ServerTimeouts {
  /** The whole request head must arrive within this. */
  headersMs: number
  /** The whole request, head and body, must arrive within this. */
  requestMs: number
  /** How often node:http checks the two deadlines above (its default is every 30 s). */
  checkEveryMs: number
}

export const SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 10_000, requestMs: 60_000, checkEveryMs: 1_000 }

export function guardedServerOptions(overrides: Partial<ServerTimeouts> = {}): ServerOptions {
  const t = { ...SERVER_TIMEOUTS, ...overrides }
  return { headersTimeout: t.headersMs, requestTimeout: Math.max(t.requestMs, t.headersMs), connectionsCheckingInterval: t.checkEveryMs }
}

const REFUSALS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'the request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'the request did not arrive in time' },
}

/** How long a refused client has to read its answer before its socket is destroyed. */
export const CLIENT_ERROR_GRACE_MS = 1_000

/**
 * Answers requests that node:http could not parse with a JSON error body, then closes the
 * connection. node:http's servers are half-open: `end()` alone sends the answer and a FIN but keeps
 * the descriptor until the client closes its side, which a slow-loris client never does (1000 of
 * them held 1000 descriptors). So the socket is destroyed `graceMs` after the answer is written.
 */
export function answerClientErrors(server: Server, requestId: () => string, opts: { graceMs?: number } = {}): void {
  const graceMs = opts.graceMs ?? CLIENT_ERROR_GRACE_MS
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const refusal = REFUSALS[err.code ?? ''] ?? { status: 400, reason: 'Bad Request', message: `the request is not valid HTTP/1.1 (${err.code ?? 'parse error'})` }
    const id = requestId()
    const body = JSON.stringify({ error: { code: 'invalid_request', message: refusal.message, requestId: id } })
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${id}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
    )
    // Timed from now, not from the flush: a client that does not read would hold it back too.
    const cut = setTimeout(() => socket.destroy(), graceMs)
    cut.unref()
    socket.once('close', () => clearTimeout(cut))
  })
}
