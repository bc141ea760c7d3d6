/**
 * The sandbox's copy of the OpenAPI document (`GET /openapi.json`, no key): the service's
 * document (contract/openapi.ts) with this server's address, its choices for what spec 4.8 leaves
 * "not shown" (the split-charge and withdrawal payloads, from their zod schemas), and its control
 * routes under the `sandbox` tag, described from its own route tables (panel-routes.ts,
 * api-routes.ts) and request schemas (contract/panel-requests.ts), so a test suite in any
 * language can drive the clock, triggers, deliveries and settings over HTTP.
 */
import type { IncomingMessage } from 'node:http'
import * as z from 'zod'
import { buildOpenApiDocument, errorResponses, type JsonSchema, jsonContent, type OpenApiDocument, type OpenApiOperation, type OpenApiPathItem, schemaRef } from '../../contract/openapi.js'
import { AccountPatchSchema, ClockAdvanceSchema, KeyCreateSchema, KeyRevokeSchema, SplitRunSchema, WebhookPutSchema, WithdrawalAdvanceSchema } from '../../contract/panel-requests.js'
import { ChargeSplitCompletedEvent, ChargeSplitFailedEvent, ProductPaidEvent, WithdrawalFailedEvent, WithdrawalPaidEvent, WithdrawalProcessingEvent } from '../../contract/event-schemas.js'
import { DELIVERY_VIEW_STATES } from '../../contract/panel.js'
import { ProductPaymentSchema, ProductSaleRequestSchema } from '../../contract/product-sales.js'
import { SandboxStateSchema } from '../../contract/sandbox-state.js'
import { SplitChargeCreateRequestSchema, SplitChargeSchema } from '../../contract/split-charges.js'
import { WithdrawalCreateRequestSchema, WithdrawalSchema } from '../../contract/withdrawals.js'
import { OPEN_ROUTES } from './api-routes.js'
import { type Answer, readBody } from './http-io.js'
import { PANEL_ROUTES } from './panel-routes.js'
import type { Route } from './router.js'
import type { SandboxServerDeps } from './server-deps.js'

const instant = z.iso.datetime({ offset: true })
const env = z.enum(['test', 'live'])

/**
 * The answers of the control routes (contract/panel.ts's wire shapes, as zod for the document):
 * typed, so a client generated from the document reads them without casts.
 */
const SandboxWebhookEndpoint = z.object({
  environment: env,
  url: z.string(),
  active: z.boolean(),
  deactivatedAt: instant.optional().describe('When it was deactivated after 24 h without a success.'),
  lastSuccessAt: instant.optional(),
})
const SandboxAttempt = z.object({
  attempt: z.int().min(1),
  at: instant,
  url: z.string(),
  status: z.int().min(100).max(599).optional(),
  error: z.string().optional(),
  response: z.string().optional(),
  durationMs: z.int().min(0),
  manual: z.boolean().describe('A resend from the panel rather than the retry schedule.'),
  injected: z.array(z.string()).optional().describe('Faults `--webhook-faults` injected into this attempt.'),
})
const SandboxDelivery = z.object({
  eventId: z.string(),
  type: z.string(),
  environment: env,
  url: z.string(),
  attempts: z.int().min(0),
  lastStatus: z.int().min(100).max(599).optional(),
  lastError: z.string().optional(),
  lastResponse: z.string().optional(),
  nextRetryAt: instant.optional(),
  state: z.enum(DELIVERY_VIEW_STATES),
  createdAt: instant,
  firstAttemptAt: instant.optional(),
  body: z.string().describe('The exact bytes sent.'),
  injected: z.array(z.string()).optional(),
  attemptLog: z.array(SandboxAttempt).optional().describe('Every attempt, oldest first (only when filtered by `eventId`).'),
})
const SandboxKey = z.object({
  key: z.string().describe('Masked, except in the answer that creates it.'),
  environment: env,
  revoked: z.boolean(),
  createdAt: instant,
})
const SandboxAccountSettings = z.object({
  feeBps: z.int().min(0).max(10_000),
  feeFixedInCents: z.int().min(0),
  settlementDelayHours: z.int().min(0),
  activated: z.boolean(),
  blocked: z.boolean(),
  merchantIdPresent: z.boolean(),
  qrValiditySeconds: z.int().min(1),
  holdSettlements: z.boolean().optional(),
})
const SandboxClock = z.object({ now: instant, speed: z.number().positive().describe('Sandbox seconds per wall second.') })
const SandboxEventLog = z.object({
  data: z.array(
    z.object({
      seq: z.int().min(1),
      id: z.string(),
      type: z.string(),
      environment: env,
      createdAt: instant,
      resource: z.string().optional().describe('`charge:<id>`, `withdrawal:<id>`…'),
    }),
  ),
  lastSeq: z.int().min(0),
})
const SandboxInfo = z.object({ sandbox: z.literal(true), version: z.string(), now: instant, speed: z.number().positive(), instance: z.string().optional() })

/** The request bodies and answers of the control routes, as components. */
const SANDBOX_SCHEMAS: Record<string, z.ZodType> = {
  SandboxWebhookEndpoint,
  SandboxWebhookRemoved: z.object({ environment: env, removed: z.literal(true) }),
  SandboxDeliveryList: z.object({ data: z.array(SandboxDelivery), hasMore: z.boolean() }),
  SandboxResendAccepted: z.object({ eventId: z.string() }),
  SandboxKey,
  SandboxKeyList: z.object({ data: z.array(SandboxKey) }),
  SandboxAccountSettings,
  SandboxResetDone: z.object({ reset: z.literal(true) }),
  SandboxPanelLink: z.object({ url: z.string().describe('One-time, valid 60 s.') }),
  SandboxClock,
  SandboxClockAdvanced: z.object({ now: instant }),
  SandboxProductSaleCreated: z.object({ productPayment: ProductPaymentSchema, eventId: z.string() }),
  SandboxEventLog,
  SandboxState: SandboxStateSchema,
  SandboxInfo,
  SandboxOpenApiDocument: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.looseObject({}) }),
  SandboxWebhookPut: WebhookPutSchema,
  SandboxKeyCreate: KeyCreateSchema,
  SandboxKeyRevoke: KeyRevokeSchema,
  SandboxAccountPatch: AccountPatchSchema,
  SandboxClockAdvance: ClockAdvanceSchema,
  SandboxWithdrawalCreate: WithdrawalCreateRequestSchema,
  SandboxWithdrawalAdvance: WithdrawalAdvanceSchema,
  SandboxSplitRun: SplitRunSchema,
  SandboxProductSale: ProductSaleRequestSchema,
  // The sandbox's choices where spec 4.8 says "not shown".
  SplitChargeCreateRequest: SplitChargeCreateRequestSchema,
  SplitCharge: SplitChargeSchema,
  Withdrawal: WithdrawalSchema,
}

interface RouteDoc {
  operationId: string
  summary: string
  description?: string
  /** The body's component schema; `optional` when an empty body is taken. */
  body?: { schema: string; optional?: boolean }
  query?: JsonSchema[]
  status: number
  answer: string
  /** Its answer's component schema (a test keeps every JSON answer typed). */
  answerSchema?: string
  errors: number[]
}

const q = (name: string, description: string, schema: JsonSchema): JsonSchema => ({ name, in: 'query', required: false, description, schema })

/** What each control route is, by `METHOD pattern` of its table (paths below `/_sandbox`). */
const PANEL_DOCS: Record<string, RouteDoc> = {
  'GET /webhook': {
    operationId: 'sandboxGetWebhook',
    summary: 'Read the webhook URL of an environment',
    status: 200,
    answer: 'The endpoint: environment, url, active.',
    answerSchema: 'SandboxWebhookEndpoint',
    errors: [401, 404],
  },
  'PUT /webhook': {
    operationId: 'sandboxSetWebhook',
    summary: 'Set the webhook URL of an environment',
    description: 'Saving it again reactivates an endpoint deactivated after 24 h without success (spec 6.4 item 8).',
    body: { schema: 'SandboxWebhookPut' },
    status: 200,
    answer: 'The endpoint.',
    answerSchema: 'SandboxWebhookEndpoint',
    errors: [400, 401],
  },
  'DELETE /webhook': {
    operationId: 'sandboxRemoveWebhook',
    summary: 'Remove the webhook URL of an environment',
    status: 200,
    answer: '`{environment, removed: true}`.',
    answerSchema: 'SandboxWebhookRemoved',
    errors: [401, 404],
  },
  'GET /deliveries': {
    operationId: 'sandboxListDeliveries',
    summary: 'The delivery log',
    description: 'Newest first: event id, type, URL, attempts, last status, next retry, state, the body sent; with `eventId`, every attempt.',
    query: [q('eventId', 'Only this event’s deliveries (with their attempts).', { type: 'string' }), q('limit', 'At most this many rows.', { type: 'integer', minimum: 1, maximum: 1000 })],
    status: 200,
    answer: '`{data: [delivery], hasMore}`.',
    answerSchema: 'SandboxDeliveryList',
    errors: [400, 401],
  },
  'POST /deliveries/:eventId/resend': {
    operationId: 'sandboxResendDelivery',
    summary: 'Resend a delivery (same event id)',
    status: 202,
    answer: '`{eventId}`.',
    answerSchema: 'SandboxResendAccepted',
    errors: [401, 404],
  },
  'GET /keys': { operationId: 'sandboxListKeys', summary: 'List the API keys (masked)', status: 200, answer: '`{data: [key]}`.', answerSchema: 'SandboxKeyList', errors: [401] },
  'POST /keys': {
    operationId: 'sandboxCreateKey',
    summary: 'Create an API key',
    description: 'The one answer that shows the key in full.',
    body: { schema: 'SandboxKeyCreate', optional: true },
    status: 201,
    answer: 'The key.',
    answerSchema: 'SandboxKey',
    errors: [400, 401],
  },
  'POST /keys/revoke': {
    operationId: 'sandboxRevokeKey',
    summary: 'Revoke an API key',
    body: { schema: 'SandboxKeyRevoke' },
    status: 200,
    answer: 'The key, revoked (masked).',
    answerSchema: 'SandboxKey',
    errors: [400, 401, 404],
  },
  'GET /account': {
    operationId: 'sandboxGetSettings',
    summary: 'Read the account settings',
    status: 200,
    answer: 'Plan, fees, hold, activation flags, QR validity, whether settlements are held.',
    answerSchema: 'SandboxAccountSettings',
    errors: [401],
  },
  'PATCH /account': {
    operationId: 'sandboxUpdateSettings',
    summary: 'Change the account settings',
    description:
      'Plan percentage, fixed fee, settlement hold, activation flags and QR validity, for new charges; holdSettlements keeps paid charges in paid_pending_settlement past their estimate (a late settlement to rehearse).',
    body: { schema: 'SandboxAccountPatch' },
    status: 200,
    answer: 'The settings.',
    answerSchema: 'SandboxAccountSettings',
    errors: [400, 401],
  },
  'POST /reset': {
    operationId: 'sandboxReset',
    summary: 'Empty the data',
    description: 'Charges, events, deliveries, withdrawals and sales go; keys, secret, plan, webhook URLs and clock stay.',
    status: 200,
    answer: '`{reset: true}`.',
    answerSchema: 'SandboxResetDone',
    errors: [401],
  },
  'POST /panel-link': { operationId: 'sandboxPanelLink', summary: 'A one-time link into the web panel', status: 201, answer: '`{url}`.', answerSchema: 'SandboxPanelLink', errors: [401] },
  'GET /clock': { operationId: 'sandboxGetClock', summary: "Read the sandbox's clock", status: 200, answer: '`{now, speed}`.', answerSchema: 'SandboxClock', errors: [401] },
  'POST /clock/advance': {
    operationId: 'sandboxAdvanceClock',
    summary: "Move the sandbox's clock",
    description: 'Expiries, settlements and webhook retries that fall due run before the answer.',
    body: { schema: 'SandboxClockAdvance' },
    status: 200,
    answer: '`{now}`.',
    answerSchema: 'SandboxClockAdvanced',
    errors: [400, 401],
  },
  'POST /withdrawals': {
    operationId: 'sandboxCreateWithdrawal',
    summary: 'Start a withdrawal (trigger)',
    description: 'Emits `withdrawal.processing`, then `withdrawal.paid` or `withdrawal.failed` as `outcome` says.',
    body: { schema: 'SandboxWithdrawalCreate' },
    status: 201,
    answer: 'The withdrawal.',
    answerSchema: 'Withdrawal',
    errors: [400, 401],
  },
  'POST /withdrawals/:id/advance': {
    operationId: 'sandboxAdvanceWithdrawal',
    summary: 'End a withdrawal now (trigger)',
    body: { schema: 'SandboxWithdrawalAdvance', optional: true },
    status: 200,
    answer: 'The withdrawal.',
    answerSchema: 'Withdrawal',
    errors: [400, 401, 404, 409],
  },
  'POST /charges/:id/split': {
    operationId: 'sandboxRunSplit',
    summary: 'Divide a settled split charge now (trigger)',
    description: 'Emits `charge.split.completed` or `charge.split.failed`.',
    body: { schema: 'SandboxSplitRun', optional: true },
    status: 200,
    answer: 'The split charge.',
    answerSchema: 'SplitCharge',
    errors: [400, 401, 404, 409],
  },
  'POST /product-sales': {
    operationId: 'sandboxCreateProductSale',
    summary: 'Simulate a product sale (trigger)',
    description: 'Emits `product.paid`, always in the live environment.',
    body: { schema: 'SandboxProductSale', optional: true },
    status: 201,
    answer: 'The sale and the id of its `product.paid` event.',
    answerSchema: 'SandboxProductSaleCreated',
    errors: [400, 401],
  },
  'GET /events': {
    operationId: 'sandboxEventLog',
    summary: 'What the sandbox emitted, in order',
    description: 'Both environments unless `env` is given.',
    query: [
      q('afterSeq', 'Only events after this sequence number.', { type: 'integer', minimum: 0 }),
      q('limit', 'At most this many events.', { type: 'integer', minimum: 0, maximum: 1000, default: 100 }),
      q('resource', 'Only the events of this resource id.', { type: 'string' }),
    ],
    status: 200,
    answer: '`{data: [event], lastSeq}`.',
    answerSchema: 'SandboxEventLog',
    errors: [400, 401],
  },
  'GET /export': {
    operationId: 'sandboxExport',
    summary: 'The whole state (test keys in full; live keys and the webhook secret only when asked for)',
    description:
      'What `svc sandbox export` writes; `svc sandbox start --seed FILE` starts from it. Without `includeLiveSecrets=true` it holds no live key and no webhook secret: a sandbox seeded from it makes new ones.',
    query: [q('includeLiveSecrets', 'true: also the live keys and the webhook secret, in full.', { type: 'boolean', default: false })],
    status: 200,
    answer: 'The state, with its `format` version.',
    answerSchema: 'SandboxState',
    errors: [400, 401],
  },
}

const OPEN_DOCS: Record<string, Omit<RouteDoc, 'errors'> & { errors: number[]; contentType?: string }> = {
  'GET /_sandbox/info': {
    operationId: 'sandboxInfo',
    summary: 'Whether this is a sandbox, its version and clock',
    status: 200,
    answer: '`{sandbox: true, version, now, speed}`.',
    answerSchema: 'SandboxInfo',
    errors: [413],
  },
  'GET /qr/:id([0-9a-f]{24}).png': { operationId: 'sandboxQrImage', summary: "A charge's QR image (`pix.qrCodeImageUrl`)", status: 200, answer: 'The PNG.', contentType: 'image/png', errors: [404] },
  'HEAD /qr/:id([0-9a-f]{24}).png': { operationId: 'sandboxQrImageHead', summary: "A charge's QR image, headers only", status: 200, answer: 'The headers of the PNG.', contentType: 'image/png', errors: [404] },
  'GET /openapi.json': { operationId: 'sandboxOpenApi', summary: 'This document', status: 200, answer: 'The OpenAPI 3.1 document.', answerSchema: 'SandboxOpenApiDocument', errors: [413] },
}

/** `/deliveries/:eventId/resend` → `/deliveries/{eventId}/resend`, with each parameter's pattern. */
export function openApiPath(pattern: string): { path: string; params: Array<{ name: string; pattern?: string }> } {
  const params: Array<{ name: string; pattern?: string }> = []
  const path = pattern.replace(/:(\w+)(?:\(([^)]*)\))?/g, (_m, name: string, re: string | undefined) => {
    params.push({ name, ...(re ? { pattern: `^${re}$` } : {}) })
    return `{${name}}`
  })
  return { path, params }
}

function operation(doc: RouteDoc, params: Array<{ name: string; pattern?: string }>, extra: { query?: JsonSchema[]; security?: OpenApiOperation['security']; contentType?: string }): OpenApiOperation {
  const parameters = [...params.map((p) => ({ name: p.name, in: 'path', required: true, schema: { type: 'string', ...(p.pattern ? { pattern: p.pattern } : {}) } })), ...(doc.query ?? []), ...(extra.query ?? [])]
  const content = extra.contentType ? { [extra.contentType]: { schema: { type: 'string', contentMediaType: extra.contentType } } } : jsonContent(doc.answerSchema ? schemaRef(doc.answerSchema) : { type: 'object' })
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: ['sandbox'],
    ...(extra.security ? { security: extra.security } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(doc.body ? { requestBody: { required: !doc.body.optional, content: jsonContent(schemaRef(doc.body.schema)) } } : {}),
    responses: { [String(doc.status)]: { description: doc.answer, content }, ...errorResponses([...doc.errors, ...(extra.security ? [] : [401])].filter((s, i, a) => a.indexOf(s) === i).sort()) },
  }
}

function addOperation(paths: Record<string, OpenApiPathItem>, path: string, method: string, op: OpenApiOperation): void {
  const item = (paths[path] ??= {})
  ;(item as Record<string, OpenApiOperation>)[method.toLowerCase()] = op
}

const ENV_QUERY = q('env', "The environment to act on (default: the key's).", { type: 'string', enum: ['test', 'live'] })

/** The control routes: every row of the panel's table and the open routes, documented. */
function sandboxPaths(): Record<string, OpenApiPathItem> {
  const paths: Record<string, OpenApiPathItem> = {}
  for (const route of PANEL_ROUTES as Route<unknown>[]) {
    const key = `${route.method} ${route.pattern}`
    const doc = PANEL_DOCS[key] ?? undocumented(key)
    const { path, params } = openApiPath(`/_sandbox${route.pattern}`)
    addOperation(paths, path, route.method, operation(doc, params, { query: [ENV_QUERY] }))
  }
  for (const route of [...OPEN_ROUTES, OPENAPI_ROUTE] as Route<unknown>[]) {
    if (route.method === 'HEAD') continue // HEAD is answered where GET is (OpenAPI 3.1 has `head`, but nothing to add)
    const key = `${route.method} ${route.pattern}`
    const doc = OPEN_DOCS[key] ?? { ...undocumented(key), errors: [] as number[] }
    const { path, params } = openApiPath(route.pattern)
    addOperation(paths, path, route.method, operation(doc, params, { security: [], contentType: (doc as { contentType?: string }).contentType }))
  }
  return paths
}

/** A route added to a table without its line here: still in the document, saying so (a test names it). */
function undocumented(key: string): RouteDoc {
  const id = key.replace(/[^A-Za-z0-9]+/g, '_')
  return { operationId: `sandbox_${id}`, summary: key, description: 'Not described yet.', status: 200, answer: 'The answer.', errors: [401] }
}

/** The control routes' `METHOD pattern`s that have no description here (a test keeps this empty). */
export function undocumentedRoutes(): string[] {
  return [...PANEL_ROUTES.map((r) => `${r.method} ${r.pattern}`).filter((k) => !PANEL_DOCS[k]), ...OPEN_ROUTES.map((r) => `${r.method} ${r.pattern}`).filter((k) => !OPEN_DOCS[k])]
}

/** The sandbox's document, for a sandbox serving at `baseUrl`. */
export function sandboxOpenApiDocument(baseUrl: string): OpenApiDocument {
  return buildOpenApiDocument({
    servers: [{ url: baseUrl, description: 'This local sandbox.' }],
    tags: [{ name: 'sandbox', description: "The sandbox's own control routes (not part of the service): clock, triggers, deliveries, keys, account settings, state export." }],
    schemas: SANDBOX_SCHEMAS,
    // The sandbox's choices for the events whose bodies the spec shows only in part.
    eventSchemas: {
      'charge.split.completed': ['ChargeSplitCompletedEvent', ChargeSplitCompletedEvent],
      'charge.split.failed': ['ChargeSplitFailedEvent', ChargeSplitFailedEvent],
      'withdrawal.processing': ['WithdrawalProcessingEvent', WithdrawalProcessingEvent],
      'withdrawal.paid': ['WithdrawalPaidEvent', WithdrawalPaidEvent],
      'withdrawal.failed': ['WithdrawalFailedEvent', WithdrawalFailedEvent],
      'product.paid': ['ProductPaidEvent', ProductPaidEvent],
    },
    schemaExtras: {
      SplitChargeCreateRequest: { description: "The sandbox's choice (spec 4.8 does not show it): a charge request plus 2 to 10 destinations, each wallet once, whose `shareBps` add up to 10000." },
      SplitCharge: { description: "The sandbox's choice (spec 4.8 does not show it): a Charge with its `split`." },
      Withdrawal: { description: "The sandbox's choice (spec 4.8 does not show it): the withdrawal record." },
    },
    paths: sandboxPaths(),
    description:
      "This copy is served by a local sandbox (`svc sandbox start`): it adds the sandbox's control routes under the `sandbox` tag " +
      '(authenticated by any key of this sandbox; `?env=test|live` picks the environment) and fills in what spec 4.8 leaves ' +
      "open with the sandbox's own choices (split charges, withdrawals).",
  })
}

let cached: { baseUrl: string; text: string } | undefined

/** `GET /openapi.json`: open (no key), like `/_sandbox/info`. */
export const OPENAPI_ROUTE: Route<(deps: SandboxServerDeps, req: IncomingMessage) => Promise<Answer>> = {
  method: 'GET',
  pattern: '/openapi.json',
  handler: async (deps, req) => {
    await readBody(req)
    const baseUrl = deps.baseUrl()
    if (cached?.baseUrl !== baseUrl) cached = { baseUrl, text: JSON.stringify(sandboxOpenApiDocument(baseUrl)) }
    return { status: 200, raw: { contentType: 'application/json; charset=utf-8', bytes: Buffer.from(cached.text) } }
  },
}
