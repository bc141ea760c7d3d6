/**
 * The panel of the real service, for the local sandbox (`/_sandbox/…`, JSON): the webhook URL,
 * the delivery log with resend, API keys, the plan and account flags, and the sandbox's clock.
 * The core authenticates the request (any valid key of this sandbox) and resolves `?env=` before
 * calling here; it adds the requestId to the error bodies answered here (spec 2.9 shape).
 */
import { z } from 'zod'
import { CHOSEN_CODES, STATUS_OF_CODE } from '../contract/errors.js'
import type { ErrorDetail } from '../contract/schemas.js'
import { maskSecret } from '../config/mask.js'
import type { SandboxClock } from './clock.js'
import { isHttpUrl } from '../net/url.js'
import type { WebhookDeliveries } from './deliveries/worker.js'
import type { PanelRequest, PanelResponse, SandboxAdmin, SandboxKey } from './types.js'
import { WithdrawalCreateRequestSchema } from '../contract/withdrawals.js'
import { ProductSaleRequestSchema } from '../contract/product-sales.js'
import { SandboxApiError } from './api-error.js'
import type { ChargeEngine } from './engine.js'
import type { ProductSales } from './product-sales.js'
import type { SandboxStore } from './store.js'
import type { Withdrawals } from './withdrawals.js'
import { handleExportRequest } from './state/export-route.js'
import type { SandboxState } from './state/state.js'

export interface PanelDeps {
  deliveries: WebhookDeliveries
  admin: SandboxAdmin
  clock: SandboxClock
  /** Empties the sandbox's data (POST /_sandbox/reset). */
  reset?: () => Promise<void>
  /** A one-time URL into the web panel (POST /_sandbox/panel-link, for `svc sandbox open`). */
  panelLink?: () => string
  /** The whole state, for GET /_sandbox/export (state/). */
  exportState?: () => Promise<SandboxState>
  /** The resources beside charges and the event log (absent in tests of the panel alone). */
  resources?: {
    store: SandboxStore
    engine: ChargeEngine
    withdrawals: Withdrawals
    productSales: ProductSales
  }
}

const EnvSchema = z.enum(['test', 'live'])
const MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000

const WebhookPutSchema = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((u) => isHttpUrl(u), 'must be an absolute http:// or https:// URL'),
  env: EnvSchema.optional(),
})

const KeyCreateSchema = z.strictObject({ env: EnvSchema.optional() })
const KeyRevokeSchema = z.strictObject({ key: z.string().min(1).max(200), env: EnvSchema.optional() })

const AccountPatchSchema = z.strictObject({
  feeBps: z.int().min(0).max(10_000).optional(),
  feeFixedInCents: z.int().min(0).max(100_000).optional(),
  settlementDelayHours: z.int().min(0).max(24 * 90).optional(),
  activated: z.boolean().optional(),
  blocked: z.boolean().optional(),
  merchantIdPresent: z.boolean().optional(),
  qrValiditySeconds: z.int().min(1).max(30 * 24 * 3600).optional(),
})

const ClockAdvanceSchema = z.strictObject({ ms: z.int().min(1).max(MAX_ADVANCE_MS) })

const RESEND = /^\/deliveries\/([^/]+)\/resend$/
const WITHDRAWAL_ADVANCE = /^\/withdrawals\/([^/]+)\/advance$/
const CHARGE_SPLIT = /^\/charges\/([^/]+)\/split$/

const WithdrawalAdvanceSchema = z.strictObject({ status: z.enum(['paid', 'failed'], { error: 'status must be paid or failed' }).optional() })
const SplitRunSchema = z.strictObject({ outcome: z.enum(['completed', 'failed'], { error: 'outcome must be completed or failed' }).optional() })
const SEQ = /^\d{1,15}$/

export async function handlePanelRequest(req: PanelRequest, deps: PanelDeps): Promise<PanelResponse> {
  const { method, path } = req
  const route = `${method} ${path}`
  switch (route) {
    case 'GET /webhook': {
      const endpoint = deps.deliveries.getEndpoint(req.environment)
      if (!endpoint) return fail(CHOSEN_CODES.webhookNotConfigured, `Nenhuma URL de webhook configurada para o ambiente ${req.environment}.`)
      return ok(200, endpoint)
    }
    case 'PUT /webhook': {
      const body = parse(WebhookPutSchema, req.body)
      if ('error' in body) return body.error
      return ok(200, deps.deliveries.setEndpoint(body.data.env ?? req.environment, body.data.url))
    }
    case 'DELETE /webhook': {
      if (!deps.deliveries.removeEndpoint(req.environment)) return fail(CHOSEN_CODES.webhookNotConfigured, `Nenhuma URL de webhook configurada para o ambiente ${req.environment}.`)
      return ok(200, { environment: req.environment, removed: true })
    }
    case 'GET /deliveries': {
      const eventId = req.query.get('eventId') ?? undefined
      const limitRaw = req.query.get('limit')
      let limit: number | undefined
      if (limitRaw !== null) {
        limit = Number(limitRaw)
        if (!/^\d+$/.test(limitRaw) || limit < 1 || limit > 1000) return invalid([{ field: 'limit', message: 'limit must be an integer from 1 to 1000' }])
      }
      return ok(200, { data: deps.deliveries.list({ environment: req.environment, eventId, limit }) })
    }
    case 'GET /keys':
      return ok(200, { data: deps.admin.listKeys().map(masked) })
    case 'POST /keys': {
      const body = parse(KeyCreateSchema, req.body ?? {})
      if ('error' in body) return body.error
      // The one answer that shows the key in full: the merchant copies it now or never.
      return ok(201, deps.admin.createKey(body.data.env ?? req.environment))
    }
    case 'POST /keys/revoke': {
      const body = parse(KeyRevokeSchema, req.body)
      if ('error' in body) return body.error
      // The masked form as `keys list` shows it, also typed with three dots where `…` is hard to type.
      const key = body.data.key.replace(/^((?:svc_(?:live|test)_)?)\.\.\./, '$1…')
      const env = body.data.env
      const lookalikes = deps.admin.listKeys().filter((k) => (env === undefined || k.environment === env) && k.key !== key && maskSecret(k.key) === key)
      if (lookalikes.length > 1) {
        return invalid([{ field: 'key', message: `${key} matches ${lookalikes.length} keys: pass the full key (or --env to narrow it)` }])
      }
      const revoked = deps.admin.revokeKey(key, env)
      if (!revoked) return fail(CHOSEN_CODES.notFound, `Chave de API ${key.includes('…') ? key : maskSecret(key)} não encontrada nesta conta${env ? ` (ambiente ${env})` : ''}.`)
      return ok(200, masked(revoked))
    }
    case 'GET /account':
      return ok(200, deps.admin.getSettings())
    case 'PATCH /account': {
      const body = parse(AccountPatchSchema, req.body)
      if ('error' in body) return body.error
      return ok(200, deps.admin.updateSettings(body.data))
    }
    case 'POST /reset': {
      if (!deps.reset) break
      await flush(deps)
      await deps.reset()
      return ok(200, { reset: true })
    }
    case 'POST /panel-link': {
      if (!deps.panelLink) break
      return ok(201, { url: deps.panelLink() })
    }
    case 'GET /clock':
      return ok(200, { now: deps.clock.nowDate().toISOString(), speed: deps.clock.speed })
    case 'POST /clock/advance': {
      const body = parse(ClockAdvanceSchema, req.body)
      if ('error' in body) return body.error
      await advanceClock(deps, body.data.ms)
      return ok(200, { now: deps.clock.nowDate().toISOString() })
    }
  }
  if (route === 'GET /export' && deps.exportState) return handleExportRequest(deps.exportState)
  if (deps.resources) {
    const answer = await resourceRoute(req, deps.resources)
    if (answer) return answer
  }
  const resend = RESEND.exec(path)
  if (resend && method === 'POST') {
    const eventId = decodeURIComponent(resend[1]!)
    const accepted = deps.deliveries.resend(eventId, req.environment)
    if (!accepted) return fail(CHOSEN_CODES.notFound, `Nenhuma entrega do evento ${eventId} no ambiente ${req.environment}.`)
    return ok(202, accepted)
  }
  return fail(CHOSEN_CODES.notFound, `Rota do painel não encontrada: ${method} /_sandbox${path}.`)
}

/** Withdrawals, split runs, product sales and the event log; undefined when the route is not one of them. */
async function resourceRoute(req: PanelRequest, r: NonNullable<PanelDeps['resources']>): Promise<PanelResponse | undefined> {
  const { method, path } = req
  try {
    if (method === 'POST' && path === '/withdrawals') {
      const body = parse(WithdrawalCreateRequestSchema, req.body)
      if ('error' in body) return body.error
      return ok(201, await r.withdrawals.create(req.environment, body.data))
    }
    const withdrawal = WITHDRAWAL_ADVANCE.exec(path)
    if (method === 'POST' && withdrawal) {
      const body = parse(WithdrawalAdvanceSchema, req.body ?? {})
      if ('error' in body) return body.error
      return ok(200, await r.withdrawals.advance(req.environment, decodeURIComponent(withdrawal[1]!), body.data.status))
    }
    const split = CHARGE_SPLIT.exec(path)
    if (method === 'POST' && split) {
      const body = parse(SplitRunSchema, req.body ?? {})
      if ('error' in body) return body.error
      return ok(200, r.engine.divideNow(req.environment, decodeURIComponent(split[1]!), body.data.outcome))
    }
    if (method === 'POST' && path === '/product-sales') {
      const body = parse(ProductSaleRequestSchema, req.body ?? {})
      if ('error' in body) return body.error
      return ok(201, await r.productSales.create(body.data))
    }
    if (method === 'GET' && path === '/events') return eventLog(req, r.store)
  } catch (err) {
    if (err instanceof SandboxApiError) return fail(err.code, err.message, err.details)
    throw err
  }
  return undefined
}

/** `GET /_sandbox/events?afterSeq=&limit=&resource=&env=`: what the sandbox emitted, in order. */
function eventLog(req: PanelRequest, store: SandboxStore): PanelResponse {
  const afterRaw = req.query.get('afterSeq') ?? '0'
  const limitRaw = req.query.get('limit') ?? '100'
  const details: ErrorDetail[] = []
  if (!SEQ.test(afterRaw)) details.push({ field: 'afterSeq', message: 'afterSeq must be a non-negative integer' })
  const limit = Number(limitRaw)
  if (!/^\d+$/.test(limitRaw) || limit > 1000) details.push({ field: 'limit', message: 'limit must be an integer from 0 to 1000' })
  if (details.length) return invalid(details)
  const resource = req.query.get('resource') ?? undefined
  const log = store.eventLog({ afterSeq: Number(afterRaw), limit, resource })
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
  const worker = deps.deliveries as Partial<Pick<WebhookDeliveries, 'flush'>>
  if (typeof worker.flush === 'function') await worker.flush()
}

function masked(k: SandboxKey): SandboxKey {
  return { ...k, key: maskSecret(k.key) }
}

function ok(status: number, body: unknown): PanelResponse {
  return { status, body }
}

function fail(code: string, message: string, details?: ErrorDetail[]): PanelResponse {
  return { status: STATUS_OF_CODE[code] ?? 400, body: { error: { code, message, ...(details ? { details } : {}) } } }
}

function invalid(details: ErrorDetail[]): PanelResponse {
  return fail('invalid_request', 'Requisição inválida: verifique os campos em details.', details)
}

function parse<T extends z.ZodType>(schema: T, body: unknown): { data: z.infer<T> } | { error: PanelResponse } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { error: invalid([{ field: '(body)', message: 'the body must be a JSON object' }]) }
  }
  const result = schema.safeParse(body)
  if (result.success) return { data: result.data }
  const details: ErrorDetail[] = []
  const seen = new Set<string>()
  for (const issue of result.error.issues) {
    const fields = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.length ? issue.path.map(String).join('.') : '(body)']
    for (const field of fields) {
      if (seen.has(field)) continue
      seen.add(field)
      details.push({ field, message: issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message })
    }
  }
  return { error: invalid(details) }
}
