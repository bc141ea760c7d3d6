/**
 * The API's routes (spec part 4, `/v1/…`) and the two open ones beside it (`/_sandbox/info`, the QR
 * images): one table, one handler per route. The server has authenticated the request, applied
 * the rate limit and chaos, and read the body before a `/v1` handler runs; handlers throw their
 * errors (SandboxApiError) and the server shapes them.
 */
import type { IncomingMessage } from 'node:http'
import { LIMITS } from '../../contract/limits.js'
import { type Environment, AdvanceRequestSchema, type Charge, ChargeCreateRequestSchema, ChargeListQuerySchema, detailsFromZod, IdempotencyKeySchema } from '../../contract/schemas.js'
import { SplitChargeCreateRequestSchema } from '../../contract/split-charges.js'
import { rfc3339Millis } from '../../domain/time.js'
import { SandboxApiError, chargeNotFound, invalidRequest, withdrawalNotFound } from '../api-error.js'
import { qrPng } from '../engine/brcode.js'
import { isSandboxHost } from './host-check.js'
import { type Answer, checkApiBody, parseJson, pathSegment, readBody } from './http-io.js'
import { planOf } from '../engine/plan.js'
import type { Route } from './router.js'
import type { SandboxServerDeps } from './server-deps.js'
import { presentCharge } from './present.js'

/** What a `/v1` handler is given: the request, its environment (from the key), its path params, query and body. */
export interface ApiCall {
  deps: SandboxServerDeps
  req: IncomingMessage
  env: Environment
  params: Record<string, string>
  query: URLSearchParams
  rawBody: Buffer
}

export type ApiHandler = (call: ApiCall) => Answer | Promise<Answer>
/** An open route: no key, no rate limit, no chaos. */
export type OpenHandler = (deps: SandboxServerDeps, req: IncomingMessage, params: Record<string, string>) => Answer | Promise<Answer>

/** `/v1/…`; adding a route is a line here. HEAD and OPTIONS are answered for every path (router.ts). */
export const API_ROUTES: Route<ApiHandler>[] = [
  { method: 'GET', pattern: '/v1/charges', handler: listCharges },
  { method: 'POST', pattern: '/v1/charges', handler: createWith(ChargeCreateRequestSchema) },
  // A split charge is a charge with its destinations (spec 4.8): same engine, same states.
  { method: 'POST', pattern: '/v1/split-charges', handler: createWith(SplitChargeCreateRequestSchema) },
  { method: 'GET', pattern: '/v1/charges/:id', handler: getCharge },
  { method: 'POST', pattern: '/v1/charges/:id/cancel', handler: cancelCharge },
  { method: 'POST', pattern: '/v1/test/charges/:id/advance', handler: advanceCharge },
  { method: 'GET', pattern: '/v1/withdrawals/:id', handler: getWithdrawal },
  { method: 'GET', pattern: '/v1/account', handler: getAccount },
  { method: 'POST', pattern: '/v1/webhooks/test', handler: testWebhook },
]

/** Open to anyone who reaches the port, for the methods listed (matched with headAsGet: false): another method falls through to the other surfaces. */
export const OPEN_ROUTES: Route<OpenHandler>[] = [
  { method: 'GET', pattern: '/_sandbox/info', handler: info },
  { method: 'GET', pattern: '/qr/:id([0-9a-f]{24}).png', handler: qrImage },
  { method: 'HEAD', pattern: '/qr/:id([0-9a-f]{24}).png', handler: qrImage },
]

/** POST /v1/charges and /v1/split-charges: the same creation (idempotent by key and externalId), each with its own request schema. */
function createWith(schema: typeof ChargeCreateRequestSchema | typeof SplitChargeCreateRequestSchema) {
  return async ({ deps, req, env, rawBody }: ApiCall): Promise<Answer> => {
    const idempotencyKey = parseIdempotencyKey(req.headers['idempotency-key'])
    const input = checkApiBody(schema, parseJson(rawBody, false, req.headers['content-type']))
    const { charge, created } = await deps.engine.create(env, input, idempotencyKey)
    return { status: created ? 201 : 200, body: presentCharge(deps, charge) }
  }
}

function getCharge({ deps, env, params }: ApiCall): Answer {
  return { status: 200, body: presentCharge(deps, deps.engine.get(env, pathSegment(params.id!, chargeNotFound))) }
}

function cancelCharge({ deps, env, params }: ApiCall): Answer {
  return { status: 200, body: presentCharge(deps, deps.engine.cancel(env, pathSegment(params.id!, chargeNotFound))) }
}

function advanceCharge({ deps, req, env, params, rawBody }: ApiCall): Answer {
  if (env === 'live') {
    throw new SandboxApiError('not_available_in_live', 'Operação disponível apenas no sandbox: use uma chave svc_test_.')
  }
  const input = checkApiBody(AdvanceRequestSchema, parseJson(rawBody, false, req.headers['content-type']))
  return { status: 200, body: presentCharge(deps, deps.engine.advance(env, pathSegment(params.id!, chargeNotFound), input.status)) }
}

function getWithdrawal({ deps, env, params }: ApiCall): Answer {
  return { status: 200, body: deps.withdrawals.get(env, pathSegment(params.id!, withdrawalNotFound)) }
}

function testWebhook({ deps, env }: ApiCall): Answer {
  if (!deps.deliveries.getEndpoint(env)) {
    throw new SandboxApiError('webhook_not_configured', 'Nenhuma URL de webhook configurada para este ambiente.')
  }
  return { status: 202, body: { eventId: deps.engine.testEvent(env).id } }
}

function listCharges({ deps, env, query }: ApiCall): Answer {
  const parsed = ChargeListQuerySchema.safeParse(Object.fromEntries(query))
  if (!parsed.success) throw invalidRequest(detailsFromZod(parsed.error), 'Parâmetro de consulta inválido: verifique details.')
  const q = parsed.data
  let after: { createdMs: number; id: string } | undefined
  if (q.startingAfter !== undefined) {
    const cursor = deps.store.getCharge(env, q.startingAfter)
    if (!cursor) throw invalidRequest([{ field: 'startingAfter', message: 'no charge with this id in this environment' }])
    after = { createdMs: cursor.createdMs, id: cursor.charge.id }
  }
  const page = deps.store.listCharges(env, {
    status: q.status,
    externalId: q.externalId,
    createdAfterMs: q.createdAfter === undefined ? undefined : rfc3339Millis(q.createdAfter),
    createdBeforeMs: q.createdBefore === undefined ? undefined : rfc3339Millis(q.createdBefore),
    after,
    limit: q.limit ?? LIMITS.listLimitDefault,
  })
  const data: Charge[] = page.data.map((c) => presentCharge(deps, c))
  return { status: 200, body: { data, hasMore: page.hasMore } }
}

function getAccount({ deps, env }: ApiCall): Answer {
  const s = deps.store.getSettings()
  const endpoint = deps.deliveries.getEndpoint(env)
  const body = {
    merchantId: s.merchantIdPresent ? deps.merchant.merchantId : '',
    email: deps.merchant.email,
    environment: env,
    plan: planOf(s.feeBps),
    feeFixedInCents: s.feeFixedInCents,
    limits: { minChargeInCents: LIMITS.amountMin, maxChargeInCents: LIMITS.amountMax },
    settlementDelayHours: s.settlementDelayHours,
    ...(endpoint ? { webhook: { url: endpoint.url, active: endpoint.active } } : {}),
  }
  return { status: 200, body }
}

async function info(deps: SandboxServerDeps, req: IncomingMessage): Promise<Answer> {
  await readBody(req)
  // `instance`: the nonce of this start, so `svc sandbox stop` proves whose pid it signals. It goes
  // only to a Host the panel would answer (host-check.ts): the CLI asks with the printed URL, and
  // a page that rebound its name to 127.0.0.1 learns that a sandbox runs, not its nonce. The rest
  // answers any Host, so a sandbox started with `--host 0.0.0.0` is still found by its address.
  const base = new URL(deps.baseUrl())
  const local = isSandboxHost(req.headers.host, Number(base.port), base.hostname)
  return { status: 200, body: { sandbox: true, version: deps.version, now: deps.clock.nowDate().toISOString(), speed: deps.clock.speed, ...(deps.instance && local ? { instance: deps.instance } : {}) } }
}

async function qrImage(deps: SandboxServerDeps, _req: IncomingMessage, params: Record<string, string>): Promise<Answer> {
  const found = deps.store.getChargeAnyEnv(params.id!)
  if (!found) throw new SandboxApiError('charge_not_found', 'Cobrança não encontrada.')
  return { status: 200, raw: { contentType: 'image/png', bytes: await qrPng(found.charge.pix.qrCode) }, headers: { 'cache-control': 'public, max-age=3600' } }
}

function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined
  const parsed = IdempotencyKeySchema.safeParse(Array.isArray(raw) ? raw.join(',') : raw)
  if (!parsed.success) throw invalidRequest(detailsFromZod(parsed.error, 'Idempotency-Key').map((d) => ({ ...d, field: 'Idempotency-Key' })))
  return parsed.data
}

/** The id in a path: a malformed escape (`%ff`, `%E0%A4%A`, `%`) names nothing, it is not a server error. */
