/**
 * Reading a request body with a cap, for svc's local servers (the listener and the sandbox): the
 * bytes up to the limit, or why not. A body declared too large (Content-Length) is never read,
 * so the server answers at once and closes the connection; one that grows past the limit while
 * read is drained to its end (so the client reads the answer), or, past `drainLimit`, cut.
 */
import type { IncomingMessage } from 'node:http'

/** The largest request body the listener and the sandbox accept: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024

export type CappedBody =
  | { ok: true; body: Buffer }
  /**
   * `declared`: Content-Length said more than the limit, nothing was read (answer with
   * `connection: close`). `read`: it grew past the limit and was drained to its end. `cut`: it
   * went past `drainLimit` and the connection was destroyed (no answer reaches the client).
   */
  | { ok: false; tooLarge: 'declared' | 'read' | 'cut' }

export interface CappedBodyOptions {
  /** Bytes kept at most; default MAX_BODY_BYTES. */
  limit?: number
  /** Past this many bytes the connection is destroyed instead of drained; default: never. */
  drainLimit?: number
}

/**
 * The body of `req`, read whole up to `limit`. Rejects when the request fails or the client
 * closes the connection before the body ended (code ECONNRESET).
 */
export function readCappedBody(req: IncomingMessage, opts: CappedBodyOptions = {}): Promise<CappedBody> {
  const limit = opts.limit ?? MAX_BODY_BYTES
  const drainLimit = opts.drainLimit ?? Number.POSITIVE_INFINITY
  if (Number(req.headers['content-length']) > limit) return Promise.resolve({ ok: false, tooLarge: 'declared' })
  // Listeners rather than `for await`: an async iterator per request cost more than the reading.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (err?: unknown, cut = false): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', done)
      req.off('close', onClose)
      if (err !== undefined) reject(err)
      else if (cut) resolve({ ok: false, tooLarge: 'cut' })
      else if (size > limit) resolve({ ok: false, tooLarge: 'read' })
      else resolve({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) })
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > drainLimit) {
        req.socket.destroy()
        done(undefined, true)
        return
      }
      if (size <= limit) chunks.push(chunk)
    }
    const onEnd = (): void => done()
    const onClose = (): void => {
      if (!req.complete) done(Object.assign(new Error('the client closed the connection before the body ended'), { code: 'ECONNRESET' }))
    }
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', done)
    req.once('close', onClose)
  })
}
