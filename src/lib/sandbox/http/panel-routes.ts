/**
 * The panel of the real service, for the local sandbox (`/_sandbox/…`, JSON): the webhook URL,
 * the delivery log with resend, API keys, the plan and account flags, and the sandbox's clock.
 * The core authenticates the request (any valid key of this sandbox) and resolves `?env=` before
 * calling here; errors are thrown, and the core shapes them as all its errors (spec 2.9).
 */
import { CHOSEN_CODES } from '../../contract/errors.js'
import { DELIVERY_STATES } from '../../contract/panel.js'
import { AccountPatchSchema, ClockAdvanceSchema, KeyCreateSchema, KeyRevokeSchema, SplitRunSchema, WebhookPutSchema, WithdrawalAdvanceSchema } from '../../contract/panel-requests.js'
import type { ErrorDetail } from '../../contract/schemas.js'
import { maskSecret } from '../../config/mask.js'
import type { SandboxClock } from '../engine/clock.js'
import type { DeliveryWorker, PanelRequest, PanelResponse, SandboxAdmin, SandboxKey } from '../types.js'
import { WithdrawalCreateRequestSchema } from '../../contract/withdrawals.js'
import { ProductSaleRequestSchema } from '../../contract/product-sales.js'
import { SandboxApiError, chargeNotFound, invalidRequest, withdrawalNotFound } from '../api-error.js'
import { checkPanelBody, pathSegment } from './http-io.js'
import { type Route, Router } from './router.js'
import type { ChargeEngine } from '../engine/engine.js'
import type { ProductSales } from '../engine/product-sales.js'
import type { SandboxStore } from '../store/store.js'
import type { Withdrawals } from '../engine/withdrawals.js'
import type { SandboxState } from '../state/state.js'

export interface PanelDeps {
  deliveries: DeliveryWorker
  admin: SandboxAdmin
  clock: SandboxClock
  /** Empties the sandbox's data (POST /_sandbox/reset). */
  reset?: () => Promise<void>
  /** A one-time URL into the web panel (POST /_sandbox/panel-link, for `svc sandbox open`). */
  panelLink?: () => string
  /** The whole state, for GET /_sandbox/export (state/); live keys and the webhook secret only when asked for. */
  exportState?: (opts: { liveSecrets?: boolean }) => Promise<SandboxState>
  /** The resources beside charges and the event log (absent in tests of the panel alone). */
  resources?: {
    store: SandboxStore
    engine: ChargeEngine
    withdrawals: Withdrawals
    productSales: ProductSales
  }
}

const SEQ = /^\d{1,15}$/

type Resources = NonNullable<PanelDeps['resources']>
type PanelHandler = (req: PanelRequest, deps: PanelDeps, params: Record<string, string>) => PanelResponse | Promise<PanelResponse>

/** Every route of `/_sandbox/…` (paths below it); adding one is a line here. */
export const PANEL_ROUTES: Route<PanelHandler>[] = [
  { method: 'GET', pattern: '/webhook', handler: getWebhook },
  { method: 'PUT', pattern: '/webhook', handler: putWebhook },
  { method: 'DELETE', pattern: '/webhook', handler: deleteWebhook },
  { method: 'GET', pattern: '/deliveries', handler: listDeliveries },
  { method: 'POST', pattern: '/deliveries/:eventId/resend', handler: resendDelivery },
  { method: 'GET', pattern: '/keys', handler: (_req, deps) => ok(200, { data: deps.admin.listKeys().map(masked) }) },
  { method: 'POST', pattern: '/keys', handler: createKey },
  { method: 'POST', pattern: '/keys/revoke', handler: revokeKey },
  { method: 'GET', pattern: '/account', handler: (_req, deps) => ok(200, deps.admin.getSettings()) },
  { method: 'PATCH', pattern: '/account', handler: (req, deps) => ok(200, deps.admin.updateSettings(checkPanelBody(AccountPatchSchema, req.body))) },
  { method: 'POST', pattern: '/reset', handler: reset },
  { method: 'POST', pattern: '/panel-link', handler: panelLink },
  { method: 'GET', pattern: '/clock', handler: (_req, deps) => ok(200, { now: deps.clock.nowDate().toISOString(), speed: deps.clock.speed }) },
  { method: 'POST', pattern: '/clock/advance', handler: postClockAdvance },
  { method: 'POST', pattern: '/withdrawals', handler: resource(createWithdrawal) },
  { method: 'POST', pattern: '/withdrawals/:id/advance', handler: resource(advanceWithdrawal) },
  { method: 'POST', pattern: '/charges/:id/split', handler: resource(runSplit) },
  { method: 'POST', pattern: '/product-sales', handler: resource(createProductSale) },
  { method: 'GET', pattern: '/events', handler: resource(eventLog) },
  { method: 'GET', pattern: '/export', handler: exportState },
]
const router = new Router(PANEL_ROUTES, { headAsGet: false })

/** Answers one panel request; errors are thrown (SandboxApiError), and the server shapes them. */
export async function handlePanelRequest(req: PanelRequest, deps: PanelDeps): Promise<PanelResponse> {
  const match = router.match(req.method, req.path)
  // A path of the panel with another method is as unknown as any other (the panel has no 405).
  if (!match || !('route' in match)) throw routeNotFound(req)
  return match.route.handler(req, deps, match.params)
}

async function exportState(req: PanelRequest, deps: PanelDeps): Promise<PanelResponse> {
  if (!deps.exportState) throw routeNotFound(req)
  // Any key may export; the live key and the webhook secret (it signs live deliveries too), which
  // /keys masks, leave only when asked for: `includeLiveSecrets=true` (a seed from it is the same sandbox).
  const include = req.query.get('includeLiveSecrets')
  if (include !== null && include !== 'true' && include !== 'false') throw invalidRequest([{ field: 'includeLiveSecrets', message: 'includeLiveSecrets must be true or false' }])
  return { status: 200, body: await deps.exportState({ liveSecrets: include === 'true' }) }
}

function routeNotFound(req: PanelRequest): SandboxApiError {
  return new SandboxApiError(CHOSEN_CODES.notFound, `Rota do painel não encontrada: ${req.method} /_sandbox${req.path}.`)
}

function noWebhook(req: PanelRequest): SandboxApiError {
  return new SandboxApiError(CHOSEN_CODES.webhookNotConfigured, `Nenhuma URL de webhook configurada para o ambiente ${req.environment}.`)
}

function getWebhook(req: PanelRequest, deps: PanelDeps): PanelResponse {
  const endpoint = deps.deliveries.getEndpoint(req.environment)
  if (!endpoint) throw noWebhook(req)
  return ok(200, endpoint)
}

function putWebhook(req: PanelRequest, deps: PanelDeps): PanelResponse {
  const body = checkPanelBody(WebhookPutSchema, req.body)
  return ok(200, deps.deliveries.setEndpoint(body.env ?? req.environment, body.url))
}

function deleteWebhook(req: PanelRequest, deps: PanelDeps): PanelResponse {
  if (!deps.deliveries.removeEndpoint(req.environment)) throw noWebhook(req)
  return ok(200, { environment: req.environment, removed: true })
}

function listDeliveries(req: PanelRequest, deps: PanelDeps): PanelResponse {
  const eventId = req.query.get('eventId') ?? undefined
  const limitRaw = req.query.get('limit')
  let limit: number | undefined
  if (limitRaw !== null) {
    limit = Number(limitRaw)
    if (!/^\d+$/.test(limitRaw) || limit < 1 || limit > 1000) throw invalidRequest([{ field: 'limit', message: 'limit must be an integer from 1 to 1000' }])
  }
  const state = req.query.get('state') ?? undefined
  if (state !== undefined && !(DELIVERY_STATES as readonly string[]).includes(state)) throw invalidRequest([{ field: 'state', message: `state must be one of ${DELIVERY_STATES.join(', ')}` }])
  const sinceRaw = req.query.get('since')
  const sinceMs = sinceRaw === null ? undefined : Date.parse(sinceRaw)
  if (sinceMs !== undefined && Number.isNaN(sinceMs)) throw invalidRequest([{ field: 'since', message: 'since must be an RFC 3339 instant' }])
  const filter = { environment: req.environment, eventId, limit, state, type: req.query.get('type') ?? undefined, sinceMs, startingAfter: req.query.get('startingAfter') ?? undefined }
  // One more than asked tells whether another page follows (`hasMore`, as the API's lists).
  const rows = deps.deliveries.list({ ...filter, limit: (limit ?? 50) + 1 })
  const pageSize = limit ?? 50
  return ok(200, { data: rows.slice(0, pageSize), hasMore: rows.length > pageSize })
}

function resendDelivery(req: PanelRequest, deps: PanelDeps, params: Record<string, string>): PanelResponse {
  const noDelivery = (id: string) => new SandboxApiError(CHOSEN_CODES.notFound, `Nenhuma entrega do evento ${id} no ambiente ${req.environment}.`)
  const eventId = pathSegment(params.eventId!, () => noDelivery(params.eventId!))
  const accepted = deps.deliveries.resend(eventId, req.environment)
  if (!accepted) throw noDelivery(eventId)
  return ok(202, accepted)
}

function createKey(req: PanelRequest, deps: PanelDeps): PanelResponse {
  const body = checkPanelBody(KeyCreateSchema, optionalBody(req))
  // The one answer that shows the key in full: the merchant copies it now or never.
  return ok(201, deps.admin.createKey(body.env ?? req.environment))
}

function revokeKey(req: PanelRequest, deps: PanelDeps): PanelResponse {
  const body = checkPanelBody(KeyRevokeSchema, req.body)
  // The masked form as `keys list` shows it, also typed with three dots where `…` is hard to type.
  const key = body.key.replace(/^((?:svc_(?:live|test)_)?)\.\.\./, '$1…')
  const env = body.env
  const lookalikes = deps.admin.listKeys().filter((k) => (env === undefined || k.environment === env) && k.key !== key && maskSecret(k.key) === key)
  if (lookalikes.length > 1) {
    throw invalidRequest([{ field: 'key', message: `${key} matches ${lookalikes.length} keys: pass the full key (or --env to narrow it)` }])
  }
  const revoked = deps.admin.revokeKey(key, env)
  if (!revoked) throw new SandboxApiError(CHOSEN_CODES.notFound, `Chave de API ${key.includes('…') ? key : maskSecret(key)} não encontrada nesta conta${env ? ` (ambiente ${env})` : ''}.`)
  return ok(200, masked(revoked))
}

async function reset(req: PanelRequest, deps: PanelDeps): Promise<PanelResponse> {
  if (!deps.reset) throw routeNotFound(req)
  await flush(deps)
  await deps.reset()
  return ok(200, { reset: true })
}

function panelLink(req: PanelRequest, deps: PanelDeps): PanelResponse {
  if (!deps.panelLink) throw routeNotFound(req)
  return ok(201, { url: deps.panelLink() })
}

async function postClockAdvance(req: PanelRequest, deps: PanelDeps): Promise<PanelResponse> {
  const body = checkPanelBody(ClockAdvanceSchema, req.body)
  await advanceClock(deps, body.ms)
  return ok(200, { now: deps.clock.nowDate().toISOString() })
}

/** A route over the resources beside charges (absent in tests of the panel alone: then no such route). */
function resource(handler: (req: PanelRequest, r: Resources, params: Record<string, string>) => PanelResponse | Promise<PanelResponse>): PanelHandler {
  return (req, deps, params) => {
    if (!deps.resources) throw routeNotFound(req)
    return handler(req, deps.resources, params)
  }
}

async function createWithdrawal(req: PanelRequest, r: Resources): Promise<PanelResponse> {
  return ok(201, await r.withdrawals.create(req.environment, checkPanelBody(WithdrawalCreateRequestSchema, req.body)))
}

async function advanceWithdrawal(req: PanelRequest, r: Resources, params: Record<string, string>): Promise<PanelResponse> {
  const body = checkPanelBody(WithdrawalAdvanceSchema, optionalBody(req))
  return ok(200, await r.withdrawals.advance(req.environment, pathSegment(params.id!, withdrawalNotFound), body.status))
}

function runSplit(req: PanelRequest, r: Resources, params: Record<string, string>): PanelResponse {
  const body = checkPanelBody(SplitRunSchema, optionalBody(req))
  return ok(200, r.engine.divideNow(req.environment, pathSegment(params.id!, chargeNotFound), body.outcome))
}

async function createProductSale(req: PanelRequest, r: Resources): Promise<PanelResponse> {
  return ok(201, await r.productSales.create(checkPanelBody(ProductSaleRequestSchema, optionalBody(req))))
}

/** `GET /_sandbox/events?afterSeq=&limit=&resource=&env=`: what the sandbox emitted, in order. */
function eventLog(req: PanelRequest, r: Resources): PanelResponse {
  const afterRaw = req.query.get('afterSeq') ?? '0'
  const limitRaw = req.query.get('limit') ?? '100'
  const details: ErrorDetail[] = []
  if (!SEQ.test(afterRaw)) details.push({ field: 'afterSeq', message: 'afterSeq must be a non-negative integer' })
  const limit = Number(limitRaw)
  if (!/^\d+$/.test(limitRaw) || limit > 1000) details.push({ field: 'limit', message: 'limit must be an integer from 0 to 1000' })
  if (details.length) throw invalidRequest(details)
  const resource = req.query.get('resource') ?? undefined
  const log = r.store.eventLog({ afterSeq: Number(afterRaw), limit, resource })
  // Both environments unless one is asked for (the log serves tools that watch the whole sandbox).
  const data = req.query.has('env') ? log.data.filter((e) => e.environment === req.environment) : log.data
  return ok(200, { data, lastSeq: log.lastSeq })
}

/**
 * Moves the sandbox clock for the panel (API and web page alike): deliveries in flight settle
 * first, so their retries are timed from where they were sent, then everything that fell due
 * (expiries, settlements, retries) runs before this resolves.
 */
export async function advanceClock(deps: Pick<PanelDeps, 'deliveries' | 'clock'>, ms: number): Promise<void> {
  await flush(deps)
  await deps.clock.advance(ms)
  await flush(deps)
}

async function flush(deps: Pick<PanelDeps, 'deliveries'>): Promise<void> {
  await deps.deliveries.flush?.()
}

function masked(k: SandboxKey): SandboxKey {
  return { ...k, key: maskSecret(k.key) }
}

function ok(status: number, body: unknown): PanelResponse {
  return { status, body }
}

/** A body these routes may go without: none at all is `{}`; a JSON `null` is a body, and not an object (400). */
function optionalBody(req: PanelRequest): unknown {
  return req.body === undefined ? {} : req.body
}
