/**
 * The conformance suite's harness: a sandbox on port 0, in memory, on a manual clock, with a
 * recording delivery worker, and a small fetch helper. Deliberately not the CLI's client in
 * src/lib/api: the sandbox is tested from the outside, over real HTTP.
 */
import { SandboxClock } from '../../../../src/lib/sandbox/clock.js'
import { RecordingDeliveries } from '../../../../src/lib/sandbox/null-sink.js'
import { startSandbox } from '../../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox, SandboxStartOptions } from '../../../../src/lib/sandbox/types.js'

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
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any
}

export async function startHarness(opts: Partial<SandboxStartOptions> = {}): Promise<Harness> {
  const clock = opts.clock ?? new SandboxClock({ manual: true, start: START })
  const deliveries = new RecordingDeliveries()
  const sb = await startSandbox({ port: 0, inMemory: true, clock, deliveries: () => deliveries, ...opts })
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
    const key = o.key === undefined ? sb.testKey : o.key
    const headers: Record<string, string> = { ...o.headers }
    if (key !== null) headers.authorization = `Bearer ${key}`
    let body: string | undefined = o.rawBody
    if (o.body !== undefined) {
      body = JSON.stringify(o.body)
      headers['content-type'] = 'application/json'
    }
    const res = await fetch(`${sb.baseUrl}${path}`, { method, headers, body })
    const text = await res.text()
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
  }
  const create = (body: Record<string, unknown> = {}, o: CallOptions = {}) =>
    call('POST', '/v1/charges', { ...o, body: { amountInCents: 1500, payerTaxNumber: CPF, ...body } })
  return { sb, clock, deliveries, call, create, close: () => sb.close() }
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

export function eventsOf(h: Harness, chargeId: string): Array<{ type: string; body: Record<string, any> }> {
  return h.deliveries.events
    .map((e) => ({ type: e.type, body: JSON.parse(e.body) as Record<string, any> }))
    .filter((e) => e.body.data?.charge?.id === chargeId)
}
