/**
 * A tiny relay built from the wire alone (src/lib/contract/relay-stream.ts), for the listener's
 * relay-source tests: each `GET /v1/stream` with the right bearer token becomes a scriptable
 * stream (send ready, deliveries, gaps, closing frames, pings; drop it), every `POST /v1/ack`
 * is recorded. Loopback, port 0. Not the relay server (src/lib/relay/): the listener's tests
 * check the listener against the contract, whatever the server does.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RELAY_ACK_PATH, RELAY_STREAM_PATH, type RelayClosing, type RelayDelivery, type RelayGap, type RelayReady } from '../../src/lib/contract/relay-stream.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'

export interface FakeStream {
  /** The request's headers (authorization, last-event-id). */
  headers: IncomingMessage['headers']
  ready(over?: Partial<RelayReady>): void
  deliver(d: RelayDelivery): void
  gap(g: RelayGap): void
  closing(c: RelayClosing): void
  ping(): void
  /** Writes raw bytes (a broken frame). */
  raw(text: string): void
  /** Cuts the connection (a relay killed, a proxy timing out). */
  drop(): void
  /** Ends the stream as a server shutting down would. */
  end(): void
  closed: Promise<void>
}

export interface FakeRelay {
  url: string
  /** Every acked seq, in the order the acks came. */
  acks: number[]
  /** Every ack request's body. */
  ackBodies: number[][]
  /** Streams opened so far. */
  streams: FakeStream[]
  /** The next stream to open (or the last one opened and not yet taken). */
  nextStream(): Promise<FakeStream>
  waitAcks(n: number): Promise<number[]>
  /** Refuse the next stream requests with this status and body (e.g. 401, 503). */
  refuse(status: number, body?: unknown, headers?: Record<string, string>): void
  accept(): void
  close(): Promise<void>
}

export async function startFakeRelay(opts: { token: string }): Promise<FakeRelay> {
  const streams: FakeStream[] = []
  const acks: number[] = []
  const ackBodies: number[][] = []
  let taken = 0
  let waiters: Array<() => void> = []
  let refusal: { status: number; body?: unknown; headers?: Record<string, string> } | undefined
  const wake = () => {
    const w = waiters
    waiters = []
    for (const f of w) f()
  }
  const authorized = (req: IncomingMessage) => req.headers.authorization === `Bearer ${opts.token}`
  const unauthorized = (res: ServerResponse) => {
    res.writeHead(401, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { code: 'unauthorized', message: 'unknown or revoked token' } }))
  }
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === RELAY_STREAM_PATH) {
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers })
        res.end(JSON.stringify(refusal.body ?? { error: { code: 'unavailable', message: 'refused by the test' } }))
        return
      }
      if (!authorized(req)) return unauthorized(res)
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
      res.flushHeaders()
      const send = (event: string, data: unknown, id?: number) => res.write(`event: ${event}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
      const closed = once(res, 'close').then(() => undefined)
      streams.push({
        headers: req.headers,
        ready: (over = {}) => send('ready', { token: 'dev-1', channel: 'test', backlog: 0, serverTime: new Date().toISOString(), ...over }),
        deliver: (d) => send('delivery', d, d.seq),
        gap: (g) => send('gap', g),
        closing: (c) => {
          send('closing', c)
          res.end()
        },
        ping: () => res.write(': ping\n\n'),
        raw: (text) => res.write(text),
        drop: () => req.socket.destroy(),
        end: () => res.end(),
        closed,
      })
      wake()
      return
    }
    if (req.method === 'POST' && req.url === RELAY_ACK_PATH) {
      if (!authorized(req)) return unauthorized(res)
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const { seqs } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { seqs: number[] }
        ackBodies.push(seqs)
        acks.push(...seqs)
        res.writeHead(204)
        res.end()
        wake()
      })
      return
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const until = async (ok: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`fake relay: timed out waiting for ${what}`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200).unref()
      })
    }
  }
  return {
    url: `http://127.0.0.1:${port}/`,
    acks,
    ackBodies,
    streams,
    async nextStream() {
      await until(() => streams.length > taken, 'a stream')
      return streams[taken++]!
    },
    async waitAcks(n) {
      await until(() => acks.length >= n, `${n} acks (have ${acks.length})`)
      return acks
    },
    refuse(status, body, headers) {
      refusal = { status, body, headers }
    },
    accept() {
      refusal = undefined
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A delivery as the relay streams it: the service's bytes and headers, signed at `signedAt` (epoch seconds), arrived at `arrivedAt`. */
export function relayDelivery(opts: { seq: number; body: string; secret: string; signedAt: number; arrivedAt?: number; attempt?: number; signature?: string }): RelayDelivery {
  const event = JSON.parse(opts.body) as { id?: string; type?: string }
  return {
    seq: opts.seq,
    arrivedAt: new Date((opts.arrivedAt ?? opts.signedAt) * 1000).toISOString(),
    headers: {
      'content-type': 'application/json',
      'x-svc-event-id': event.id ?? 'evt_1',
      'x-svc-event-type': event.type ?? 'charge.settled',
      'x-svc-timestamp': String(opts.signedAt),
      'x-svc-signature': opts.signature ?? signatureHeader(opts.secret, opts.signedAt, opts.body),
    },
    body: Buffer.from(opts.body).toString('base64'),
    attempt: opts.attempt ?? 1,
  }
}
