import nock from 'nock'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import type { ClientOptions } from '../../../src/lib/api/types.js'
import { ApiError, NetworkError, ResponseError } from '../../../src/lib/errors.js'
import { account, BASE_URL, charge, connectionReset, errorBody, TEST_KEY } from '../../helpers/api-fixtures.js'

// nock 15 intercepts at the net.Socket level (@mswjs/interceptors), so it sees the requests of
// the client's own undici Agent; no global dispatcher is involved.

function setup(overrides: Partial<ClientOptions> = {}) {
  const sleeps: number[] = []
  const lines: string[] = []
  const client = createClient({
    apiKey: TEST_KEY,
    baseUrl: BASE_URL,
    userAgent: 'svc/9.9.9',
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0,
    debug: (line) => lines.push(line),
    ...overrides,
  })
  return { client, sleeps, lines }
}

const clients: Array<{ close(): Promise<void> }> = []
function track<T extends { client: { close(): Promise<void> } }>(x: T): T {
  clients.push(x.client)
  return x
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
})

describe('requests', () => {
  it('sends bearer auth, the user agent and accept: application/json, and validates the Account', async () => {
    nock(BASE_URL, {
      reqheaders: { authorization: `Bearer ${TEST_KEY}`, 'user-agent': 'svc/9.9.9', accept: 'application/json' },
    })
      .get('/v1/account')
      .reply(200, account())
    const { client } = track(setup())
    expect(await client.getAccount()).toEqual(account())
  })

  it('keeps a field the service added later (loose resources)', async () => {
    nock(BASE_URL)
      .get('/v1/charges/65a1f0c2b3d4e5f60718293a')
      .reply(200, { ...charge(), riskScore: 3 })
    const { client } = track(setup())
    expect(await client.getCharge('65a1f0c2b3d4e5f60718293a')).toMatchObject({ riskScore: 3 })
  })

  it('sends the creation body as JSON and reports 201 as created, 200 as an existing charge', async () => {
    const body = { amountInCents: 1500, payerTaxNumber: '52998224725', externalId: 'order-1' }
    nock(BASE_URL, { reqheaders: { 'content-type': 'application/json', 'idempotency-key': 'my-key' } })
      .post('/v1/charges', body)
      .reply(201, charge())
      .post('/v1/charges', body)
      .reply(200, charge())
    const { client } = track(setup())
    expect(await client.createCharge(body, { idempotencyKey: 'my-key' })).toEqual({ charge: charge(), created: true, idempotencyKey: 'my-key' })
    expect(await client.createCharge(body, { idempotencyKey: 'my-key' })).toMatchObject({ created: false })
  })

  it('generates a different Idempotency-Key for each creation when none is given', async () => {
    const keys: string[] = []
    nock(BASE_URL)
      .post('/v1/charges')
      .twice()
      .reply((req: Request) => {
        keys.push(String(req.headers.get('idempotency-key')))
        return [201, charge()]
      })
    const { client } = track(setup())
    const a = await client.createCharge({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    const b = await client.createCharge({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    expect(keys).toEqual([a.idempotencyKey, b.idempotencyKey])
    expect(a.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/)
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey)
  })

  it('puts list filters in the query string and sends advance as {status}', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ status: 'settled', limit: '5', externalId: 'order 1' })
      .reply(200, { data: [charge({ status: 'settled' })], hasMore: false })
      .post('/v1/test/charges/65a1f0c2b3d4e5f60718293a/advance', { status: 'settled' })
      .reply(200, charge({ status: 'settled' }))
      .post('/v1/webhooks/test')
      .reply(202, { eventId: 'evt_1' })
    const { client } = track(setup())
    expect((await client.listCharges({ status: 'settled', limit: 5, externalId: 'order 1' })).data).toHaveLength(1)
    expect((await client.advanceCharge('65a1f0c2b3d4e5f60718293a', 'settled')).status).toBe('settled')
    expect(await client.testWebhook()).toEqual({ eventId: 'evt_1' })
  })

  it('keeps the base URL path as a prefix', async () => {
    nock(BASE_URL).get('/api/v1/account').reply(200, account())
    const { client } = track(setup({ baseUrl: `${BASE_URL}/api/` }))
    expect(await client.getAccount()).toEqual(account())
  })
})

describe('retries', () => {
  it('retries after a connection reset, then succeeds', async () => {
    nock(BASE_URL).get('/v1/account').replyWithError(connectionReset()).get('/v1/account').reply(200, account())
    const { client, sleeps } = track(setup())
    expect(await client.getAccount()).toEqual(account())
    expect(sleeps).toEqual([250])
  })

  it('retries 503 twice with growing backoff, then succeeds', async () => {
    nock(BASE_URL).get('/v1/account').twice().reply(503, errorBody('provider_unavailable', 'Provedor indisponível')).get('/v1/account').reply(200, account())
    const { client, sleeps } = track(setup({ random: () => 0.5 }))
    await client.getAccount()
    // Equal jitter: half of 500 ms / 1 s plus half of that scaled by random().
    expect(sleeps).toEqual([375, 750])
  })

  it('honours Retry-After seconds on 429', async () => {
    nock(BASE_URL).get('/v1/account').reply(429, errorBody('rate_limited', 'Limite atingido'), { 'Retry-After': '2' }).get('/v1/account').reply(200, account())
    const { client, sleeps } = track(setup())
    await client.getAccount()
    expect(sleeps).toEqual([2000])
  })

  it('honours Retry-After as an HTTP date on 429', async () => {
    const at = new Date(Date.now() + 5000).toUTCString()
    nock(BASE_URL).get('/v1/account').reply(429, errorBody('rate_limited', 'Limite atingido'), { 'Retry-After': at }).get('/v1/account').reply(200, account())
    const { client, sleeps } = track(setup())
    await client.getAccount()
    expect(sleeps).toHaveLength(1)
    // The date has a 1 s resolution and some time passes before it is read.
    expect(sleeps[0]).toBeGreaterThan(2000)
    expect(sleeps[0]).toBeLessThanOrEqual(5000)
  })

  it('waits 1 s after 409 charge_processing and sends the same Idempotency-Key every time', async () => {
    const keys: string[] = []
    // nock 15 hands reply functions the fetch Request.
    const record = (req: Request) => keys.push(String(req.headers.get('idempotency-key')))
    nock(BASE_URL)
      .post('/v1/charges')
      .replyWithError(connectionReset())
      .post('/v1/charges')
      .reply((req: Request) => {
        record(req)
        return [503, errorBody('internal_error', 'Falha')]
      })
      .post('/v1/charges')
      .reply((req: Request) => {
        record(req)
        return [409, errorBody('charge_processing', 'Cobrança em criação')]
      })
      .post('/v1/charges')
      .reply((req: Request) => {
        record(req)
        return [201, charge()]
      })
    const { client, sleeps } = track(setup())
    const result = await client.createCharge({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    expect(result.created).toBe(true)
    expect(keys).toEqual([result.idempotencyKey, result.idempotencyKey, result.idempotencyKey])
    expect(sleeps).toEqual([250, 500, 1000])
  })

  it.each([
    { status: 503, body: errorBody('provider_unavailable', 'Indisponível'), exit: 7, code: 'provider_unavailable' },
    { status: 500, body: errorBody('internal_error', 'Erro interno'), exit: 1, code: 'internal_error' },
    { status: 429, body: errorBody('rate_limited', 'Limite'), exit: 6, code: 'rate_limited' },
    { status: 409, body: errorBody('charge_processing', 'Em criação'), exit: 5, code: 'charge_processing' },
  ])('gives up after 3 retries of $status $code with exit $exit', async ({ status, body, exit, code }) => {
    nock(BASE_URL).get('/v1/account').times(4).reply(status, body)
    const { client, sleeps } = track(setup())
    const err = await client.getAccount().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status, apiCode: code, exitCode: exit, requestId: 'req_8f2c1d' })
    expect(sleeps).toHaveLength(3)
  })

  it('gives up after 3 retries of a dropped connection with a NetworkError (exit 7)', async () => {
    nock(BASE_URL).get('/v1/account').times(4).replyWithError(connectionReset())
    const { client, sleeps } = track(setup())
    const err = await client.getAccount().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NetworkError)
    expect(err).toMatchObject({ exitCode: 7 })
    expect((err as Error).message).toContain('4 attempts')
    expect(sleeps).toEqual([250, 500, 1000])
  })

  it('respects maxRetries', async () => {
    nock(BASE_URL).get('/v1/account').times(2).reply(503, errorBody('provider_unavailable', 'x'))
    const { client, sleeps } = track(setup({ maxRetries: 1 }))
    await expect(client.getAccount()).rejects.toBeInstanceOf(ApiError)
    expect(sleeps).toHaveLength(1)
  })

  it.each([
    { status: 400, code: 'invalid_request', exit: 2 },
    { status: 401, code: 'invalid_api_key', exit: 3 },
    { status: 404, code: 'charge_not_found', exit: 4 },
    { status: 409, code: 'charge_not_cancelable', exit: 5 },
  ])('does not retry $status $code', async ({ status, code, exit }) => {
    const details = status === 400 ? [{ field: 'amountInCents', message: 'mínimo 1000' }] : undefined
    nock(BASE_URL)
      .post('/v1/charges/65a1f0c2b3d4e5f60718293a/cancel')
      .reply(status, errorBody(code, 'Recusado', { details }))
    const { client, sleeps } = track(setup())
    const err = await client.cancelCharge('65a1f0c2b3d4e5f60718293a').catch((e: unknown) => e)
    expect(err).toMatchObject({ status, apiCode: code, exitCode: exit, message: 'Recusado', details })
    expect(sleeps).toEqual([])
  })

  it('does not wait for a Retry-After longer than a minute', async () => {
    nock(BASE_URL).get('/v1/account').reply(429, errorBody('rate_limited', 'Limite'), { 'Retry-After': '3600' })
    const { client, sleeps } = track(setup())
    await expect(client.getAccount()).rejects.toMatchObject({ exitCode: 6, retryAfterMs: 3_600_000 })
    expect(sleeps).toEqual([])
  })

  it('reports a cancel as done when a retry after a lost answer finds the charge already canceled', async () => {
    const id = '65a1f0c2b3d4e5f60718293a'
    nock(BASE_URL)
      .post(`/v1/charges/${id}/cancel`)
      .replyWithError(connectionReset())
      .post(`/v1/charges/${id}/cancel`)
      .reply(409, errorBody('charge_not_cancelable', 'Já cancelada'))
      .get(`/v1/charges/${id}`)
      .reply(200, charge({ status: 'canceled' }))
    const { client } = track(setup())
    expect((await client.cancelCharge(id)).status).toBe('canceled')
  })
})

describe('malformed answers', () => {
  it('names the status and the content type when the body is not JSON', async () => {
    nock(BASE_URL).get('/v1/account').reply(200, '<html>Bad gateway page</html>', { 'content-type': 'text/html' })
    const { client } = track(setup())
    const err = await client.getAccount().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ResponseError)
    expect(err).toMatchObject({ exitCode: 1, status: 200 })
    expect((err as Error).message).toBe('The answer to GET /v1/account (HTTP 200) was a body that is not JSON (text/html): "<html>Bad gateway page</html>".')
  })

  it('names each field that violates the schema', async () => {
    const bad = { ...account(), plan: { id: 'p', name: 'Pro', feeBps: '1.99%' } } as Record<string, unknown>
    delete bad.email
    nock(BASE_URL).get('/v1/account').reply(200, bad)
    const { client } = track(setup())
    const err = (await client.getAccount().catch((e: unknown) => e)) as ResponseError
    expect(err).toBeInstanceOf(ResponseError)
    expect(err.message).toContain('HTTP 200')
    expect(err.message).toContain('email')
    expect(err.message).toContain('plan.feeBps')
    expect(err.details?.map((d) => d.field).sort()).toEqual(['email', 'plan.feeBps'])
  })

  it('treats an error status without the API error shape as a malformed answer', async () => {
    nock(BASE_URL).get('/v1/account').reply(404, 'Cannot GET /v1/account')
    const { client } = track(setup())
    await expect(client.getAccount()).rejects.toMatchObject({ name: 'ResponseError', exitCode: 1, status: 404 })
  })

  it('keeps the meaning of a bare 502 from a proxy after retries (exit 7)', async () => {
    nock(BASE_URL).get('/v1/account').times(4).reply(502, 'Bad Gateway')
    const { client } = track(setup())
    await expect(client.getAccount()).rejects.toMatchObject({ name: 'ApiError', exitCode: 7, apiCode: 'http_502' })
  })
})

describe('pagination', () => {
  it('follows hasMore with startingAfter, 100 per page', async () => {
    const ids = ['000000000000000000000001', '000000000000000000000002', '000000000000000000000003']
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ status: 'settled', limit: '100' })
      .reply(200, { data: [charge({ id: ids[0] }), charge({ id: ids[1] })], hasMore: true })
      .get('/v1/charges')
      .query({ status: 'settled', limit: '100', startingAfter: ids[1] })
      .reply(200, { data: [charge({ id: ids[2] })], hasMore: false })
    const { client } = track(setup())
    const seen: string[] = []
    for await (const c of client.paginateCharges({ status: 'settled' })) seen.push(c.id)
    expect(seen).toEqual(ids)
  })

  it('stops early when the consumer stops, without asking for the next page', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ limit: '2' })
      .reply(200, { data: [charge(), charge({ id: '000000000000000000000009' })], hasMore: true })
    const nextPage = nock(BASE_URL).get('/v1/charges').query({ limit: '2', startingAfter: '000000000000000000000009' }).reply(200, { data: [], hasMore: false })
    const { client } = track(setup())
    const seen: string[] = []
    for await (const c of client.paginateCharges({ limit: 2 })) {
      seen.push(c.id)
      break
    }
    expect(seen).toHaveLength(1)
    expect(nextPage.isDone()).toBe(false)
    nock.cleanAll() // the next page is meant to stay unasked
  })
})

describe('raw', () => {
  it('returns any status with the body text, without validation or throwing', async () => {
    nock(BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}`, 'x-trace': 'abc' } })
      .get('/v1/withdrawals/wd_1')
      .reply(404, errorBody('not_found', 'Não encontrado'))
    const { client } = track(setup())
    const res = await client.raw('get', '/v1/withdrawals/wd_1', { headers: { 'X-Trace': 'abc' } })
    expect(res.status).toBe(404)
    expect(JSON.parse(res.body)).toEqual(errorBody('not_found', 'Não encontrado'))
  })

  it('adds an Idempotency-Key to POST /v1/charges', async () => {
    nock(BASE_URL, { reqheaders: { 'idempotency-key': /^[0-9a-f-]{36}$/ } })
      .post('/v1/charges')
      .reply(201, charge())
    const { client } = track(setup())
    expect((await client.raw('POST', '/v1/charges', { body: '{}' })).status).toBe(201)
  })

  it('does not repeat a non-idempotent POST after a lost answer, but does after a 503', async () => {
    nock(BASE_URL).post('/v1/split-charges').replyWithError(connectionReset()).post('/v1/split-charges').reply(503, errorBody('provider_unavailable', 'x')).post('/v1/split-charges').reply(201, { id: 'split_1' })
    const { client, sleeps } = track(setup())
    await expect(client.raw('POST', '/v1/split-charges', { body: '{}' })).rejects.toBeInstanceOf(NetworkError)
    expect(sleeps).toEqual([])
    expect((await client.raw('POST', '/v1/split-charges', { body: '{}' })).status).toBe(201)
    expect(sleeps).toEqual([250])
  })
})

describe('debug lines', () => {
  it('logs method, path, status, time and requestId, and never the key', async () => {
    nock(BASE_URL)
      .get('/v1/account')
      .reply(503, errorBody('provider_unavailable', 'x', { requestId: 'req_abc' }))
      .get('/v1/account')
      .reply(200, account(), { 'x-request-id': 'req_def' })
    const { client, lines } = track(setup())
    await client.getAccount()
    expect(lines).toHaveLength(4)
    expect(lines[0]).toBe('→ GET /v1/account')
    expect(lines[1]).toMatch(/^← 503 GET \/v1\/account \d+ms requestId req_abc \(retrying in 250ms\)$/)
    expect(lines[2]).toBe('→ GET /v1/account (retry 1/3)')
    expect(lines[3]).toMatch(/^← 200 GET \/v1\/account \d+ms requestId req_def$/)
    expect(lines.join('\n')).not.toContain(TEST_KEY.slice(9))
  })
})

const answerWithDate = (date: Date | string | undefined) =>
  nock(BASE_URL)
    .get('/v1/account')
    .reply(200, account(), date === undefined ? {} : { date: typeof date === 'string' ? date : date.toUTCString() })

describe('client.serverNow: the server clock, from its Date header', () => {
  const HOUR = 3_600_000
  const client = createClient({ apiKey: TEST_KEY, baseUrl: BASE_URL })
  afterAll(() => client.close())

  it('is the local clock until an answer came', () => {
    expect(Math.abs(createClient({ apiKey: TEST_KEY, baseUrl: BASE_URL }).serverNow().getTime() - Date.now())).toBeLessThan(1000)
  })

  it('follows a server clock 2 h ahead (a sandbox after `clock advance 2h`), and one behind', async () => {
    answerWithDate(new Date(Date.now() + 2 * HOUR))
    await client.getAccount()
    expect(client.serverNow().getTime() - Date.now()).toBeGreaterThan(2 * HOUR - 3000)
    expect(client.serverNow().getTime() - Date.now()).toBeLessThan(2 * HOUR + 1000)
    answerWithDate(new Date(Date.now() - HOUR))
    await client.getAccount()
    expect(client.serverNow().getTime() - Date.now()).toBeLessThan(-HOUR + 1000)
  })

  it('ignores a difference of 5 s or less (the header has a one-second resolution), and a missing or bad header', async () => {
    answerWithDate(new Date(Date.now() + 2 * HOUR))
    await client.getAccount()
    answerWithDate(new Date(Date.now() + 3000))
    await client.getAccount()
    expect(Math.abs(client.serverNow().getTime() - Date.now())).toBeLessThan(1000)
    answerWithDate('not a date')
    await client.getAccount()
    answerWithDate(undefined)
    await client.getAccount()
    expect(Math.abs(client.serverNow().getTime() - Date.now())).toBeLessThan(1000)
  })
})
