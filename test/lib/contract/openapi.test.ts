/**
 * The OpenAPI document (CLI.md 0.4, "Every language"): derived from the zod contract, so every
 * limit of spec part 8 (contract/limits.ts) is found in it where it applies; every operation has
 * bearer security and the error shape on every error status; what the spec leaves "not shown"
 * stays open; and every route of the sandbox's tables is in the sandbox's copy.
 */
import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument, type JsonSchema, type OpenApiDocument } from '../../../src/lib/contract/openapi.js'
import { EVENT_TYPES } from '../../../src/lib/contract/event-types.js'
import { LIMITS } from '../../../src/lib/contract/limits.js'
import { ChargeCreateRequestSchema } from '../../../src/lib/contract/schemas.js'
import { API_ROUTES } from '../../../src/lib/sandbox/http/api-routes.js'
import { openApiPath, sandboxOpenApiDocument, undocumentedRoutes } from '../../../src/lib/sandbox/http/openapi.js'
import { PANEL_ROUTES } from '../../../src/lib/sandbox/http/panel-routes.js'

const doc = buildOpenApiDocument()

/** Follows `$ref`s inside the document. */
function deref(d: OpenApiDocument, node: JsonSchema): JsonSchema {
  let n = node
  while (typeof n.$ref === 'string') {
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<JsonSchema>((o, k) => o[k] as JsonSchema, d as unknown as JsonSchema)
  }
  return n
}

const schema = (name: string) => doc.components.schemas[name]!
const prop = (name: string, field: string) => deref(doc, (schema(name).properties as Record<string, JsonSchema>)[field]!)
const param = (name: string) => doc.components.parameters[name]!.schema as JsonSchema
const delivery = doc.webhooks.event!.post!['x-svc-delivery'] as Record<string, unknown>

/** Where each limit of limits.ts is in the document: a new limit without a line here fails. */
const WHERE: Record<keyof typeof LIMITS, () => unknown[]> = {
  amountMin: () => [prop('ChargeCreateRequest', 'amountInCents').minimum],
  amountMax: () => [prop('ChargeCreateRequest', 'amountInCents').maximum],
  externalIdMax: () => [prop('ChargeCreateRequest', 'externalId').maxLength, param('ChargeListExternalId').maxLength],
  idempotencyKeyMax: () => [param('IdempotencyKey').maxLength],
  payerNameMax: () => [prop('ChargeCreateRequest', 'payerName').maxLength],
  descriptionMax: () => [prop('ChargeCreateRequest', 'description').maxLength],
  metadataEntriesMax: () => [schema('Metadata').maxProperties],
  metadataValueMax: () => [(schema('Metadata').additionalProperties as JsonSchema).maxLength],
  listLimitMin: () => [param('ChargeListLimit').minimum],
  listLimitMax: () => [param('ChargeListLimit').maximum],
  listLimitDefault: () => [param('ChargeListLimit').default],
  webhookToleranceSeconds: () => [delivery.timestampToleranceSeconds],
  webhookTimeoutMs: () => [(delivery.timeoutSeconds as number) * 1000],
  webhookRetryStepsSeconds: () => [delivery.retryStepsSeconds],
  webhookRetryWindowSeconds: () => [delivery.retryWindowSeconds],
  chargeProcessingRetryMs: () => [((doc.components.responses.Conflict!.headers as Record<string, JsonSchema>)['Retry-After']!.schema as { examples: number[] }).examples[0]! * 1000],
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const

function operations(d: OpenApiDocument) {
  return Object.entries(d.paths).flatMap(([path, item]) => METHODS.flatMap((m) => (item[m] ? [{ path, method: m, op: item[m]! }] : [])))
}

describe('the OpenAPI document', () => {
  it.each(Object.keys(LIMITS) as Array<keyof typeof LIMITS>)('holds the limit %s of contract/limits.ts where it applies', (name) => {
    const found = WHERE[name]()
    expect(found.length).toBeGreaterThan(0)
    for (const value of found) expect(value).toEqual(LIMITS[name])
  })

  it('is OpenAPI 3.1 with bearer security on every /v1 operation', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    for (const { op } of operations(doc)) expect(op.security).toBeUndefined()
  })

  it('has every /v1 route of the sandbox, and the required fields and enums of spec part 2', () => {
    for (const r of API_ROUTES) {
      const { path } = openApiPath(r.pattern)
      expect(doc.paths[path]?.[r.method.toLowerCase() as 'get'], `${r.method} ${path}`).toBeDefined()
    }
    expect(schema('ChargeCreateRequest').required).toEqual(['amountInCents', 'payerTaxNumber'])
    expect(schema('Charge').required).toEqual(expect.arrayContaining(['id', 'status', 'environment', 'amount', 'pix', 'settlement', 'payer', 'createdAt', 'updatedAt']))
    expect(schema('Amount').required).toEqual(['grossInCents', 'feeBps', 'feeFixedInCents', 'feeInCents', 'netInCents'])
    expect(schema('ChargeStatus').enum).toEqual(['created', 'awaiting_payment', 'paid_pending_settlement', 'settled', 'expired', 'canceled', 'failed', 'refunded'])
    expect(prop('AdvanceRequest', 'status').enum).toEqual(['paid_pending_settlement', 'settled', 'expired', 'refunded'])
    expect(schema('Error').required).toEqual(['error'])
    expect(prop('Error', 'error').required).toEqual(['code', 'message', 'requestId'])
  })

  it('gives the error shape on every error status of every operation, and a default for the rest', () => {
    for (const d of [doc, sandboxOpenApiDocument('http://127.0.0.1:1')]) {
      for (const { path, method, op } of operations(d)) {
        const errors = Object.entries(op.responses).filter(([status]) => status === 'default' || Number(status) >= 400)
        expect(
          errors.map(([s]) => s),
          `${method} ${path}`,
        ).toContain('default')
        for (const [status, response] of errors) {
          const content = deref(d, response).content as Record<string, { schema: JsonSchema }>
          expect(content['application/json']!.schema, `${method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' })
        }
      }
    }
  })

  it('leaves open what the spec does not show: 4.8 payloads, the status of internal_error, the check-digit and text rules', () => {
    for (const name of ['SplitChargeCreateRequest', 'SplitCharge', 'Withdrawal']) expect(schema(name)).toMatchObject({ type: 'object', additionalProperties: {} })
    expect(schema('SplitCharge').properties).toEqual({})
    expect(schema('SplitCharge').required).toBeUndefined()
    expect(doc.components.responses.Error!.description).toContain('internal_error')
    expect(prop('ChargeCreateRequest', 'payerTaxNumber')).toEqual({ type: 'string', minLength: 1 })
    expect(prop('ChargeCreateRequest', 'payerName')).toEqual({ type: 'string', maxLength: LIMITS.payerNameMax })
    // The CLI's own validation is stricter (it refuses a bad CPF): the document does not invent that rule for the service.
    expect(ChargeCreateRequestSchema.safeParse({ amountInCents: 1500, payerTaxNumber: '111' }).success).toBe(false)
  })

  it('describes the webhook body of every event type of spec 6.3, and any type added later', () => {
    const bodyOf = (d: OpenApiDocument, type: string) => ((d.webhooks[type]!.post!.requestBody!.content as Record<string, { schema: JsonSchema }>)['application/json']!.schema as { $ref: string }).$ref
    const sandbox = sandboxOpenApiDocument('http://127.0.0.1:1')
    for (const type of EVENT_TYPES) {
      expect(bodyOf(doc, type), type).toEqual(type.startsWith('charge.') && !type.startsWith('charge.split') ? expect.stringMatching(/Event$/) : '#/components/schemas/Event')
      expect(bodyOf(sandbox, type), type).not.toBe('#/components/schemas/Event')
    }
    expect(bodyOf(doc, 'event')).toBe('#/components/schemas/Event')
    expect(bodyOf(doc, 'charge.settled')).toBe('#/components/schemas/ChargeSettledEvent')
    expect((schema('ChargeSettledEvent').properties as Record<string, JsonSchema>).data).toMatchObject({ properties: { charge: { $ref: '#/components/schemas/Charge' } } })
  })

  it("the sandbox's copy: its address, its choices for 4.8, and every control route under the sandbox tag", () => {
    const s = sandboxOpenApiDocument('http://127.0.0.1:4567')
    expect(s.servers).toEqual([{ url: 'http://127.0.0.1:4567', description: 'This local sandbox.' }])
    expect(undocumentedRoutes()).toEqual([])
    for (const r of PANEL_ROUTES) {
      const { path } = openApiPath(`/_sandbox${r.pattern}`)
      expect(s.paths[path]?.[r.method.toLowerCase() as 'get']?.tags, `${r.method} ${path}`).toEqual(['sandbox'])
    }
    expect(s.paths['/openapi.json']!.get!.security).toEqual([])
    expect((s.components.schemas.SplitChargeCreateRequest!.required as string[]).sort()).toEqual(['amountInCents', 'payerTaxNumber', 'split'])
    expect(s.components.schemas.Withdrawal!.required).toContain('status')
    // The service's part is the same object.
    expect(s.paths['/v1/charges']).toEqual(doc.paths['/v1/charges'])
    expect(s.components.schemas.Charge).toEqual(doc.components.schemas.Charge)
  })

  it('types every JSON answer of the sandbox control routes: no bare {type: object} (issue 36.23)', () => {
    const s = sandboxOpenApiDocument('http://127.0.0.1:1')
    const bare: string[] = []
    for (const [path, item] of Object.entries(s.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, { responses: Record<string, JsonSchema> }>)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          const json = (deref(s, answer).content as Record<string, { schema: JsonSchema }> | undefined)?.['application/json']?.schema
          if (json && deref(s, json).type === 'object' && deref(s, json).properties === undefined && !['SplitCharge', 'Withdrawal'].some((n) => json.$ref === `#/components/schemas/${n}`))
            bare.push(`${method} ${path} ${status}`)
        }
      }
    }
    expect(bare).toEqual([])
    const answerOf = (path: string, method: string, status: string) => deref(s, (s.paths[path] as Record<string, { responses: Record<string, JsonSchema> }>)[method]!.responses[status]!)
    const schemaOf = (path: string, method: string, status: string) => deref(s, (answerOf(path, method, status).content as Record<string, { schema: JsonSchema }>)['application/json']!.schema)
    expect(schemaOf('/_sandbox/clock', 'get', '200')).toMatchObject({ required: ['now', 'speed'], properties: { now: { type: 'string', format: 'date-time' } } })
    expect(schemaOf('/_sandbox/account', 'patch', '200').properties).toMatchObject({ feeBps: { minimum: 0, maximum: 10_000 }, settlementDelayHours: { minimum: 0 } })
    expect(schemaOf('/_sandbox/deliveries', 'get', '200').properties).toHaveProperty('hasMore')
    expect(schemaOf('/_sandbox/export', 'get', '200').properties).toHaveProperty('tables')
  })

  it('writes date-time as a format without a regex beside it, and bounds integers as the spec does, not ±2^53 (issue 36.23)', () => {
    for (const d of [doc, sandboxOpenApiDocument('http://127.0.0.1:1')]) {
      const text = JSON.stringify(d)
      expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER))
      const dateTimes: JsonSchema[] = []
      const walk = (n: unknown): void => {
        if (n === null || typeof n !== 'object') return
        if ((n as JsonSchema).format === 'date-time') dateTimes.push(n as JsonSchema)
        for (const v of Object.values(n)) walk(v)
      }
      walk(d)
      expect(dateTimes.length).toBeGreaterThan(10)
      for (const t of dateTimes) expect(t.pattern).toBeUndefined()
    }
    expect(prop('Amount', 'feeBps')).toEqual({ type: 'integer', minimum: 0, maximum: 10_000 })
    expect(prop('Account', 'settlementDelayHours')).toEqual({ type: 'integer', minimum: 0 })
    expect(prop('Settlement', 'delayHours')).toEqual({ type: 'integer', minimum: 0 })
    expect(prop('Amount', 'netInCents')).toEqual({ type: 'integer', format: 'int64' })
    expect(prop('ChargeCreateRequest', 'amountInCents')).toMatchObject({ minimum: LIMITS.amountMin, maximum: LIMITS.amountMax })
    expect(prop('Charge', 'createdAt')).toEqual({ type: 'string', format: 'date-time' })
  })
})
