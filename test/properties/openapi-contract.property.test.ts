/**
 * The sandbox against its own OpenAPI document (CLI.md 0.4): requests generated from the
 * document's schemas — valid ones, and invalid ones made by breaking one rule the document states
 * — and sequences along its links (create → get → cancel / advance → get), at least 100 cases
 * per operation; every answer is checked against the document with ajv: no 5xx, a status the
 * operation documents, a body that matches its schema, and invalid input refused (400) with the
 * error shape naming the field.
 *
 * Where the document is open because the spec is ("not shown"), the generator follows the
 * sandbox's documented choices so that valid requests reach the happy path: payer tax numbers
 * with valid check digits, text without control characters, split shares adding up to 10000.
 */
import { generateCnpj } from '@brazilian-utils/brazilian-utils/generate-cnpj'
import { generateCpf } from '@brazilian-utils/brazilian-utils/generate-cpf'
import { Agent, request } from 'node:http'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '../../src/lib/contract/openapi.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'

const RUNS = 100
const DOC_ID = 'https://sandbox.invalid/openapi.json'

let sandbox: RunningSandbox
let doc: OpenApiDocument
let ajv: Ajv2020
/** Cases run per operation (the figure the issue asks for). */
const cases = new Map<string, number>()

beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0, inMemory: true, log: () => {}, rateLimitPerSecond: 1_000_000 })
  doc = (await (await fetch(`${sandbox.baseUrl}/openapi.json`)).json()) as OpenApiDocument
  ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...doc, $id: DOC_ID })
  await fetch(`${sandbox.baseUrl}/_sandbox/webhook`, { method: 'PUT', headers: auth(), body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }) })
})

afterAll(async () => {
  agent.destroy()
  await sandbox?.close()
  const figures = [...cases].map(([op, n]) => `${op} ${n}`).join(', ')
  console.log(`openapi contract: ${cases.size} operations; cases: ${figures}`)
})

// ---------------------------------------------------------------- the document

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

function resolve(node: JsonSchema): JsonSchema {
  let n = node
  while (typeof n.$ref === 'string')
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<JsonSchema>((o, k) => o[k.replaceAll('~1', '/').replaceAll('~0', '~')] as JsonSchema, doc as unknown as JsonSchema)
  return n
}

function findOperation(operationId: string): { path: string; method: string; op: OpenApiOperation } {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if ((op as OpenApiOperation).operationId === operationId) return { path, method, op: op as OpenApiOperation }
  }
  throw new Error(`no operation ${operationId} in the document`)
}

function validate(ref: string, value: unknown): string[] {
  const check = ajv.getSchema(`${DOC_ID}#${ref}`)!
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
}

interface Reply {
  status: number
  body: unknown
}

/** Checks an answer against the document: a documented status, JSON of its schema; returns the body. */
function checkAnswer(operationId: string, res: { status: number; contentType: string | null; text: string }, label: string): Reply {
  const { path, method, op } = findOperation(operationId)
  expect(res.status, `${label}: 5xx`).toBeLessThan(500)
  const key = op.responses[String(res.status)] ? String(res.status) : 'default'
  expect(op.responses[key], `${label}: status ${res.status} not documented`).toBeDefined()
  const response = resolve(op.responses[key]!)
  const content = response.content as Record<string, unknown> | undefined
  if (!content?.['application/json']) {
    for (const type of Object.keys(content ?? {})) expect(res.contentType, label).toBe(type)
    return { status: res.status, body: res.text }
  }
  expect(res.contentType, label).toMatch(/^application\/json/)
  const body = JSON.parse(res.text)
  const where =
    typeof op.responses[key]!.$ref === 'string'
      ? `${(op.responses[key]!.$ref as string).slice(1)}/content/application~1json/schema`
      : `/${pointer('paths', path, method, 'responses', key, 'content', 'application/json', 'schema')}`
  expect(validate(where, body), `${label}: ${res.status} ${res.text.slice(0, 300)}`).toEqual([])
  return { status: res.status, body }
}

function auth(key = sandbox.testKey): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
}

/** One keep-alive connection pool; headers and body leave in one write (fetch's two writes meet delayed ACKs: 40 ms a request). */
const agent = new Agent({ keepAlive: true, maxSockets: 4 })

function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; contentType: string | null; text: string }> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done({ status: res.statusCode!, contentType: res.headers['content-type'] ?? null, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', fail)
    })
    req.on('error', fail)
    req.end(body)
  })
}

async function call(operationId: string, opts: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; headers?: Record<string, string>; key?: string } = {}): Promise<Reply> {
  const { path, method } = findOperation(operationId)
  const url = new URL(sandbox.baseUrl + path.replace(/\{(\w+)\}/g, (_m, n: string) => encodeURIComponent(opts.params?.[n] ?? '')))
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v)
  const res = await send(url, method.toUpperCase(), { ...auth(opts.key), ...opts.headers }, opts.body === undefined ? undefined : JSON.stringify(opts.body))
  cases.set(operationId, (cases.get(operationId) ?? 0) + 1)
  return checkAnswer(operationId, res, `${method.toUpperCase()} ${url.pathname}${url.search}`)
}

/** An invalid input is refused with 400 and the error shape, naming the field. */
function expectRefused(reply: Reply, field: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400)
  const error = (reply.body as { error: { code: string; details?: Array<{ field: string }> } }).error
  expect(error.code).toBe('invalid_request')
  expect(error.details?.map((d) => d.field) ?? [], JSON.stringify(error)).toContain(field)
}

// ---------------------------------------------------------------- generators from the schemas

/** Printable text (the sandbox refuses control characters: its choice where the spec is silent), BMP and beyond. */
const TEXT_UNIT = fc.oneof(fc.constantFrom(...'abcxyzABCXYZ0189 -_.,:;@/#%&()[]{}?!\'"\\'.split('')), fc.constantFrom('é', 'ç', 'ã', 'ß', 'Ω', '漢', '€', '\u00a0', '😀'))

/** Fields where the document is open because the spec is, generated as the sandbox's choices. */
const CHOICES: Record<string, fc.Arbitrary<unknown>> = {
  payerTaxNumber: fc.constantFrom('cpf', 'cnpj').map((k) => (k === 'cpf' ? generateCpf() : generateCnpj())),
  split: fc
    .integer({ min: 2, max: 10 })
    .chain((n) =>
      fc
        .tuple(fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9]{1,40}$/), { minLength: n, maxLength: n }), fc.uniqueArray(fc.integer({ min: 1, max: 9_999 }), { minLength: n - 1, maxLength: n - 1 }))
        .map(([wallets, cuts]) => {
          const points = [0, ...cuts.sort((a, b) => a - b), 10_000]
          return wallets.map((wallet, i) => ({ wallet, shareBps: points[i + 1]! - points[i]! })).filter((d) => d.shareBps > 0)
        }),
    )
    .filter((d) => d.length >= 2),
  url: fc.constantFrom('http://127.0.0.1:9/hook', 'http://localhost:9/webhooks?x=1', 'http://[::1]:9/a'),
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = (s.minLength as number | undefined) ?? 0
  const max = Math.min((s.maxLength as number | undefined) ?? 40, 600)
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString())
  if (s.format === 'email') return fc.constantFrom('a@example.com', 'buyer.one+tag@shop.example.org', 'x_y@mail.example.co')
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter((t) => t.length >= min && t.length <= max)
  // Short strings mostly, and the longest the document allows now and then (the limits).
  return fc.oneof({ weight: 4, arbitrary: fc.string({ unit: TEXT_UNIT, minLength: min, maxLength: Math.min(max, 24) }) }, { weight: 1, arbitrary: fc.string({ unit: TEXT_UNIT, minLength: max, maxLength: max }) })
}

function valid(schemaIn: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  if (CHOICES[name]) return CHOICES[name]!
  const s = resolve(schemaIn)
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]))
  switch (s.type) {
    case 'integer': {
      const min = (s.minimum as number | undefined) ?? -1_000_000
      const max = (s.maximum as number | undefined) ?? 1_000_000
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max))
    }
    case 'boolean':
      return fc.boolean()
    case 'string':
      return stringArb(s)
    case 'array':
      return fc.array(valid(s.items as JsonSchema), { minLength: (s.minItems as number) ?? 0, maxLength: (s.maxItems as number) ?? 5 })
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>
      if (Object.keys(props).length === 0 && s.additionalProperties && typeof s.additionalProperties === 'object') {
        const keys = s.propertyNames ? stringArb(resolve(s.propertyNames as JsonSchema)) : fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 10 })
        return fc.dictionary(keys, valid(s.additionalProperties as JsonSchema), { maxKeys: (s.maxProperties as number) ?? 5, noNullPrototype: true })
      }
      const record: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [k, v] of Object.entries(props)) record[k] = valid(v, k)
      return fc.record(record, { requiredKeys: (s.required as string[]) ?? [] })
    }
    default:
      return fc.constant({})
  }
}

/** One rule of the schema broken, with the field it names: a body the server must refuse. */
function invalid(schemaIn: JsonSchema): fc.Arbitrary<{ body: unknown; field: string }> {
  const s = resolve(schemaIn)
  const props = (s.properties ?? {}) as Record<string, JsonSchema>
  const required = (s.required as string[]) ?? []
  const base = valid(s) as fc.Arbitrary<Record<string, unknown>>
  const breakers: Array<fc.Arbitrary<{ body: unknown; field: string }>> = []
  for (const [name, raw] of Object.entries(props)) {
    const p = resolve(raw)
    const bad: unknown[] = [p.type === 'string' ? 12 : 'text']
    if (p.type === 'integer') bad.push(1.5)
    if (typeof p.minimum === 'number') bad.push(p.minimum - 1)
    if (typeof p.maximum === 'number') bad.push(p.maximum + 1)
    if (typeof p.maxLength === 'number') bad.push('x'.repeat(p.maxLength + 1))
    if (typeof p.minLength === 'number' && p.minLength > 0) bad.push('')
    if (Array.isArray(p.enum)) bad.push('not_one_of_them')
    if (typeof p.maxProperties === 'number') bad.push(Object.fromEntries(Array.from({ length: p.maxProperties + 1 }, (_, i) => [`k${i}`, 'v'])))
    if (typeof p.maxItems === 'number') bad.push(Array.from({ length: p.maxItems + 1 }, () => ({})))
    breakers.push(fc.tuple(base, fc.constantFrom(...bad)).map(([b, v]) => ({ body: { ...b, [name]: v }, field: name })))
  }
  for (const name of required) breakers.push(base.map((b) => ({ body: Object.fromEntries(Object.entries(b).filter(([k]) => k !== name)), field: name })))
  if (s.additionalProperties === false) breakers.push(base.map((b) => ({ body: { ...b, unexpectedField: 1 }, field: 'unexpectedField' })))
  breakers.push(fc.constantFrom([], 'text', 7, null).map((body) => ({ body, field: '(body)' })))
  return fc.oneof(...breakers)
}

const bodySchema = (operationId: string) => (findOperation(operationId).op.requestBody!.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema

async function createCharge(body?: unknown): Promise<string> {
  const reply = await call('createCharge', { body: body ?? { amountInCents: 1500, payerTaxNumber: generateCpf() } })
  expect(reply.status).toBe(201)
  return (reply.body as { id: string }).id
}

/** Every event body in the delivery log matches the document's schema for its type (`webhooks`); returns how many. */
async function checkDeliveredBodies(env: 'test' | 'live'): Promise<number> {
  const log = (await call('sandboxListDeliveries', { query: { env, limit: '1000' } })).body as { data: Array<{ type: string; body: string }> }
  for (const d of log.data) {
    const webhook = doc.webhooks[d.type] ?? doc.webhooks.event!
    const ref = ((webhook.post!.requestBody!.content as Record<string, { schema: { $ref: string } }>)['application/json']!.schema.$ref as string).slice(1)
    expect(validate(ref, JSON.parse(d.body)), `${d.type}: ${d.body.slice(0, 300)}`).toEqual([])
  }
  return log.data.length
}

const property = (p: fc.IAsyncPropertyWithHooks<unknown[]> | fc.IAsyncProperty<unknown[]>) => fc.assert(p, { numRuns: RUNS })

// ---------------------------------------------------------------- the service's operations

describe('the sandbox against its OpenAPI document (property-based)', () => {
  it('createCharge: valid bodies create (201) or replay (200); the same externalId with another body is 409', async () => {
    await property(
      fc.asyncProperty(valid(bodySchema('createCharge')), fc.option(fc.stringMatching(/^[!-~]{1,128}$/), { nil: undefined }), async (body, key) => {
        const reply = await call('createCharge', { body, headers: key ? { 'idempotency-key': key } : {} })
        expect([200, 201, 409], JSON.stringify(reply.body)).toContain(reply.status)
        if ((body as { externalId?: string }).externalId === undefined && !key) expect(reply.status).toBe(201)
      }),
    )
  })

  it('createCharge: a body that breaks one rule of the document is refused, naming the field', async () => {
    await property(
      fc.asyncProperty(invalid(bodySchema('createCharge')), async ({ body, field }) => {
        expectRefused(await call('createCharge', { body }), field)
      }),
    )
  })

  it('createCharge: a body that is not JSON, or not sent as JSON, is refused', async () => {
    await property(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x').map((type) => ({ type, raw: undefined })),
          fc
            .string({ unit: TEXT_UNIT, minLength: 1, maxLength: 30 })
            .filter((t) => {
              try {
                JSON.parse(t)
                return false
              } catch {
                return true
              }
            })
            .map((raw) => ({ type: 'application/json', raw })),
        ),
        async ({ type, raw }) => {
          const { path } = findOperation('createCharge')
          const body = raw ?? JSON.stringify({ amountInCents: 1500, payerTaxNumber: generateCpf() })
          const res = await send(new URL(sandbox.baseUrl + path), 'POST', { ...auth(), 'content-type': type }, body)
          cases.set('createCharge', (cases.get('createCharge') ?? 0) + 1)
          expectRefused(checkAnswer('createCharge', res, `POST ${path} as ${type}`), raw === undefined ? 'Content-Type' : '(body)')
        },
      ),
    )
  })

  it('createCharge: an Idempotency-Key over its limit is refused', async () => {
    const max = (resolve(doc.components.parameters.IdempotencyKey!).schema as { maxLength: number }).maxLength
    await property(
      fc.asyncProperty(
        fc.stringMatching(/^[!-~]+$/).filter((k) => k.length > 0),
        async (k) => {
          const key = k.padEnd(max + 1, 'k')
          expectRefused(await call('createCharge', { body: { amountInCents: 1500, payerTaxNumber: generateCpf() }, headers: { 'idempotency-key': key } }), 'Idempotency-Key')
        },
      ),
    )
  })

  it('listCharges: any query the document allows gives a page; one that breaks it is refused', async () => {
    const params = findOperation('listCharges').op.parameters!.map((p) => resolve(p))
    const query: Record<string, fc.Arbitrary<unknown>> = {}
    for (const p of params) query[p.name as string] = valid(p.schema as JsonSchema)
    const ids = [await createCharge(), await createCharge()]
    await property(
      fc.asyncProperty(fc.record(query, { requiredKeys: [] }), fc.constantFrom(...ids, undefined), async (q, after) => {
        const asText = Object.fromEntries(Object.entries({ ...q, ...(after ? { startingAfter: after } : {}) }).map(([k, v]) => [k, String(v)]))
        // startingAfter must name a charge of this environment (else 400, documented): only real ids here.
        if (!after) delete asText.startingAfter
        const reply = await call('listCharges', { query: asText })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
        const page = reply.body as { data: Array<{ status: string }> }
        expect(page.data.length).toBeLessThanOrEqual(Number(asText.limit ?? 20))
        if (asText.status) for (const c of page.data) expect(c.status).toBe(asText.status)
      }),
    )
    const bad = fc.constantFrom<[string, string]>(
      ['limit', '0'],
      ['limit', '101'],
      ['limit', 'ten'],
      ['limit', '1.5'],
      ['status', 'paid'],
      ['createdAfter', 'yesterday'],
      ['createdBefore', '2026-13-01T00:00:00Z'],
      ['externalId', 'x'.repeat(129)],
    )
    await property(
      fc.asyncProperty(bad, async ([k, v]) => {
        expectRefused(await call('listCharges', { query: { [k]: v } }), k)
      }),
    )
  })

  it('getCharge / cancelCharge / advanceCharge on ids the sandbox never gave: 404 with the error shape', async () => {
    const ids = fc.oneof(fc.stringMatching(/^[0-9a-f]{24}$/), fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 30 }))
    await property(
      fc.asyncProperty(ids, fc.constantFrom('getCharge', 'cancelCharge', 'advanceCharge', 'getWithdrawal'), async (id, op) => {
        const reply = await call(op, { params: { id }, body: op === 'advanceCharge' ? { status: 'settled' } : undefined })
        expect([404, 400], JSON.stringify(reply.body)).toContain(reply.status)
      }),
    )
  })

  it('sequences along the links: create → get → cancel / advance → get agree with each other', async () => {
    const step = fc.oneof(
      fc.constant({ op: 'getCharge' as const }),
      fc.constant({ op: 'cancelCharge' as const }),
      valid(bodySchema('advanceCharge')).map((body) => ({ op: 'advanceCharge' as const, body })),
    )
    await property(
      fc.asyncProperty(valid(bodySchema('createCharge')), fc.array(step, { minLength: 1, maxLength: 4 }), async (body, steps) => {
        const created = await call('createCharge', { body: { ...(body as object), externalId: undefined } })
        expect(created.status).toBe(201)
        const links = resolve(findOperation('createCharge').op.responses['201']!).links as Record<string, { operationId: string; parameters: { id: string } }>
        const id = (created.body as { id: string }).id
        let status = (created.body as { status: string }).status
        for (const s of steps) {
          const link = Object.values(links).find((l) => l.operationId === s.op)!
          expect(link.parameters.id).toBe('$response.body#/id')
          const reply = await call(s.op, { params: { id }, body: 'body' in s ? s.body : undefined })
          expect([200, 409], JSON.stringify(reply.body)).toContain(reply.status)
          if (reply.status === 200) status = (reply.body as { status: string }).status
          if (s.op === 'cancelCharge' && reply.status === 200) expect(status).toBe('canceled')
          if (s.op === 'advanceCharge' && reply.status === 200) expect(status).toBe((s.body as { status: string }).status)
          const read = await call('getCharge', { params: { id } })
          expect((read.body as { status: string }).status).toBe(status)
        }
      }),
    )
    // What the sandbox sent for all of it matches the document's webhook bodies.
    expect(await checkDeliveredBodies('test')).toBeGreaterThan(100)
  })

  it('cancelCharge: an unpaid charge cancels once; again, or once paid, it is 409 charge_not_cancelable', async () => {
    await property(
      fc.asyncProperty(fc.constantFrom(undefined, 'paid_pending_settlement', 'settled', 'expired'), async (before) => {
        const id = await createCharge()
        if (before) expect((await call('advanceCharge', { params: { id }, body: { status: before } })).status).toBe(200)
        const first = await call('cancelCharge', { params: { id } })
        expect(first.status).toBe(before ? 409 : 200)
        const again = await call('cancelCharge', { params: { id } })
        expect(again.status).toBe(409)
        expect((again.body as { error: { code: string } }).error.code).toBe('charge_not_cancelable')
      }),
    )
  })

  it('advanceCharge: an invalid body is refused; a live key gets 403 not_available_in_live', async () => {
    const id = await createCharge()
    await property(
      fc.asyncProperty(invalid(bodySchema('advanceCharge')), async ({ body, field }) => {
        expectRefused(await call('advanceCharge', { params: { id }, body }), field)
      }),
    )
    const live = await call('advanceCharge', { params: { id }, body: { status: 'settled' }, key: sandbox.liveKey })
    expect(live.status).toBe(403)
  })

  it.each(['getAccount', 'sendTestWebhook'])('%s: an answer of its schema with either key; a key that is not one is 401', async (operationId) => {
    await property(
      fc.asyncProperty(fc.constantFrom('test', 'live', 'bad'), fc.stringMatching(/^[0-9a-f]{32}$/), async (which, junk) => {
        const key = which === 'test' ? sandbox.testKey : which === 'live' ? sandbox.liveKey : `svc_test_${junk}`
        const reply = await call(operationId, { key })
        if (which === 'bad') expect(reply.status).toBe(401)
        else expect(reply.status).toBe(operationId === 'getAccount' ? 200 : which === 'test' ? 202 : 404)
      }),
    )
  })

  it('every /v1 operation: an Authorization that is not a key of this sandbox is 401 with the error shape', async () => {
    const v1 = Object.values(doc.paths)
      .flatMap((item) => Object.values(item) as OpenApiOperation[])
      .filter((op) => !op.tags.includes('sandbox'))
      .map((op) => op.operationId)
    const headers = fc.oneof(
      fc.constant<Record<string, string>>({}),
      fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'Bearer svc_test_', 'bearer svc_live_x y', 'Token abc').map((v) => ({ authorization: v })),
      fc.stringMatching(/^svc_(test|live)_[0-9a-f]{32}$/).map((k) => ({ authorization: `Bearer ${k}` })),
    )
    await property(
      fc.asyncProperty(fc.constantFrom(...v1), headers, async (operationId, h) => {
        const { path, method } = findOperation(operationId)
        const url = new URL(sandbox.baseUrl + path.replace(/\{\w+\}/g, '0123456789abcdef01234567'))
        const res = await send(url, method.toUpperCase(), { 'content-type': 'application/json', ...h }, method === 'post' ? '{}' : undefined)
        cases.set(operationId, (cases.get(operationId) ?? 0) + 1)
        const reply = checkAnswer(operationId, res, `${method.toUpperCase()} ${path} with ${JSON.stringify(h)}`)
        expect(reply.status).toBe(401)
        expect(['invalid_api_key', 'revoked_api_key']).toContain((reply.body as { error: { code: string } }).error.code)
      }),
    )
  })

  it('createSplitCharge: valid bodies (the sandbox’s choice of fields) create; invalid ones are refused', async () => {
    await property(
      fc.asyncProperty(valid(bodySchema('createSplitCharge')), async (body) => {
        const reply = await call('createSplitCharge', { body: { ...(body as object), externalId: undefined } })
        expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      }),
    )
    await property(
      fc.asyncProperty(invalid(bodySchema('createSplitCharge')), async ({ body, field }) => {
        expectRefused(await call('createSplitCharge', { body }), field)
      }),
    )
  })
})

// ---------------------------------------------------------------- the sandbox's control routes

describe("the sandbox's control routes against the document", () => {
  beforeAll(async () => {
    // The charges made above would all fall due as the clock moves: start these from empty data, no webhook URL.
    expect((await call('sandboxReset')).status).toBe(200)
    expect((await call('sandboxRemoveWebhook')).status).toBe(200)
  })

  /** Each control route with a body: valid bodies answer its documented success, invalid ones 400. */
  const WITH_BODIES = ['sandboxAdvanceClock', 'sandboxCreateKey', 'sandboxUpdateSettings', 'sandboxCreateWithdrawal', 'sandboxCreateProductSale', 'sandboxRevokeKey', 'sandboxSetWebhook']

  it.each(WITH_BODIES)('%s: valid bodies succeed (or a documented 4xx), invalid ones are refused naming the field', async (operationId) => {
    const { op } = findOperation(operationId)
    const success = Number(Object.keys(op.responses).find((s) => s.startsWith('2')))
    const schema = bodySchema(operationId)
    await property(
      fc.asyncProperty(valid(schema), fc.constantFrom(undefined, 'test', 'live'), async (body, env) => {
        const b =
          operationId === 'sandboxAdvanceClock'
            ? { ms: Math.min((body as { ms: number }).ms, 600_000) }
            : operationId === 'sandboxUpdateSettings'
              ? { ...(body as object), activated: true, blocked: false, merchantIdPresent: true }
              : body
        const reply = await call(operationId, { body: b, query: env ? { env } : {} })
        // Revoking a key made up by the generator: no such key (404).
        expect(reply.status, JSON.stringify(reply.body)).toBe(operationId === 'sandboxRevokeKey' ? 404 : success)
      }),
    )
    await property(
      fc.asyncProperty(invalid(schema), async ({ body, field }) => {
        expectRefused(await call(operationId, { body }), field)
      }),
    )
  })

  const READS = ['sandboxGetWebhook', 'sandboxListDeliveries', 'sandboxListKeys', 'sandboxGetSettings', 'sandboxGetClock', 'sandboxEventLog', 'sandboxInfo', 'sandboxOpenApi', 'sandboxPanelLink', 'sandboxExport']
  it.each(READS)('%s: a documented answer, with any env; an env that is none is refused', async (operationId) => {
    const open = operationId === 'sandboxInfo' || operationId === 'sandboxOpenApi'
    await property(
      fc.asyncProperty(fc.constantFrom(undefined, 'test', 'live', 'staging'), async (env) => {
        const reply = await call(operationId, { query: env ? { env } : {} })
        if (env === 'staging' && !open) expectRefused(reply, 'env')
        else expect([200, 201, 404]).toContain(reply.status)
      }),
    )
  })

  it.each(['sandboxListDeliveries', 'sandboxEventLog'])('%s: any query its parameters allow is answered; one that breaks them is refused naming it', async (operationId) => {
    const params = findOperation(operationId)
      .op.parameters!.map((p) => resolve(p))
      .filter((p) => p.in === 'query' && p.name !== 'env')
    const query: Record<string, fc.Arbitrary<unknown>> = {}
    for (const p of params) query[p.name as string] = valid(p.schema as JsonSchema)
    await property(
      fc.asyncProperty(fc.record(query, { requiredKeys: [] }), async (q) => {
        const reply = await call(operationId, { query: Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])) })
        expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      }),
    )
    const bad = params.flatMap((p) => {
      const schema = p.schema as { type?: string; minimum?: number; maximum?: number }
      if (schema.type !== 'integer') return []
      return [String((schema.minimum ?? 0) - 1), ...(schema.maximum === undefined ? [] : [String(schema.maximum + 1)]), 'ten', '1.5'].map((v) => [p.name as string, v] as const)
    })
    await property(
      fc.asyncProperty(fc.constantFrom(...bad), async ([name, value]) => {
        expectRefused(await call(operationId, { query: { [name]: value } }), name)
      }),
    )
  })

  it('sandboxRemoveWebhook, sandboxSetWebhook and sandboxGetWebhook in turn: 404 exactly when no URL is set', async () => {
    await property(
      fc.asyncProperty(fc.array(fc.constantFrom('sandboxRemoveWebhook', 'sandboxSetWebhook'), { minLength: 1, maxLength: 4 }), fc.constantFrom('test', 'live'), async (ops, env) => {
        let set = (await call('sandboxGetWebhook', { query: { env } })).status === 200
        for (const op of ops) {
          const reply = await call(op, { query: { env }, body: op === 'sandboxSetWebhook' ? { url: 'http://127.0.0.1:9/hook' } : undefined })
          expect(reply.status).toBe(op === 'sandboxSetWebhook' || set ? 200 : 404)
          set = op === 'sandboxSetWebhook'
        }
        expect((await call('sandboxGetWebhook', { query: { env } })).status).toBe(set ? 200 : 404)
        await call('sandboxRemoveWebhook', { query: { env } })
      }),
    )
  })

  it('sandboxResendDelivery, sandboxRunSplit, sandboxAdvanceWithdrawal, sandboxQrImage on ids it never gave: 404 with the error shape', async () => {
    const ids = fc.oneof(fc.stringMatching(/^[0-9a-f]{24}$/), fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 30 }))
    for (const operationId of ['sandboxResendDelivery', 'sandboxRunSplit', 'sandboxAdvanceWithdrawal', 'sandboxQrImage']) {
      const name = operationId === 'sandboxResendDelivery' ? 'eventId' : 'id'
      await property(
        fc.asyncProperty(operationId === 'sandboxQrImage' ? fc.stringMatching(/^[0-9a-f]{24}$/) : ids, async (id) => {
          const reply = await call(operationId, { params: { [name]: id } })
          expect(reply.status, JSON.stringify(reply.body)).toBe(404)
        }),
      )
    }
  })

  it('sandboxReset: empties the data, every time', async () => {
    await property(
      fc.asyncProperty(fc.boolean(), async (withCharge) => {
        if (withCharge) await createCharge()
        expect((await call('sandboxReset')).status).toBe(200)
        const list = await call('listCharges')
        expect((list.body as { data: unknown[] }).data).toEqual([])
      }),
    )
  })

  it('withdrawals and split runs along their resources; the events they send match the document', async () => {
    for (const env of ['test', 'live']) await call('sandboxSetWebhook', { query: { env }, body: { url: 'http://127.0.0.1:9/hook' } })
    await property(
      fc.asyncProperty(valid(bodySchema('sandboxCreateWithdrawal')), fc.option(valid(bodySchema('sandboxAdvanceWithdrawal')), { nil: undefined }), async (body, advance) => {
        const created = await call('sandboxCreateWithdrawal', { body })
        expect(created.status).toBe(201)
        const id = (created.body as { id: string }).id
        const moved = await call('sandboxAdvanceWithdrawal', { params: { id }, body: advance })
        expect([200, 409]).toContain(moved.status)
        const read = await call('getWithdrawal', { params: { id } })
        expect(read.status).toBe(200)
      }),
    )
    await property(
      fc.asyncProperty(valid(bodySchema('createSplitCharge')), fc.boolean(), valid(bodySchema('sandboxRunSplit')), async (body, settle, run) => {
        const created = await call('createSplitCharge', { body: { ...(body as object), externalId: undefined } })
        const id = (created.body as { id: string }).id
        if (settle) expect((await call('advanceCharge', { params: { id }, body: { status: 'settled' } })).status).toBe(200)
        const split = await call('sandboxRunSplit', { params: { id }, body: run })
        expect([200, 409], JSON.stringify(split.body)).toContain(split.status)
      }),
    )
    const sent = (await checkDeliveredBodies('test')) + (await checkDeliveredBodies('live'))
    expect(sent).toBeGreaterThan(100)
    // A real charge's QR image: a PNG (drawing one costs more than the rest of a case, so a few).
    for (let i = 0; i < 5; i++) {
      const qr = await call('sandboxQrImage', { params: { id: await createCharge() } })
      expect(qr.status).toBe(200)
    }
  })

  it('covers every operation of the document with at least 100 cases', () => {
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => (op as OpenApiOperation).operationId))
    const few = ids.filter((id) => (cases.get(id) ?? 0) < RUNS).map((id) => `${id}: ${cases.get(id) ?? 0}`)
    expect(few).toEqual([])
  })
})
