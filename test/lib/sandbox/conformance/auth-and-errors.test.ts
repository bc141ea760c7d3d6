/** Spec 2.9, 5 and 7 over real HTTP: error shape with requestId, 400 details, 401/403/404/413, environments. */
import { describe, expect, it } from 'vitest'
import { errorOf, useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

describe('authentication (spec 5)', () => {
  it('answers 401 invalid_api_key to a missing, malformed or unknown key', async () => {
    for (const key of [null, 'svc_test_0000000000000000000000000000dead', 'not-a-key']) {
      const r = await h.call('GET', '/v1/account', { key })
      expect(r.status).toBe(401)
      expect(errorOf(r).code).toBe('invalid_api_key')
    }
    const r = await h.call('GET', '/v1/account', { key: null, headers: { authorization: 'Basic abc' } })
    expect(errorOf(r).code).toBe('invalid_api_key')
  })

  it('answers 401 revoked_api_key to a revoked key, and the other keys keep working', async () => {
    const extra = h.sb.admin!.createKey('test')
    expect((await h.call('GET', '/v1/account', { key: extra.key })).status).toBe(200)
    h.sb.admin!.revokeKey(extra.key)
    const r = await h.call('GET', '/v1/account', { key: extra.key })
    expect(r.status).toBe(401)
    expect(errorOf(r).code).toBe('revoked_api_key')
    expect((await h.call('GET', '/v1/account')).status).toBe(200)
  })

  it('lets the key pick the environment, and hides a charge from the other one (404 charge_not_found)', async () => {
    const test = await h.create()
    expect(test.body.environment).toBe('test')
    const live = await h.create({}, { key: h.sb.liveKey })
    expect(live.status).toBe(201)
    expect(live.body.environment).toBe('live')

    for (const [key, id] of [
      [h.sb.liveKey, test.body.id],
      [h.sb.testKey, live.body.id],
    ]) {
      for (const [method, path] of [
        ['GET', `/v1/charges/${id}`],
        ['POST', `/v1/charges/${id}/cancel`],
      ] as const) {
        const r = await h.call(method, path, { key })
        expect(r.status).toBe(404)
        expect(errorOf(r).code).toBe('charge_not_found')
      }
    }
    const liveList = await h.call('GET', '/v1/charges?limit=100', { key: h.sb.liveKey })
    expect(liveList.body.data.map((c: { id: string }) => c.id)).toEqual([live.body.id])
    expect((await h.call('GET', '/v1/account', { key: h.sb.liveKey })).body.environment).toBe('live')
  })

  it('refuses the sandbox advance with a live key (403 not_available_in_live), even for an unknown id', async () => {
    const live = await h.create({}, { key: h.sb.liveKey })
    for (const id of [live.body.id, 'ffffffffffffffffffffffff']) {
      const r = await h.call('POST', `/v1/test/charges/${id}/advance`, { key: h.sb.liveKey, body: { status: 'paid_pending_settlement' } })
      expect(r.status).toBe(403)
      expect(errorOf(r).code).toBe('not_available_in_live')
    }
    expect((await h.call('GET', `/v1/charges/${live.body.id}`, { key: h.sb.liveKey })).body.status).toBe('awaiting_payment')
  })
})

describe('errors (spec 2.9 and 7)', () => {
  it('puts a requestId in every error body and the same one in X-Request-Id, fresh per request', async () => {
    const a = errorOf(await h.call('GET', '/v1/charges/nope'))
    const b = errorOf(await h.call('GET', '/v1/charges/nope'))
    expect(a.code).toBe('charge_not_found')
    expect(a.requestId).not.toBe(b.requestId)
    const ok = await h.call('GET', '/v1/account')
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/)
  })

  it('lists one detail per rejected field on 400 invalid_request', async () => {
    const r = await h.call('POST', '/v1/charges', {
      body: { amountInCents: 999, payerTaxNumber: '111.111.111-11', description: 'x'.repeat(201), metadata: { a: 'y'.repeat(501) }, payerName: 12 },
    })
    expect(r.status).toBe(400)
    const e = errorOf(r)
    expect(e.code).toBe('invalid_request')
    const fields = e.details!.map((d) => d.field).sort()
    expect(fields).toEqual(['amountInCents', 'description', 'metadata.a', 'payerName', 'payerTaxNumber'])
    for (const d of e.details!) expect(d.message).toEqual(expect.any(String))
  })

  it('rejects amounts outside 1000..500000 and non-integers, naming amountInCents', async () => {
    for (const amountInCents of [999, 500_001, 1500.5, '1500']) {
      const r = await h.create({ amountInCents })
      expect(r.status).toBe(400)
      expect(errorOf(r).details).toEqual([{ field: 'amountInCents', message: expect.any(String) }])
    }
    expect((await h.create({ amountInCents: 1000 })).status).toBe(201)
    expect((await h.create({ amountInCents: 500_000 })).status).toBe(201)
  })

  it('requires payerTaxNumber and accepts a CNPJ', async () => {
    const r = await h.call('POST', '/v1/charges', { body: { amountInCents: 1500 } })
    expect(errorOf(r).details).toEqual([{ field: 'payerTaxNumber', message: expect.any(String) }])
    const cnpj = await h.create({ payerTaxNumber: '11.222.333/0001-81' })
    expect(cnpj.status).toBe(201)
    expect(cnpj.body.payer.taxNumber).not.toContain('11222333000181')
  })

  it('answers malformed JSON and an empty body with 400 and a (body) detail', async () => {
    for (const rawBody of ['{"amountInCents":', '', '[1,2]']) {
      const r = await h.call('POST', '/v1/charges', { rawBody, headers: { 'content-type': 'application/json' } })
      expect(r.status).toBe(400)
      expect(errorOf(r).details![0]!.field).toBe('(body)')
    }
  })

  it('refuses a body over 1 MiB with 413 and still answers in the error shape', async () => {
    const r = await h.create({ description: 'x'.repeat(1024 * 1024) })
    expect(r.status).toBe(413)
    expect(errorOf(r).code).toBe('invalid_request')
  })

  it('validates the Idempotency-Key header (max 128)', async () => {
    const r = await h.create({}, { headers: { 'idempotency-key': 'k'.repeat(129) } })
    expect(r.status).toBe(400)
    expect(errorOf(r).details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }])
  })

  it('answers 404 not_found for an unknown route, after authentication', async () => {
    const r = await h.call('GET', '/v1/nothing-here')
    expect(r.status).toBe(404)
    expect(errorOf(r).code).toBe('not_found')
    expect((await h.call('GET', '/v1/nothing-here', { key: null })).status).toBe(401)
  })

  it('answers the advance body validation with 400 and the status field', async () => {
    const c = await h.create()
    const r = await h.call('POST', `/v1/test/charges/${c.body.id}/advance`, { body: { status: 'canceled' } })
    expect(r.status).toBe(400)
    expect(errorOf(r).details).toEqual([{ field: 'status', message: expect.any(String) }])
  })
})

describe('merchant not cleared to charge (403 on create)', () => {
  it.each([
    [{ merchantIdPresent: false }, 'missing_merchant_id'],
    [{ activated: false }, 'merchant_not_activated'],
    [{ blocked: true }, 'charge_blocked'],
  ] as const)('%o → 403 %s, and reads keep working', async (patch, code) => {
    const before = h.sb.admin!.getSettings()
    h.sb.admin!.updateSettings(patch)
    try {
      const r = await h.create()
      expect(r.status).toBe(403)
      expect(errorOf(r).code).toBe(code)
      expect((await h.call('GET', '/v1/charges')).status).toBe(200)
    } finally {
      h.sb.admin!.updateSettings(before)
    }
    expect((await h.create()).status).toBe(201)
  })
})

describe('provider refusal', () => {
  it('answers 402 provider_error at the documented amount (R$ 14,02) and saves nothing', async () => {
    const r = await h.create({ amountInCents: 1402, externalId: 'refused-1' })
    expect(r.status).toBe(402)
    expect(errorOf(r).code).toBe('provider_error')
    expect((await h.call('GET', '/v1/charges?externalId=refused-1')).body.data).toEqual([])
  })
})

describe('sandbox info', () => {
  it('answers GET /_sandbox/info without a key, with the sandbox clock', async () => {
    const r = await h.call('GET', '/_sandbox/info', { key: null })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ sandbox: true, version: expect.any(String), now: new Date(h.clock.now()).toISOString(), speed: 1 })
  })

  it('authenticates the panel routes with a key of this sandbox', async () => {
    const r = await h.call('GET', '/_sandbox/webhook', { key: null })
    expect(r.status).toBe(401)
    expect(errorOf(r).code).toBe('invalid_api_key')
  })
})

describe('methods on routes that exist (issue 16 item 7)', () => {
  it('HEAD answers as GET, with its headers and no body', async () => {
    const get = await h.call('GET', '/v1/account')
    const head = await h.call('HEAD', '/v1/account')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'))
    expect(head.headers.get('content-type')).toMatch(/^application\/json/)
    expect((head.body as Buffer).length).toBe(0)
    const c = await h.create()
    expect((await h.call('HEAD', `/v1/charges/${c.body.id}`)).status).toBe(200)
    expect((await h.call('HEAD', '/v1/charges/0123456789abcdef01234567')).status).toBe(404)
    expect((await h.call('HEAD', '/v1/account', { key: null })).status).toBe(401)
  })

  it('OPTIONS answers 204 with Allow, without a key', async () => {
    const r = await h.call('OPTIONS', '/v1/charges', { key: null })
    expect(r.status).toBe(204)
    expect(r.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS')
    expect((await h.call('OPTIONS', '/v1/webhooks/test')).headers.get('allow')).toBe('POST, OPTIONS')
  })

  it('another method is 405 method_not_allowed with Allow; an unknown path stays 404', async () => {
    const r = await h.call('DELETE', '/v1/account')
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(errorOf(r).code).toBe('method_not_allowed')
    expect((await h.call('GET', '/v1/charges/0123456789abcdef01234567/cancel')).status).toBe(405)
    expect((await h.call('HEAD', '/v1/nope')).status).toBe(404)
    expect(errorOf(await h.call('DELETE', '/v1/nope')).code).toBe('not_found')
  })
})

describe('a path segment that is no text at all (%ff)', () => {
  it("names nothing: 404 with the resource's own error, never a 500", async () => {
    const charge = await h.call('GET', '/v1/charges/%ff')
    expect(charge.status).toBe(404)
    expect(errorOf(charge).code).toBe('charge_not_found')
    for (const path of ['/_sandbox/deliveries/%ff/resend', '/_sandbox/withdrawals/%ff/advance', '/_sandbox/charges/%ff/split']) {
      const r = await h.call('POST', path, { body: {} })
      expect(r.status, path).toBe(404)
      expect(errorOf(r).requestId, path).toBeTruthy()
    }
  })
})
