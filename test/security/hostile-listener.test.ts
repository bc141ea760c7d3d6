/**
 * Hostile input to the webhook listener (`svc webhooks listen`), byte for byte over raw sockets:
 * forged deliveries never reach the app; malformed, nested, oversized, mistyped, non-UTF-8 and
 * oddly framed requests each get an error in the shape of spec 2.9; a verified delivery is
 * forwarded byte-exact to the configured path whatever path it came in on; slow-loris clients
 * are cut; and the listener keeps serving throughout.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { EventStore } from '../../src/lib/webhooks/event-store.js'
import type { Forwarder } from '../../src/lib/webhooks/forward.js'
import { MAX_BODY_BYTES } from '../../src/lib/net/body.js'
import { WebhookListener } from '../../src/lib/webhooks/listener.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'
import { chargeEvent, forwarding, type Received, SECRET, startApp, type TargetApp } from '../helpers/webhooks.js'
import { halfHeadLetGo, head, type RawReply, rawRequest, useRawSockets } from '../helpers/raw-http.js'

useRawSockets()

let app: TargetApp
let store: EventStore
let listener: WebhookListener
let forwarder: Forwarder
let url: string
let n = 0

beforeAll(async () => {
  app = await startApp()
  store = await EventStore.open({ path: ':memory:' })
  const f = forwarding(`127.0.0.1:${app.port}/webhooks`)
  forwarder = f.forwarder
  listener = new WebhookListener({
    ...f,
    secrets: [SECRET],
    store,
    port: 0,
    serverTimeouts: { headersMs: 400, requestMs: 800, checkEveryMs: 100 },
  })
  url = await listener.start()
})
afterAll(async () => {
  await listener?.close()
  await forwarder?.close()
  store?.close()
  await app?.close()
})

/** A fresh event, signed now, as the service sends it: [head lines, body]. */
function signed(body?: string | Buffer, extra: string[] = []): { lines: string[]; body: Buffer; id: string } {
  const id = `evt_hostile_${++n}`
  const bytes = Buffer.from(body ?? chargeEvent(id, 'charge.settled'))
  const ts = Math.floor(Date.now() / 1000)
  const lines = ['Content-Type: application/json', `X-SVC-Event-Id: ${id}`, 'X-SVC-Event-Type: charge.settled', `X-SVC-Timestamp: ${ts}`, `X-SVC-Signature: ${signatureHeader(SECRET, ts, bytes)}`, ...extra]
  return { lines, body: bytes, id }
}

const deliver = (lines: string[], body: Buffer | string, path = '/') => rawRequest(url, [head('POST', path, [...lines, `Content-Length: ${Buffer.byteLength(body)}`]), body])

function expectSpecError(r: RawReply, status: number): void {
  expect(r.status, r.body).toBe(status)
  expect(r.headers['content-type']).toMatch(/^application\/json/)
  expect(r.json?.error).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) })
}

const forwardedTo = (id: string): Received[] => app.received.filter((r) => r.headers['x-svc-event-id'] === id)

// After every hostile request: a genuine delivery still goes through, once.
afterEach(async () => {
  const d = signed()
  const r = await deliver(d.lines, d.body)
  expect(r.status, r.body).toBe(200)
  expect(forwardedTo(d.id)).toHaveLength(1)
})

describe('listener: forged deliveries never reach the app', () => {
  const forgeries: Array<[string, () => { lines: string[]; body: Buffer | string }]> = [
    ['no signature at all', () => ({ lines: ['Content-Type: application/json', 'X-SVC-Event-Id: evt_forged'], body: chargeEvent('evt_forged', 'charge.settled') })],
    [
      'signed with another secret',
      () => {
        const body = chargeEvent('evt_forged', 'charge.settled')
        const ts = Math.floor(Date.now() / 1000)
        return { lines: [`X-SVC-Timestamp: ${ts}`, `X-SVC-Signature: ${signatureHeader('whsec_attacker_guess_000000', ts, body)}`], body }
      },
    ],
    [
      'a valid signature over another body',
      () => {
        const d = signed()
        return { lines: d.lines, body: d.body.toString().replace('settled', 'refunded') }
      },
    ],
    [
      'a valid signature with a moved timestamp',
      () => {
        const d = signed()
        return { lines: d.lines.map((l) => (l.startsWith('X-SVC-Timestamp') ? `X-SVC-Timestamp: ${Math.floor(Date.now() / 1000) - 1}` : l)), body: d.body }
      },
    ],
    [
      'a replay 10 minutes old',
      () => {
        const body = chargeEvent('evt_forged', 'charge.settled')
        const ts = Math.floor(Date.now() / 1000) - 600
        return { lines: [`X-SVC-Timestamp: ${ts}`, `X-SVC-Signature: ${signatureHeader(SECRET, ts, body)}`], body }
      },
    ],
    [
      'the signature header twice (a good and a bad one)',
      () => {
        const d = signed()
        return { lines: [...d.lines, `X-SVC-Signature: v1=${'0'.repeat(64)}`], body: d.body }
      },
    ],
    [
      'the timestamp header twice',
      () => {
        const d = signed()
        return { lines: [...d.lines, 'X-SVC-Timestamp: 1'], body: d.body }
      },
    ],
    [
      'an uppercase hex signature',
      () => {
        const d = signed()
        return { lines: d.lines.map((l) => (l.startsWith('X-SVC-Signature') ? l.toUpperCase().replace('X-SVC-SIGNATURE: V1=', 'X-SVC-Signature: v1=') : l)), body: d.body }
      },
    ],
  ]

  it.each(forgeries)('%s → 400, not forwarded', async (_name, make) => {
    const before = app.received.length
    const { lines, body } = make()
    expectSpecError(await deliver(lines, body), 400)
    expect(app.received.length).toBe(before)
  })

  it('a captured delivery re-sent within 300 s with another X-SVC-Event-Id, or none, is refused: the id the app deduplicates on is the signed one', async () => {
    const d = signed()
    expect((await deliver(d.lines, d.body)).status).toBe(200)
    const otherId = d.lines.map((l) => (l.startsWith('X-SVC-Event-Id') ? 'X-SVC-Event-Id: evt_attacker_chosen' : l))
    const noId = d.lines.filter((l) => !l.startsWith('X-SVC-Event-Id'))
    const otherType = d.lines.map((l) => (l.startsWith('X-SVC-Event-Type') ? 'X-SVC-Event-Type: charge.refunded' : l))
    for (const lines of [otherId, noId, otherType]) {
      const r = await deliver(lines, d.body)
      expectSpecError(r, 400)
      expect(r.json?.error?.message).toMatch(/event_(id|type)_mismatch/)
    }
    expect(forwardedTo('evt_attacker_chosen')).toHaveLength(0)
    expect(forwardedTo(d.id)).toHaveLength(1)
    expect(app.received.filter((r) => r.headers['x-svc-event-id'] === undefined)).toHaveLength(0)
  })

  it.each(['GET', 'PUT', 'DELETE', 'OPTIONS'])('%s → 405 with Allow: POST', async (method) => {
    const r = await rawRequest(url, [head(method, '/', [])])
    expectSpecError(r, 405)
    expect(r.headers.allow).toBe('POST')
  })
})

describe('listener: malformed, nested and non-UTF-8 bodies', () => {
  it.each([
    ['truncated JSON', '{"id":'],
    ['deeply nested JSON', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['non-UTF-8 bytes', Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d])],
    ['empty', ''],
  ])('%s: unsigned → 400; signed → forwarded byte for byte (the service vouches for it)', async (_name, body) => {
    expectSpecError(await deliver(['Content-Type: application/json'], body), 400)
    const d = signed(body)
    const r = await deliver(d.lines, d.body)
    expect(r.status, r.body).toBe(200)
    const [got] = forwardedTo(d.id)
    expect(got!.body.equals(d.body)).toBe(true)
  })
})

describe('listener: oversized bodies', () => {
  it('one byte over 1 MiB → 413, not forwarded', async () => {
    const d = signed(`{"pad":"${'x'.repeat(MAX_BODY_BYTES)}"}`)
    expectSpecError(await deliver(d.lines, d.body), 413)
    expect(forwardedTo(d.id)).toHaveLength(0)
  })

  it('a declared 200 MiB body is refused with 413 at once, without waiting for it', async () => {
    const d = signed()
    const r = await rawRequest(url, [head('POST', '/', [...d.lines, `Content-Length: ${200 * 1024 * 1024}`]), '{"a":"'], { timeoutMs: 3000 })
    expectSpecError(r, 413)
  })

  it('a chunked body past 1 MiB → 413', async () => {
    const d = signed()
    const chunk = 'x'.repeat(256 * 1024)
    const chunks = [head('POST', '/', [...d.lines, 'Transfer-Encoding: chunked'])]
    for (let i = 0; i < 5; i++) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    chunks.push('0\r\n\r\n')
    expectSpecError(await rawRequest(url, chunks), 413)
  })
})

describe('listener: content types, headers and paths', () => {
  it('a verified delivery keeps its own content-type (the listener forwards, the app judges)', async () => {
    const d = signed(undefined, [])
    const lines = d.lines.map((l) => (l.startsWith('Content-Type') ? 'Content-Type: text/plain; charset=latin1' : l))
    expect((await deliver(lines, d.body)).status).toBe(200)
    expect(forwardedTo(d.id)[0]!.headers['content-type']).toBe('text/plain; charset=latin1')
  })

  it('other headers of the sender are not forwarded (no Authorization, no Cookie, no Host smuggling)', async () => {
    const d = signed(undefined, ['Authorization: Bearer svc_live_should_not_travel_0000', 'Cookie: session=1', 'X-Forwarded-For: 10.0.0.1'])
    expect((await deliver(d.lines, d.body)).status).toBe(200)
    const [got] = forwardedTo(d.id)
    expect(got!.headers.authorization).toBeUndefined()
    expect(got!.headers.cookie).toBeUndefined()
    expect(got!.headers['x-forwarded-for']).toBeUndefined()
  })

  it.each(['/../../etc/passwd', '/%2e%2e/%2e%2e/admin', '/a%00b', '/webhooks?redirect=http://evil.example/', '//evil.example/x', `/${'a'.repeat(4000)}`])(
    'a delivery to %s is forwarded to the configured path only',
    async (path) => {
      const d = signed()
      expect((await deliver(d.lines, d.body, path)).status).toBe(200)
      expect(forwardedTo(d.id).map((r) => r.path)).toEqual(['/webhooks'])
    },
  )

  it.each([
    ['two different Content-Lengths', [head('POST', '/', ['Content-Length: 2', 'Content-Length: 3']), 'abc']],
    ['Content-Length with Transfer-Encoding', ['POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n']],
    ['a header line without a colon', ['POST / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\nConnection: close\r\n\r\n']],
    ['a raw 0xFF byte in the path', [Buffer.concat([Buffer.from('POST /'), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')])]],
    ['not HTTP at all', ['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 hello\r\n\r\n']],
  ])('%s → 400 invalid_request', async (_name, chunks) => {
    expectSpecError(await rawRequest(url, chunks as string[]), 400)
  })

  it("headers over node's limit → 431", async () => {
    expectSpecError(await rawRequest(url, [head('POST', '/', [`X-Big: ${'a'.repeat(20_000)}`])]), 431)
  })
})

describe('listener: slow-loris', () => {
  it('keeps serving while clients trickle their requests, and cuts those that never finish', async () => {
    const trickle = (i: number) => rawRequest(url, `POST / HTTP/1.1\r\nHost: x\r\nX-Slow-${i}: ${'a'.repeat(200)}`.split(''), { gapMs: 50, timeoutMs: 4000 })
    const slow = Array.from({ length: 8 }, (_, i) => trickle(i))
    // Served while the trickling connections are still open: none of them has ended yet (an
    // order of events, not a wall-clock bound, which a loaded machine would break).
    let ended = 0
    for (const s of slow) void s.finally(() => ended++)
    for (let i = 0; i < 3; i++) {
      const d = signed()
      expect((await deliver(d.lines, d.body)).status).toBe(200)
      expect(ended).toBe(0)
    }
    for (const r of await Promise.all(slow)) if (r.status !== 0) expectSpecError(r, 408)
  })

  it('lets go of a client that sent half its head and never closes its side (destroyed, not kept half-open)', async () => {
    const { answer, letGo } = await halfHeadLetGo(url)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(letGo).toBe(true)
  })

  it('a body that stops arriving is cut at the request deadline, not forwarded', async () => {
    const d = signed()
    const r = await rawRequest(url, [head('POST', '/', [...d.lines, `Content-Length: ${d.body.length}`]), d.body.subarray(0, 10)], { timeoutMs: 4000 })
    if (r.status !== 0) expectSpecError(r, 408)
    expect(forwardedTo(d.id)).toHaveLength(0)
  })
})
