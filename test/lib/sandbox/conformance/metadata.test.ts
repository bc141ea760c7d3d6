/**
 * Metadata is data (issue 29 item 27): every key is kept and every value checked (spec 2.1, 8),
 * `__proto__` included. zod's record skips that key without a word, so the sandbox answered 201
 * with the entry gone, and took a number, an object, a 501-character value or a 21st entry under
 * it. The CLI's `--metadata` goes through the same schema.
 */
import { describe, expect, it } from 'vitest'
import { createClient } from '../../../../src/public/client.js'
import { svc } from '../../../helpers/cli.js'
import { CPF, eventsOf, useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

/** Raw JSON text: a JS object literal with `__proto__` would set a prototype, not a key. */
const withProto = (value: string, rest = '"order":"42"') => JSON.parse(`{"__proto__":${value}${rest ? `,${rest}` : ''}}`) as Record<string, unknown>

describe('metadata keys are data', () => {
  it('a key named __proto__ is kept: in the 201, on GET, in the list and in the event', async () => {
    const r = await h.create({ metadata: withProto('"x"') })
    expect(r.status).toBe(201)
    const expected = withProto('"x"')
    expect(Object.entries(r.body.metadata)).toEqual(Object.entries(expected))
    const got = await h.call('GET', `/v1/charges/${r.body.id}`)
    expect(Object.entries(got.body.metadata)).toEqual([
      ['__proto__', 'x'],
      ['order', '42'],
    ])
    const listed = (await h.call('GET', '/v1/charges?limit=1')).body.data[0]
    expect(Object.hasOwn(listed.metadata, '__proto__')).toBe(true)
    const event = eventsOf(h, r.body.id).find((e) => e.type === 'charge.awaiting_payment')
    expect(Object.hasOwn(event?.body.data.charge.metadata, '__proto__')).toBe(true)
  })

  it.each([
    ['a number', '5'],
    ['an object', '{"a":"b"}'],
    ['a 501-character value', JSON.stringify('a'.repeat(501))],
  ])('__proto__ holding %s → 400 naming metadata.__proto__, nothing stored', async (_what, value) => {
    const before = (await h.call('GET', '/v1/charges?limit=100')).body.data.length
    const r = await h.create({ metadata: withProto(value) })
    expect(r.status).toBe(400)
    expect(r.body.error.details).toEqual([expect.objectContaining({ field: 'metadata.__proto__' })])
    expect((await h.call('GET', '/v1/charges?limit=100')).body.data.length).toBe(before)
  })

  it('20 entries plus __proto__ are 21: 400 naming metadata', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `"k${i}":"v"`).join(',')
    const r = await h.create({ metadata: withProto('"x"', twenty) })
    expect(r.status).toBe(400)
    expect(r.body.error.details).toEqual([expect.objectContaining({ field: 'metadata', message: expect.stringMatching(/at most 20 entries/) })])
  })

  it('a body sent as raw text keeps the key too (JSON parsing on the server side)', async () => {
    const rawBody = `{"amountInCents":1500,"payerTaxNumber":"${CPF}","metadata":{"__proto__":"x","order":"42"}}`
    const r = await h.call('POST', '/v1/charges', { rawBody, headers: { 'content-type': 'application/json' } })
    expect(r.status).toBe(201)
    expect(r.body.metadata).toEqual(withProto('"x"'))
  })
})

describe('svc-cli/client', () => {
  it('answers carry every metadata key, __proto__ included (create, get, list)', async () => {
    const client = createClient({ apiKey: h.sb.testKey, baseUrl: h.sb.baseUrl })
    try {
      const created = await client.charges.create({ amountInCents: 1500, payerTaxNumber: CPF, metadata: withProto('"x"') as Record<string, string> })
      expect(Object.entries(created.metadata ?? {})).toEqual([
        ['__proto__', 'x'],
        ['order', '42'],
      ])
      expect(Object.getPrototypeOf(created.metadata)).toBe(Object.prototype)
      expect(Object.hasOwn((await client.charges.get(created.id)).metadata ?? {}, '__proto__')).toBe(true)
      for await (const charge of client.charges.list({ limit: 1 })) {
        expect(Object.hasOwn(charge.metadata ?? {}, '__proto__')).toBe(true)
        break
      }
    } finally {
      await client.close()
    }
  })
})

describe('svc charges create --metadata', () => {
  const env = () => ({ SVC_API_KEY: h.sb.testKey, SVC_BASE_URL: h.sb.baseUrl })

  it('--json prints the answer with every metadata key, __proto__ included (create, get, list)', async () => {
    const r = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', CPF, '--metadata', '__proto__=x', '--metadata', 'order=7', '--json'], { env: env() })
    expect(r.exitCode).toBe(0)
    expect(Object.entries(JSON.parse(r.stdout).metadata)).toEqual([
      ['__proto__', 'x'],
      ['order', '7'],
    ])
    const id = JSON.parse(r.stdout).id
    const got = await svc(['charges', 'get', id, '--json'], { env: env() })
    expect(Object.hasOwn(JSON.parse(got.stdout).metadata, '__proto__')).toBe(true)
    const listed = await svc(['charges', 'list', '--limit', '1', '--json'], { env: env() })
    expect(Object.hasOwn(JSON.parse(listed.stdout).data[0].metadata, '__proto__')).toBe(true)
  })

  it('--metadata __proto__=x is sent and kept', async () => {
    const r = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', CPF, '--metadata', '__proto__=x', '--metadata', 'order=42', '-q'], { env: env() })
    expect(r.exitCode).toBe(0)
    const id = r.stdout.trim()
    expect(Object.entries((await h.call('GET', `/v1/charges/${id}`)).body.metadata)).toEqual([
      ['__proto__', 'x'],
      ['order', '42'],
    ])
  })

  it.each([
    ['a 501-character value', ['--metadata', `__proto__=${'a'.repeat(501)}`], /--metadata \(metadata\.__proto__\): .*at most 500 characters/],
    ['the same key twice', ['--metadata', '__proto__=a', '--metadata', '__proto__=b'], /key "__proto__" is given twice/],
    ['a 21st entry', [...Array.from({ length: 20 }, (_, i) => ['--metadata', `k${i}=v`]).flat(), '--metadata', '__proto__=x'], /at most 20 entries/],
  ])('__proto__ with %s exits 2 naming the field, sending nothing', async (_what, flags, message) => {
    const r = await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', CPF, ...flags], {
      env: { SVC_API_KEY: h.sb.testKey, SVC_BASE_URL: 'http://127.0.0.1:9' },
    })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
  })
})
