/** A local target app and signed deliveries, for the listener's tests (loopback only, port 0). */
import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Forwarder, type ForwarderOptions, type ForwardTarget, parseForwardTargets } from '../../src/lib/webhooks/forward.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'

// Not a word a message may hold: any 8 characters of a secret are masked wherever they appear (issue 36.7).
export const SECRET = 'whsec_l1st3n3r_t3st_0123456789'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface TargetApp {
  port: number
  url: string
  received: Received[]
  close(): Promise<void>
}

/** An app that records every request and answers with `respond` (default 200). */
export async function startApp(respond: (r: Received, res: ServerResponse) => void = (_r, res) => res.end('ok'), host = '127.0.0.1'): Promise<TargetApp> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) }
      received.push(r)
      respond(r, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const port = (server.address() as AddressInfo).port
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex')
}

export function chargeEvent(id: string, type: string, chargeId = 'a'.repeat(24), status?: string): string {
  return JSON.stringify({
    id,
    type,
    createdAt: '2026-11-22T12:00:00.000Z',
    environment: 'test',
    data: { charge: { id: chargeId, status: status ?? type.replace('charge.', ''), amount: { grossInCents: 1500 } } },
  })
}

/** The headers the service sends with a delivery (spec 6.1): the event's own id and type, unless told otherwise. */
export function signedHeaders(body: Uint8Array | string, opts: { secret?: string; timestamp?: number; id?: string; type?: string } = {}): Record<string, string> {
  const ts = opts.timestamp ?? Math.floor(Date.now() / 1000)
  let event: { id?: unknown; type?: unknown } = {}
  try {
    event = JSON.parse(Buffer.from(body).toString('utf8')) ?? {}
  } catch {
    // not an event: the defaults below
  }
  return {
    'content-type': 'application/json',
    'x-svc-event-id': opts.id ?? (typeof event.id === 'string' ? event.id : 'evt_1'),
    'x-svc-event-type': opts.type ?? (typeof event.type === 'string' ? event.type : 'charge.settled'),
    'x-svc-timestamp': String(ts),
    'x-svc-signature': signatureHeader(opts.secret ?? SECRET, ts, body),
  }
}

export interface Answer {
  status: number
  json: Record<string, unknown>
}

/** POSTs as the service does and returns the listener's answer. */
export function post(url: string, body: Uint8Array | string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A promise with its resolver outside, to hold the target app's answer until the test says so. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * What `svc webhooks listen` gives its listener for these `--forward` values: the targets, and a
 * real Forwarder (`--header`s and the deadline in `opts`), which the test closes after the listener.
 */
export function forwarding(forward: string | readonly string[], opts: ForwarderOptions = {}): { targets: ForwardTarget[]; forwarder: Forwarder } {
  return { targets: parseForwardTargets(typeof forward === 'string' ? [forward] : forward), forwarder: new Forwarder(opts) }
}
