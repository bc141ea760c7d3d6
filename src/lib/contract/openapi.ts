/**
 * The service as an OpenAPI 3.1 document (spec parts 2, 4, 5, 7, 8), derived from the zod
 * schemas of this folder with zod 4's own JSON Schema output: the document and the CLI's (and
 * the sandbox's) validation are the same rules, so they cannot drift. Pure: no I/O; `svc openapi`
 * prints it and the sandbox serves it (adding its own control routes, sandbox/openapi.ts).
 *
 * What the spec leaves "not shown" stays open: the payloads of the two operations part 4.8 only
 * names are open objects, the status of provider_unavailable and internal_error is the
 * `default` answer, and rules this project chose (tax-number check digits, no control
 * characters) are not written as constraints.
 */
import * as z from 'zod'
import { ERROR_CODES, STATUS_OF_CODE } from './errors.js'
import { ChargeAwaitingPaymentEvent, ChargeCanceledEvent, ChargeExpiredEvent, ChargeFailedEvent, ChargePaidPendingSettlementEvent, ChargeRefundedEvent, ChargeSettledEvent, ChargeTestEvent } from './event-schemas.js'
import { EVENT_TYPES, type EventType, WEBHOOK_HEADERS } from './event-types.js'
import { LIMITS } from './limits.js'
import {
  AccountSchema,
  AdvanceRequestSchema,
  AmountSchema,
  ChargeCreateRequestSchema,
  ChargeListQuerySchema,
  ChargeListSchema,
  ChargeSchema,
  ChargeStatusSchema,
  EnvironmentSchema,
  ErrorBodySchema,
  ErrorDetailSchema,
  EventSchema,
  IdempotencyKeySchema,
  MetadataSchema,
  PayerSchema,
  PixSchema,
  SettlementSchema,
  WebhookTestResponseSchema,
} from './schemas.js'

export type JsonSchema = Record<string, unknown>

export interface OpenApiOperation {
  operationId: string
  summary: string
  description?: string
  tags: string[]
  security?: Array<Record<string, string[]>>
  parameters?: JsonSchema[]
  requestBody?: JsonSchema
  responses: Record<string, JsonSchema>
  [extension: `x-${string}`]: unknown
}

export type OpenApiPathItem = Partial<Record<'get' | 'put' | 'post' | 'patch' | 'delete', OpenApiOperation>> & { parameters?: JsonSchema[] }

export interface OpenApiDocument {
  openapi: '3.1.0'
  info: JsonSchema
  jsonSchemaDialect: string
  servers: Array<{ url: string; description?: string; variables?: JsonSchema }>
  security: Array<Record<string, string[]>>
  tags: Array<{ name: string; description: string }>
  paths: Record<string, OpenApiPathItem>
  webhooks: Record<string, OpenApiPathItem>
  components: {
    securitySchemes: Record<string, JsonSchema>
    schemas: Record<string, JsonSchema>
    parameters: Record<string, JsonSchema>
    responses: Record<string, JsonSchema>
  }
}

/** What another server adds to the document (the sandbox: its control routes and its choices). */
export interface OpenApiExtension {
  servers?: OpenApiDocument['servers']
  tags?: OpenApiDocument['tags']
  /** More component schemas from zod, by name; a name the service has already is replaced (the sandbox's choices for 4.8). */
  schemas?: Record<string, z.ZodType>
  /** What JSON Schema cannot say about those schemas (a rule in a refine), added to their components. */
  schemaExtras?: Record<string, JsonSchema>
  paths?: Record<string, OpenApiPathItem>
  /** The body of more event types (by type: component name and zod schema); the others are the generic `Event`. */
  eventSchemas?: EventSchemas
  /** Text added to info.description. */
  description?: string
}

/** The body of an event type: its component's name and its zod schema. */
export type EventSchemas = Partial<Record<EventType, [name: string, schema: z.ZodType]>>

/**
 * The charge events carry the Charge of spec 2.2 (spec 2.8); the bodies of the split, withdrawal
 * and product events are only partly shown, so the service's document gives them the generic
 * Event (the sandbox's copy adds its own choices).
 */
const SERVICE_EVENT_SCHEMAS: EventSchemas = {
  'charge.awaiting_payment': ['ChargeAwaitingPaymentEvent', ChargeAwaitingPaymentEvent],
  'charge.paid_pending_settlement': ['ChargePaidPendingSettlementEvent', ChargePaidPendingSettlementEvent],
  'charge.settled': ['ChargeSettledEvent', ChargeSettledEvent],
  'charge.expired': ['ChargeExpiredEvent', ChargeExpiredEvent],
  'charge.canceled': ['ChargeCanceledEvent', ChargeCanceledEvent],
  'charge.failed': ['ChargeFailedEvent', ChargeFailedEvent],
  'charge.refunded': ['ChargeRefundedEvent', ChargeRefundedEvent],
  'charge.test': ['ChargeTestEvent', ChargeTestEvent],
}

/** `{ $ref }` to a component schema. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` }
}

/** A JSON body (a request's or an answer's). */
export function jsonContent(schema: JsonSchema): JsonSchema {
  return { 'application/json': { schema } }
}

/** An answer with the error shape of spec 2.9, by status (components.responses). */
export function errorRef(status: number | 'default'): JsonSchema {
  const name = ERROR_RESPONSE_NAMES[status]
  if (name) return { $ref: `#/components/responses/${name}` }
  // A status the service's operations do not give (the sandbox's 413): described where it is used.
  return { description: `${ERROR_DESCRIPTIONS[status as number] ?? 'An error.'} Codes: ${codesOf(status as number).join(', ') || '`invalid_request`'}.`, content: jsonContent(schemaRef('Error')) }
}

/** The error answers an operation gives, by status, plus `default` (any other status has the same shape). */
export function errorResponses(statuses: number[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {}
  for (const s of statuses) out[String(s)] = errorRef(s)
  out.default = errorRef('default')
  return out
}

const ERROR_RESPONSE_NAMES: Partial<Record<number | 'default', string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'PaymentRequired',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  429: 'RateLimited',
  default: 'Error',
}

/** The part 7 codes of each status, plus the ones this project chose (errors.ts), for the answers' descriptions. */
function codesOf(status: number): string[] {
  return Object.entries(STATUS_OF_CODE)
    .filter(([, s]) => s === status)
    .map(([code]) => code)
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid body or parameter; `details` has one item per rejected field.',
  401: 'Key absent, invalid or revoked.',
  402: 'The instant-payment provider refused.',
  403: 'Account not cleared to charge, or a sandbox-only operation called with a production key.',
  404: 'No such resource in this account and this environment.',
  409: 'Conflict with the state of the resource (see `error.code`).',
  413: 'The body is larger than the server takes.',
  429: 'Per-key rate limit reached; wait as `Retry-After` says.',
}

/** The service's component schemas (spec part 2), from contract/. */
function serviceSchemas(): Record<string, z.ZodType> {
  return {
    ChargeCreateRequest: ChargeCreateRequestSchema,
    Metadata: MetadataSchema,
    ChargeStatus: ChargeStatusSchema,
    Environment: EnvironmentSchema,
    Charge: ChargeSchema,
    Amount: AmountSchema,
    Pix: PixSchema,
    Settlement: SettlementSchema,
    Payer: PayerSchema,
    ChargeList: ChargeListSchema,
    Account: AccountSchema,
    AdvanceRequest: AdvanceRequestSchema,
    WebhookTestResponse: WebhookTestResponseSchema,
    Error: ErrorBodySchema,
    ErrorDetail: ErrorDetailSchema,
    Event: EventSchema,
    // Spec 4.8 names these operations; their payloads are "not shown": open objects.
    SplitChargeCreateRequest: z.looseObject({}),
    SplitCharge: z.looseObject({}),
    Withdrawal: z.looseObject({}),
    // Only to read the query parameters' schemas from (removed from the components).
    ChargeListQuery: ChargeListQuerySchema,
    IdempotencyKey: IdempotencyKeySchema,
  }
}

/** What JSON Schema cannot say about a zod schema, added to its component (values from limits.ts). */
const COMPONENT_EXTRAS: Record<string, JsonSchema> = {
  Metadata: { maxProperties: LIMITS.metadataEntriesMax, description: `At most ${LIMITS.metadataEntriesMax} entries; each value at most ${LIMITS.metadataValueMax} characters.` },
  ChargeCreateRequest: { description: "Spec 2.1. `payerTaxNumber`: the payer's CPF or CNPJ, with or without punctuation." },
  Charge: { description: 'Spec 2.2. `payer.taxNumber` comes masked.' },
  Error: { description: 'Spec 2.9: the same shape on every endpoint and every status. Clients branch on `error.code`; `message` may change.' },
  Event: { description: 'Spec 2.8: a webhook body. Charge events carry `data.charge` (the Charge); withdrawal events `data.withdrawal`.' },
  SplitChargeCreateRequest: { description: 'Spec 4.8: a charge request plus its destinations; the fields are not shown in the spec.' },
  SplitCharge: { description: 'Spec 4.8: a Charge with its split; the fields are not shown in the spec.' },
  Withdrawal: { description: 'Spec 4.8: the withdrawal record; its fields are not shown in the spec.' },
}

/** The zod schemas as JSON Schema 2020-12 components, referring to each other with `$ref`. */
function componentSchemas(schemas: Record<string, z.ZodType>, extras: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id })
  const out = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }).schemas as Record<string, JsonSchema>
  for (const [id, schema] of Object.entries(out)) {
    const { $schema: _s, $id: _i, ...rest } = schema
    out[id] = tidy({ ...rest, ...extras[id] }) as JsonSchema
  }
  return out
}

/**
 * Bounds the spec gives integers whose zod schema is a bare `.int()` (written out as ±2^53, which
 * says nothing): basis points are 0 to 10000 (a split's share at least 1), hours of hold are not
 * negative, amounts are int64 centavos (unbounded: a plan whose fee passes the gross makes a
 * negative net). By property name, wherever it occurs.
 */
const INTEGER_BOUNDS: Record<string, JsonSchema> = {
  feeBps: { minimum: 0, maximum: 10_000 },
  shareBps: { minimum: 1, maximum: 10_000 },
  delayHours: { minimum: 0 },
  settlementDelayHours: { minimum: 0 },
}
const CENTAVOS: JsonSchema = { format: 'int64' }

/**
 * What zod writes that a reader of the document is better without: the ~300-character regex it
 * puts beside `format: date-time` (the format says it, and generators read the format), and the
 * ±2^53 bounds of every `.int()` (replaced by the spec's bounds above, where it gives some).
 */
function tidy(node: unknown, property?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => tidy(n))
  if (node === null || typeof node !== 'object') return node
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as JsonSchema).map(([name, v]) => [name, tidy(v, name)])) : tidy(value)
  }
  if (out.format === 'date-time' && typeof out.pattern === 'string') delete out.pattern
  if (out.type === 'integer') {
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum
    const bounds = property === undefined ? undefined : (INTEGER_BOUNDS[property] ?? (property.endsWith('InCents') ? CENTAVOS : undefined))
    for (const [k, v] of Object.entries(bounds ?? {})) out[k] ??= v
  }
  return out
}

function queryParameters(query: JsonSchema): JsonSchema[] {
  const properties = query.properties as Record<string, JsonSchema>
  const notes: Record<string, string> = {
    externalId: 'The exact order id.',
    status: 'One of the eight charge states.',
    createdAfter: 'Charges created after this instant.',
    createdBefore: 'Charges created before this instant.',
    startingAfter: 'The `id` of the last charge of the previous page.',
    limit: `Page size, ${LIMITS.listLimitMin} to ${LIMITS.listLimitMax}.`,
  }
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    description: notes[name],
    schema: name === 'limit' ? { ...schema, default: LIMITS.listLimitDefault } : schema,
  }))
}

const idParameter = (what: string): JsonSchema => ({ name: 'id', in: 'path', required: true, description: `The ${what}'s id, as returned at creation.`, schema: { type: 'string' } })

function chargeAnswer(description: string, links = false): JsonSchema {
  return { description, content: jsonContent(schemaRef('Charge')), ...(links ? { links: CHARGE_LINKS } : {}) }
}

/** Where a created charge leads (the create → get → cancel/advance sequences). */
const CHARGE_LINKS = {
  GetCharge: { operationId: 'getCharge', parameters: { id: '$response.body#/id' }, description: 'Read the charge (the authority).' },
  CancelCharge: { operationId: 'cancelCharge', parameters: { id: '$response.body#/id' }, description: 'Cancel it while unpaid.' },
  AdvanceCharge: { operationId: 'advanceCharge', parameters: { id: '$response.body#/id' }, description: 'Move a test charge (sandbox only).' },
}

function servicePaths(): Record<string, OpenApiPathItem> {
  const charges = ['charges']
  return {
    '/v1/charges': {
      post: {
        operationId: 'createCharge',
        summary: 'Create a charge',
        description:
          'Spec 4.1: creates a charge and returns its QR code and copy-and-paste string. 201 when created now; 200 with the ' +
          'same charge when the same `externalId` (or `Idempotency-Key`) already created it with the same body.',
        tags: charges,
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: { required: true, content: jsonContent(schemaRef('ChargeCreateRequest')) },
        responses: {
          '200': chargeAnswer('The charge this `externalId` or `Idempotency-Key` already created (nothing duplicated).', true),
          '201': chargeAnswer('The charge, created now.', true),
          ...errorResponses([400, 401, 402, 403, 409, 429]),
        },
      },
      get: {
        operationId: 'listCharges',
        summary: 'List charges',
        description: 'Spec 4.2: newest first, cursor pagination (pass the `id` of the last charge as `startingAfter` while `hasMore`).',
        tags: charges,
        parameters: LIST_PARAMETER_NAMES.map((n) => ({ $ref: `#/components/parameters/ChargeList${cap(n)}` })),
        responses: { '200': { description: 'A page of charges.', content: jsonContent(schemaRef('ChargeList')) }, ...errorResponses([400, 401, 429]) },
      },
    },
    '/v1/charges/{id}': {
      get: {
        operationId: 'getCharge',
        summary: 'Read a charge',
        description: 'Spec 4.3: the authority on a charge; confirm here before releasing goods.',
        tags: charges,
        parameters: [idParameter('charge')],
        responses: { '200': chargeAnswer('The charge.'), ...errorResponses([401, 404, 429]) },
      },
    },
    '/v1/charges/{id}/cancel': {
      post: {
        operationId: 'cancelCharge',
        summary: 'Cancel an unpaid charge',
        description: 'Spec 4.4: no body. The QR stays technically payable: if it is paid anyway, the payment prevails.',
        tags: charges,
        parameters: [idParameter('charge')],
        responses: { '200': chargeAnswer('The charge, canceled.'), ...errorResponses([401, 404, 409, 429]) },
      },
    },
    '/v1/account': {
      get: {
        operationId: 'getAccount',
        summary: 'Read the account',
        description: 'Spec 4.5: merchant, plan and current fee, charge limits and settlement hold, for the environment of the key.',
        tags: ['account'],
        responses: { '200': { description: 'The account.', content: jsonContent(schemaRef('Account')) }, ...errorResponses([401, 429]) },
      },
    },
    '/v1/webhooks/test': {
      post: {
        operationId: 'sendTestWebhook',
        summary: 'Send a test event',
        description: 'Spec 4.6: sends a signed `charge.test` event to the webhook URL of the environment. No body.',
        tags: ['webhooks'],
        responses: { '202': { description: 'Accepted; `eventId` is the `id` of the event delivered.', content: jsonContent(schemaRef('WebhookTestResponse')) }, ...errorResponses([401, 404, 429]) },
      },
    },
    '/v1/test/charges/{id}/advance': {
      post: {
        operationId: 'advanceCharge',
        summary: 'Advance a test charge',
        description: 'Spec 4.7: only with a `svc_test_` key; moves a test charge to the requested state without money.',
        tags: charges,
        parameters: [idParameter('charge')],
        requestBody: { required: true, content: jsonContent(schemaRef('AdvanceRequest')) },
        responses: { '200': chargeAnswer('The charge in its new state.'), ...errorResponses([400, 401, 403, 404, 409, 429]) },
      },
    },
    '/v1/withdrawals/{id}': {
      get: {
        operationId: 'getWithdrawal',
        summary: 'Read a withdrawal',
        description: 'Spec 4.8: named by the withdrawal events; its parameters and answer are not shown in the spec.',
        tags: ['withdrawals'],
        parameters: [idParameter('withdrawal')],
        responses: { '200': { description: 'The withdrawal.', content: jsonContent(schemaRef('Withdrawal')) }, ...errorResponses([401, 404, 429]) },
      },
    },
    '/v1/split-charges': {
      post: {
        operationId: 'createSplitCharge',
        summary: 'Create a split charge',
        description: 'Spec 4.8: named by the split events; its payload and answer are not shown in the spec.',
        tags: charges,
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: { required: true, content: jsonContent(schemaRef('SplitChargeCreateRequest')) },
        responses: {
          '200': { description: 'The split charge this request already created.', content: jsonContent(schemaRef('SplitCharge')) },
          '201': { description: 'The split charge, created now.', content: jsonContent(schemaRef('SplitCharge')) },
          ...errorResponses([400, 401, 402, 403, 409, 429]),
        },
      },
    },
  }
}

const LIST_PARAMETER_NAMES = Object.keys(ChargeListQuerySchema.shape)

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1)
}

/** Spec part 6: what the service sends to the merchant's URL (OpenAPI 3.1 `webhooks`). */
function webhooks(events: EventSchemas): Record<string, OpenApiPathItem> {
  const header = (name: string, description: string, schema: JsonSchema): JsonSchema => ({ name, in: 'header', required: true, description, schema })
  const steps = LIMITS.webhookRetryStepsSeconds.join(', ')
  const delivery = (operationId: string, summary: string, type: string | undefined, body: string): OpenApiPathItem => ({
    post: {
      operationId,
      summary,
      description:
        'Spec 6: on every state change the service POSTs the event to the URL configured for the environment, signed with the ' +
        'webhook secret: `X-SVC-Signature` is `v1=` and the lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>`. Verify ' +
        `against the raw body, in constant time, and reject a timestamp more than ${LIMITS.webhookToleranceSeconds} s from your clock. ` +
        `Only a 2xx is success; a delivery times out after ${LIMITS.webhookTimeoutMs / 1000} s; retries wait ${steps} seconds, within ` +
        `${LIMITS.webhookRetryWindowSeconds / 3600} hours. Delivery is at-least-once: deduplicate by \`id\`, answer 2xx to unknown types, ` +
        'and confirm with `GET /v1/charges/{id}` before releasing goods.',
      tags: ['webhooks'],
      security: [],
      parameters: [
        header(WEBHOOK_HEADERS.eventId, 'The event id (deduplicate by it).', { type: 'string' }),
        header(WEBHOOK_HEADERS.eventType, type ? `\`${type}\`.` : `The event type: ${EVENT_TYPES.join(', ')}, or a type added later.`, type ? { type: 'string', const: type } : { type: 'string' }),
        header(WEBHOOK_HEADERS.timestamp, `Epoch seconds; reject a delivery more than ${LIMITS.webhookToleranceSeconds} seconds from your clock.`, { type: 'integer' }),
        header(WEBHOOK_HEADERS.signature, 'HMAC-SHA256 over `<timestamp>.<raw body>` with the webhook secret.', { type: 'string', pattern: '^v1=[0-9a-f]{64}$' }),
      ],
      requestBody: { required: true, content: jsonContent(schemaRef(body)) },
      responses: { '200': { description: 'Any 2xx: received (a 3xx is a failure).' }, '400': { description: 'Any other status is a failure: the service retries.' } },
      'x-svc-delivery': {
        timestampToleranceSeconds: LIMITS.webhookToleranceSeconds,
        timeoutSeconds: LIMITS.webhookTimeoutMs / 1000,
        retryStepsSeconds: [...LIMITS.webhookRetryStepsSeconds],
        retryWindowSeconds: LIMITS.webhookRetryWindowSeconds,
      },
    },
  })
  const out: Record<string, OpenApiPathItem> = { event: delivery('receiveEvent', 'Any event, a type added later included', undefined, 'Event') }
  for (const type of EVENT_TYPES) {
    const operationId = `receive${type.split(/[._]/).map(cap).join('')}`
    out[type] = delivery(operationId, `The \`${type}\` event`, type, events[type]?.[0] ?? 'Event')
  }
  return out
}

function errorComponents(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {}
  for (const [status, name] of Object.entries(ERROR_RESPONSE_NAMES)) {
    const codes = status === 'default' ? [] : codesOf(Number(status))
    const description =
      status === 'default'
        ? `Any other error, in the same shape: \`internal_error\`, \`provider_unavailable\` (their statuses are not shown in the spec), or a status added later. Codes of spec 7: ${ERROR_CODES.join(', ')}.`
        : `${ERROR_DESCRIPTIONS[Number(status)]}${codes.length ? ` Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.` : ''}`
    const retryAfter =
      status === '429' || status === '409'
        ? {
            headers: {
              'Retry-After': {
                description: status === '409' ? `Seconds to wait: ${LIMITS.chargeProcessingRetryMs / 1000} for \`charge_processing\`.` : 'Seconds to wait before the next request.',
                schema: { type: 'integer', minimum: 0, ...(status === '409' ? { examples: [LIMITS.chargeProcessingRetryMs / 1000] } : {}) },
              },
            },
          }
        : {}
    out[name!] = { description, ...retryAfter, content: jsonContent(schemaRef('Error')) }
  }
  return out
}

/** The service's document; `extension` adds another server's routes and choices (the sandbox's). */
export function buildOpenApiDocument(extension: OpenApiExtension = {}): OpenApiDocument {
  const events: EventSchemas = { ...SERVICE_EVENT_SCHEMAS, ...extension.eventSchemas }
  const eventComponents = Object.fromEntries(Object.values(events).map(([name, schema]) => [name, schema]))
  const schemas = componentSchemas({ ...serviceSchemas(), ...eventComponents, ...extension.schemas }, { ...COMPONENT_EXTRAS, ...extension.schemaExtras })
  const query = schemas.ChargeListQuery!
  const idempotencyKey = schemas.IdempotencyKey!
  delete schemas.ChargeListQuery
  delete schemas.IdempotencyKey
  const parameters: Record<string, JsonSchema> = {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Safe network retry: repeating the request with the same key returns the original charge.',
      schema: idempotencyKey,
    },
  }
  for (const p of queryParameters(query)) parameters[`ChargeList${cap(String(p.name))}`] = p
  return {
    openapi: '3.1.0',
    info: {
      title: 'Merchant Charge Service',
      version: '1.0.0',
      summary: 'Instant-payment (Pix) charges, settled as an asset on a blockchain after an anti-fraud hold.',
      description:
        'Generated from the zod contract of svc-cli (`svc openapi`), the same rules the CLI and its sandbox validate with. ' +
        'All amounts are integers in centavos. The API key selects the environment (`svc_live_` or `svc_test_`); a charge ' +
        'exists only in the environment where it was created. Release goods at `settled`, never at `paid_pending_settlement`.' +
        (extension.description ? `\n\n${extension.description}` : ''),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: extension.servers ?? [
      {
        url: '{baseUrl}',
        description: 'The service base address (one address serves live and test: the key decides).',
        variables: { baseUrl: { default: 'http://127.0.0.1:8787', description: 'The base address; the default is a local sandbox (`svc sandbox start`).' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'charges', description: 'Charges: create, list, read, cancel, and the sandbox advance.' },
      { name: 'account', description: 'The merchant account of the key.' },
      { name: 'webhooks', description: 'Signed event deliveries to the merchant (spec 6).' },
      { name: 'withdrawals', description: 'Withdrawals (spec 4.8, named only).' },
      ...(extension.tags ?? []),
    ],
    paths: { ...servicePaths(), ...extension.paths },
    webhooks: webhooks(events),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key: `svc_live_…` (production) or `svc_test_…` (sandbox). A missing, invalid or revoked key gives 401.',
        },
      },
      schemas,
      parameters,
      responses: errorComponents(),
    },
  }
}
