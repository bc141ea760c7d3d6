/**
 * The conformance suite's harness: a sandbox on port 0, in memory, on a manual clock, with a
 * recording delivery worker, and a small HTTP helper. Deliberately not the CLI's client in
 * src/lib/api: the sandbox is tested from the outside, over real HTTP. The helper uses
 * node:http with the body in the same write as the headers: under nock's interceptor (set up
 * by test/setup.ts) fetch sends them apart and every POST waits ~40 ms for a delayed ACK.
 */
import { request as httpRequest } from 'node:http'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { RecordingDeliveries } from '../../src/lib/sandbox/deliveries/null-sink.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox, SandboxStartOptions } from '../../src/lib/sandbox/types.js'

export const START = Date.parse('2026-11-22T12:00:00.000Z')
export const CPF = '529.982.247-25'

export interface Harness {
  sb: RunningSandbox
  clock: SandboxClock
  deliveries: RecordingDeliveries
  call: (method: string, path: string, opts?: CallOptions) => Promise<Reply>
  create: (body?: Record<string, unknown>, opts?: CallOptions) => Promise<Reply>
  close: () => Promise<void>
}

export interface CallOptions {
  key?: string | null
  body?: unknown
  rawBody?: string
  headers?: Record<string, string>
}

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined> & { get(name: string): string | undefined }
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any
}

/**
 * The set-up every conformance file shares: a harness started before the file's tests (or, with
 * `{ each: true }`, before each test of the enclosing describe) and closed after them. Returns it
 * at once; its fields are there from the tests on.
 *
 *   const h = useHarness()
 */
export function useHarness(opts: Partial<SandboxStartOptions> = {}, { each = false }: { each?: boolean } = {}): Harness {
  let current: Harness | undefined
  ;(each ? beforeEach : beforeAll)(async () => {
    current = await startHarness(opts)
  })
  ;(each ? afterEach : afterAll)(async () => {
    await current?.close()
    current = undefined
  })
  return new Proxy({} as Harness, {
    get(_target, key) {
      if (!current) throw new Error(`the conformance harness was used outside a test (reading ${String(key)})`)
      return Reflect.get(current, key)
    },
  })
}

export async function startHarness(opts: Partial<SandboxStartOptions> = {}): Promise<Harness> {
  const clock = opts.clock ?? new SandboxClock({ manual: true, start: START })
  const deliveries = new RecordingDeliveries()
  // The per-key rate limit runs on the wall clock: a conformance file that sends more than a
  // second's worth of requests in a burst would see 429s that have nothing to do with what it
  // checks. The rate-limit tests pass their own lower limit.
  const sb = await startSandboxServer({ port: 0, inMemory: true, clock, deliveries: () => deliveries, rateLimitPerSecond: 1_000_000, ...opts })
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
    const key = o.key === undefined ? sb.testKey : o.key
    const headers: Record<string, string> = { ...o.headers }
    if (key !== null) headers.authorization = `Bearer ${key}`
    let body: string | undefined = o.rawBody
    if (o.body !== undefined) {
      body = JSON.stringify(o.body)
      headers['content-type'] = 'application/json'
    }
    return send(`${sb.baseUrl}${path}`, method, headers, body)
  }
  const create = (body: Record<string, unknown> = {}, o: CallOptions = {}) => call('POST', '/v1/charges', { ...o, body: { amountInCents: 1500, payerTaxNumber: CPF, ...body } })
  return { sb, clock, deliveries, call, create, close: () => sb.close() }
}

/** One request over node:http; rejects when the connection is dropped. */
export function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', reject)
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        const type = String(res.headers['content-type'] ?? '')
        const text = raw.toString('utf8')
        const h = Object.assign({ ...res.headers }, { get: (name: string) => res.headers[name.toLowerCase()] as string | undefined })
        resolve({ status: res.statusCode!, headers: h, body: type.startsWith('application/json') && text ? JSON.parse(text) : raw })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Asserts the error shape of spec 2.9 and returns the error object. */
export function errorOf(reply: Reply): { code: string; message: string; requestId: string; details?: Array<{ field: string; message: string }> } {
  const e = reply.body?.error
  if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.requestId !== 'string') {
    throw new Error(`not an error body of spec 2.9: ${JSON.stringify(reply.body)}`)
  }
  if (reply.headers.get('x-request-id') !== e.requestId) throw new Error('X-Request-Id does not match error.requestId')
  return e
}

// biome-ignore lint/suspicious/noExplicitAny: event bodies are inspected field by field
export function eventsOf(h: Harness, chargeId: string): Array<{ type: string; body: Record<string, any> }> {
  return (
    h.deliveries.events
      // biome-ignore lint/suspicious/noExplicitAny: event bodies are inspected field by field
      .map((e) => ({ type: e.type, body: JSON.parse(e.body) as Record<string, any> }))
      .filter((e) => e.body.data?.charge?.id === chargeId)
  )
}
