/**
 * Hostile input to the sandbox, byte for byte over raw sockets: malformed and deeply nested
 * JSON, oversized bodies (1 MiB limit → 413), wrong content types, odd and duplicated headers,
 * path tricks in ids, non-UTF-8 bytes and slow-loris clients. Each gets an error in the shape of
 * spec 2.9 (or, for a connection that never finishes its request, a cut), nothing crashes, and
 * the sandbox keeps serving.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import { MAX_BODY_BYTES } from '../../src/lib/net/body.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { halfHeadLetGo, head, type RawReply, rawRequest, useRawSockets } from '../helpers/raw-http.js'

useRawSockets()

let sb: RunningSandbox
let auth: string
const CHARGE = '{"amountInCents":1500,"payerTaxNumber":"52998224725"}'

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true }), rateLimitPerSecond: 1_000_000, serverTimeouts: { headersMs: 400, requestMs: 800, checkEveryMs: 100 } })
  auth = `Authorization: Bearer ${sb.testKey}`
})
afterAll(async () => {
  await sb?.close()
})
// After every hostile request: still alive and serving.
afterEach(async () => {
  const r = await rawRequest(sb.baseUrl, [head('GET', '/v1/account', [auth])])
  expect(r.status, r.body).toBe(200)
})

function expectSpecError(r: RawReply, status: number, code = 'invalid_request'): void {
  expect(r.status, r.body).toBe(status)
  expect(r.headers['content-type']).toMatch(/^application\/json/)
  expect(r.json?.error).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) })
  expect(r.headers['x-request-id']).toBe(r.json!.error!.requestId)
}

const post = (path: string, body: string | Buffer, lines: string[] = ['Content-Type: application/json']) =>
  rawRequest(sb.baseUrl, [head('POST', path, [auth, ...lines, `Content-Length: ${Buffer.byteLength(body)}`]), body])

describe('sandbox: malformed and nested JSON', () => {
  it.each([
    ['truncated', '{"amountInCents":'],
    ['trailing garbage', `${CHARGE}xyz`],
    ['not an object', '[1,2,3]'],
    ['a bare string', '"hello"'],
    ['NaN', '{"amountInCents":NaN,"payerTaxNumber":"52998224725"}'],
    ['empty', ''],
    ['__proto__ keys', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"amountInCents":1500}'],
  ])('%s → 400 invalid_request', async (_name, body) => {
    expectSpecError(await post('/v1/charges', body), 400)
  })

  it('deeply nested arrays and objects (100 000 levels) → 400, no stack overflow', async () => {
    const depth = 100_000
    expectSpecError(await post('/v1/charges', '['.repeat(depth) + ']'.repeat(depth)), 400)
    expectSpecError(await post('/v1/charges', `{"amountInCents":1500,"payerTaxNumber":"52998224725","metadata":{"a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`), 400)
  })
})

describe('sandbox: oversized bodies', () => {
  it('a body one byte over 1 MiB → 413 invalid_request naming the limit', async () => {
    const body = `{"description":"${'x'.repeat(MAX_BODY_BYTES)}"}`
    const r = await post('/v1/charges', body)
    expectSpecError(r, 413)
    expect(JSON.stringify(r.json)).toContain(String(MAX_BODY_BYTES))
  })

  it('a declared 200 MiB body is refused with 413 at once, without waiting for it', async () => {
    const r = await rawRequest(sb.baseUrl, [head('POST', '/v1/charges', [auth, 'Content-Type: application/json', `Content-Length: ${200 * 1024 * 1024}`]), '{"a":"'], { timeoutMs: 3000 })
    expectSpecError(r, 413)
  })

  it('a chunked body past 1 MiB → 413', async () => {
    const chunk = 'x'.repeat(256 * 1024)
    const chunks = [head('POST', '/v1/charges', [auth, 'Content-Type: application/json', 'Transfer-Encoding: chunked'])]
    for (let i = 0; i < 5; i++) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    chunks.push('0\r\n\r\n')
    expectSpecError(await rawRequest(sb.baseUrl, chunks), 413)
  })
})

describe('sandbox: content types', () => {
  it.each([
    ['form-encoded', 'application/x-www-form-urlencoded', 'amountInCents=1500&payerTaxNumber=52998224725'],
    ['multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="amountInCents"\r\n\r\n1500\r\n--x--'],
    ['XML', 'application/xml', '<charge><amountInCents>1500</amountInCents></charge>'],
    ['JSON declared as text/plain', 'text/plain', CHARGE],
    ['JSON declared as form', 'application/x-www-form-urlencoded', CHARGE],
  ])('%s → 400 invalid_request', async (_name, type, body) => {
    const r = await post('/v1/charges', body, [`Content-Type: ${type}`])
    expectSpecError(r, 400)
  })

  it('JSON with a charset, or as application/*+json, is accepted', async () => {
    expect((await post('/v1/charges', CHARGE, ['Content-Type: application/json; charset=utf-8'])).status).toBe(201)
    expect((await post('/v1/charges', CHARGE, ['Content-Type: application/merge-patch+json'])).status).toBe(201)
  })
})

describe('sandbox: odd and duplicated headers', () => {
  it.each([
    ['two different Content-Lengths', [head('POST', '/v1/charges', ['Authorization: Bearer x', 'Content-Length: 2', 'Content-Length: 3']), 'abc']],
    ['Content-Length with Transfer-Encoding', [`POST /v1/charges HTTP/1.1\r\nHost: x\r\n${'Authorization: Bearer x'}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`]],
    ['a header line without a colon', ['GET /v1/account HTTP/1.1\r\nHost: x\r\nNoColonHere\r\nConnection: close\r\n\r\n']],
    ['a NUL in the request line', ['GET /v1/charges/a\0b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']],
    ['a raw 0xFF byte in the path', [Buffer.concat([Buffer.from('GET /v1/charges/'), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')])]],
    ['not HTTP at all', ['\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 hello\r\n\r\n']],
  ])('%s → 400 invalid_request', async (_name, chunks) => {
    expectSpecError(await rawRequest(sb.baseUrl, chunks as string[]), 400)
  })

  it("headers over node's limit → 431 invalid_request", async () => {
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/v1/account', [auth, `X-Big: ${'a'.repeat(20_000)}`])]), 431)
  })

  it('a duplicated Authorization header counts once (the first), a bad scheme is refused', async () => {
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/v1/account', ['Authorization: Bearer svc_test_nope', auth])]), 401, 'invalid_api_key')
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/v1/account', [`Authorization: Basic ${Buffer.from(`${sb.testKey}:`).toString('base64')}`])]), 401, 'invalid_api_key')
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/v1/account', [`Authorization: Bearer ${sb.testKey} extra`])]), 401, 'invalid_api_key')
  })

  it('non-UTF-8 bytes in header values do not crash anything', async () => {
    const r = await rawRequest(sb.baseUrl, [Buffer.concat([Buffer.from(`GET /v1/account HTTP/1.1\r\nHost: x\r\n${auth}\r\nX-Odd: `), Buffer.from([0xff, 0xfe, 0x80]), Buffer.from('\r\nConnection: close\r\n\r\n')])])
    expect(r.status).toBe(200)
  })

  it('an Idempotency-Key over 128 characters, or two of them, is refused or used as one value, never two charges', async () => {
    expectSpecError(await post('/v1/charges', CHARGE, ['Content-Type: application/json', `Idempotency-Key: ${'k'.repeat(129)}`]), 400)
    const twice = ['Content-Type: application/json', 'Idempotency-Key: dup-a', 'Idempotency-Key: dup-b']
    const first = await post('/v1/charges', CHARGE, twice)
    const again = await post('/v1/charges', CHARGE, twice)
    expect([first.status, again.status]).toEqual([201, 200])
    expect(again.json!.id).toBe(first.json!.id)
  })
})

describe('sandbox: path tricks in ids', () => {
  it.each([
    '/v1/charges/..%2F..%2Fetc%2Fpasswd',
    '/v1/charges/%2e%2e%2faccount',
    '/v1/charges/%00',
    '/v1/charges/abc%00def',
    '/v1/charges/%ff%fe',
    '/v1/charges/%E0%A4%A',
    '/v1/charges/%',
    `/v1/charges/${'a'.repeat(300)}`,
    '/v1/charges/%27%20OR%201%3D1--',
  ])('GET %s → 404 charge_not_found', async (path) => {
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', path, [auth])]), 404, 'charge_not_found')
  })

  it.each(['/v1/charges/%ff/cancel', '/v1/test/charges/%E0%A4%A/advance', '/v1/charges/..%2f..%2f/cancel'])('POST %s → 404 charge_not_found', async (path) => {
    expectSpecError(await post(path, '{"status":"settled"}'), 404, 'charge_not_found')
  })

  it('dot segments never escape the API: they resolve inside it and keep its authentication', async () => {
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/v1/charges/../../../etc/passwd', [auth])]), 404, 'not_found')
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/v1/charges/%2e%2e/account')]), 401, 'invalid_api_key')
    expectSpecError(await rawRequest(sb.baseUrl, [head('GET', '/qr/..%2f..%2fsandbox.db')]), 404, 'not_found')
  })
})

describe('sandbox: non-UTF-8 bodies', () => {
  it('a body that is not UTF-8 → 400, never silently mangled into a charge', async () => {
    const body = Buffer.concat([Buffer.from('{"amountInCents":1500,"payerTaxNumber":"52998224725","payerName":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])
    expectSpecError(await post('/v1/charges', body), 400)
  })

  it('UTF-16 JSON → 400', async () => {
    expectSpecError(await post('/v1/charges', Buffer.from(CHARGE, 'utf16le')), 400)
  })
})

describe('sandbox: slow-loris', () => {
  it('keeps serving while clients trickle their requests, and cuts those that never finish', async () => {
    // Eight connections that send one header byte every 50 ms, forever.
    const trickle = (i: number) => {
      const bytes = `GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Slow-${i}: ${'a'.repeat(200)}`.split('')
      return rawRequest(sb.baseUrl, bytes, { gapMs: 50, timeoutMs: 4000 })
    }
    const slow = Array.from({ length: 8 }, (_, i) => trickle(i))
    // Served while the trickling connections are still open: none of them has ended yet (an
    // order of events, not a wall-clock bound, which a loaded machine would break).
    let ended = 0
    for (const s of slow) void s.finally(() => ended++)
    // Meanwhile, normal requests are answered promptly.
    for (let i = 0; i < 5; i++) {
      expect((await rawRequest(sb.baseUrl, [head('GET', '/v1/account', [auth])])).status).toBe(200)
      expect(ended).toBe(0)
    }
    // The trickling ones get a 408 in the error shape (or are cut) within the head deadline.
    for (const r of await Promise.all(slow)) {
      if (r.status !== 0) expectSpecError(r, 408)
    }
  })

  it('lets go of a client that sent half its head and never closes its side (destroyed, not kept half-open)', async () => {
    const { answer, letGo } = await halfHeadLetGo(sb.baseUrl, [auth])
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect(letGo).toBe(true)
  })

  it('a body that stops arriving is cut at the request deadline', async () => {
    const r = await rawRequest(sb.baseUrl, [head('POST', '/v1/charges', [auth, 'Content-Type: application/json', 'Content-Length: 100']), '{"amount'], { timeoutMs: 4000 })
    if (r.status !== 0) expectSpecError(r, 408)
  })
})
