/**
 * A relay for tests: `svc relay serve`'s server in-process on 127.0.0.1:0 with a temp data dir,
 * plus signed posts to its ingress and a raw SSE reader of its stream. The clock is injected
 * (`clock.now`, move it with `clock.advance`), and the poll loop runs every `pollMs` (default
 * 20 ms), so revocations and redeliveries happen within a test without sleeping on the wall clock.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RelayClosing, RelayDelivery, RelayGap, RelayReady } from '../../src/lib/contract/relay-stream.js'
import { type RelayServer, type RelayServerOptions, startRelayServer } from '../../src/lib/relay/http/server.js'
import { openSqliteRelayStore } from '../../src/lib/relay/store/sqlite.js'
import type { MatchRule, RelayStore } from '../../src/lib/relay/store/types.js'
import { addRelayChannel, createRelayToken, revokeRelayToken } from '../../src/lib/services/relay-admin.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'

export const RELAY_SECRET = 'whsec_relay_test_0123456789abcdef'

export interface TestClock {
  now: () => number
  advance(ms: number): void
  set(ms: number): void
}

export function testClock(start = Date.now()): TestClock {
  let t = start
  return {
    now: () => t,
    advance: (ms) => {
      t += ms
    },
    set: (ms) => {
      t = ms
    },
  }
}

export interface TestRelay {
  url: string
  dir: string
  store: RelayStore
  server: RelayServer
  clock: TestClock
  /** Every log line the server wrote (JSON). */
  logs: string[]
  addChannel(name: string, opts?: { secrets?: string[]; retentionMs?: number; maxBytes?: number }): Promise<{ name: string; url: string }>
  createToken(name: string, channel: string, opts?: { only?: string[]; match?: MatchRule[] }): Promise<string>
  revokeToken(name: string): Promise<void>
  close(): Promise<void>
}

export interface TestRelayOptions extends Partial<Omit<RelayServerOptions, 'store' | 'now' | 'log'>> {
  clock?: TestClock
  /** Serve this store instead of a fresh SQLite one in a temp dir (it is closed with the relay). */
  store?: RelayStore
}

export async function startTestRelay(opts: TestRelayOptions = {}): Promise<TestRelay> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-relay-'))
  const store = opts.store ?? (await openSqliteRelayStore({ dir }))
  const clock = opts.clock ?? testClock()
  const logs: string[] = []
  const { clock: _c, store: _s, ...rest } = opts
  const server = await startRelayServer({
    port: 0,
    pollMs: 20,
    ...rest,
    store,
    now: clock.now,
    log: (level, msg, fields) => logs.push(JSON.stringify({ level, msg, ...fields })),
  })
  let closed = false
  return {
    url: server.url,
    dir,
    store,
    server,
    clock,
    logs,
    addChannel: (name, o = {}) => addRelayChannel(store, { name, secrets: o.secrets ?? [RELAY_SECRET], retentionMs: o.retentionMs, maxBytes: o.maxBytes, publicUrl: server.url, now: new Date(clock.now()) }),
    createToken: async (name, channel, o = {}) => (await createRelayToken(store, { name, channel, only: o.only ?? [], match: o.match ?? [], now: new Date(clock.now()) })).token,
    revokeToken: async (name) => {
      await revokeRelayToken(store, name, new Date(clock.now()))
    },
    close: async () => {
      if (closed) return
      closed = true
      await server.stop()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface PostResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw HTTP request on loopback (no client library in between). */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

export function eventBody(id: string, type = 'charge.paid', extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id, type, createdAt: '2026-11-27T12:00:00.000Z', environment: 'test', data: { charge: { id: 'c'.repeat(24), status: 'paid', ...extra } } })
}

/** POSTs `body` to the relay's ingress signed as the service signs (secret, timestamp in seconds). */
export function postSigned(relayUrl: string, channel: string, body: string | Buffer, opts: { secret?: string; timestamp?: number; headers?: Record<string, string> } = {}): Promise<PostResult> {
  const text = typeof body === 'string' ? body : body.toString('utf8')
  let id: string | undefined
  let type: string | undefined
  try {
    const e = JSON.parse(text) as { id?: string; type?: string }
    id = e.id
    type = e.type
  } catch {}
  const ts = opts.timestamp ?? Math.floor(Date.now() / 1000)
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-svc-timestamp': String(ts),
    'x-svc-signature': signatureHeader(opts.secret ?? RELAY_SECRET, ts, body),
    ...(id ? { 'x-svc-event-id': id } : {}),
    ...(type ? { 'x-svc-event-type': type } : {}),
    ...opts.headers,
  }
  return rawRequest(`${relayUrl}/hooks/${channel}`, { method: 'POST', headers, body })
}

export type StreamFrame =
  | { event: 'ready'; data: RelayReady }
  | { event: 'delivery'; id?: string; data: RelayDelivery }
  | { event: 'gap'; data: RelayGap }
  | { event: 'closing'; data: RelayClosing }
  | { event: 'ping' }

export interface OpenedStream {
  status: number
  /** The error body when status is not 200. */
  body?: string
  headers: Record<string, string | string[] | undefined>
  frames: StreamFrame[]
  /** Resolves with the next frame matching `pred` (already received ones first, in order). */
  next(pred?: (f: StreamFrame) => boolean): Promise<StreamFrame>
  /** Resolves when the server ended the stream. */
  ended: Promise<void>
  close(): void
}

/** Opens `GET /v1/stream` with the token and parses the SSE frames as they come. */
export function openStream(relayUrl: string, token: string | undefined, headers: Record<string, string> = {}): Promise<OpenedStream> {
  return new Promise((resolve, reject) => {
    const req = request(`${relayUrl}/v1/stream`, { headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } }, (res) => {
      const frames: StreamFrame[] = []
      let taken = 0
      const waiters: Array<{ pred: (f: StreamFrame) => boolean; resolve: (f: StreamFrame) => void; reject: (e: Error) => void }> = []
      let endedResolve!: () => void
      const ended = new Promise<void>((r) => {
        endedResolve = r
      })
      const deliver = () => {
        for (let i = 0; i < waiters.length; i++) {
          const w = waiters[i]!
          const idx = frames.findIndex((f, j) => j >= taken && w.pred(f))
          if (idx >= 0) {
            taken = idx + 1
            waiters.splice(i, 1)
            i--
            w.resolve(frames[idx]!)
          }
        }
      }
      let buf = ''
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) {
          body += chunk
          return
        }
        buf += chunk
        for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
          const block = buf.slice(0, cut)
          buf = buf.slice(cut + 2)
          if (block.startsWith(': ping')) frames.push({ event: 'ping' })
          else {
            const f: Record<string, string> = {}
            for (const line of block.split('\n')) {
              const i = line.indexOf(': ')
              if (i > 0) f[line.slice(0, i)] = line.slice(i + 2)
            }
            frames.push({ event: f.event, ...(f.id ? { id: f.id } : {}), data: JSON.parse(f.data ?? 'null') } as StreamFrame)
          }
        }
        deliver()
      })
      const finish = () => {
        endedResolve()
        for (const w of waiters.splice(0)) w.reject(new Error(`the stream ended; frames: ${JSON.stringify(frames.map((f) => f.event))}`))
      }
      res.on('end', finish)
      res.on('close', finish)
      const opened: OpenedStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        frames,
        get body() {
          return body
        },
        next: (pred = () => true) =>
          new Promise<StreamFrame>((res2, rej) => {
            waiters.push({ pred, resolve: res2, reject: rej })
            deliver()
          }),
        ended,
        close: () => req.destroy(),
      }
      if (res.statusCode !== 200) res.on('end', () => resolve(opened))
      else resolve(opened)
    })
    req.on('error', reject)
    req.end()
  })
}

export function ack(relayUrl: string, token: string, seqs: number[]): Promise<PostResult> {
  return rawRequest(`${relayUrl}/v1/ack`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ seqs }) })
}
