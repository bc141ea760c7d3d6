/**
 * The sandbox's HTTP face (spec part 4 over node:http): routing, bearer authentication (part
 * 5), JSON bodies up to 1 MiB, per-key rate limiting, chaos, and every error in the shape of
 * 2.9 with a requestId (also sent as X-Request-Id on every answer). Every answer's Date header is
 * the sandbox clock's time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { STATUS_OF_CODE } from '../contract/errors.js'
import { LIMITS } from '../contract/limits.js'
import { answerClientErrors, guardedServerOptions, type ServerTimeouts } from '../net/server-guard.js'
import {
  AdvanceRequestSchema,
  type Charge,
  ChargeCreateRequestSchema,
  ChargeListQuerySchema,
  detailsFromZod,
  IdempotencyKeySchema,
} from '../contract/schemas.js'
import { SplitChargeCreateRequestSchema } from '../contract/split-charges.js'
import { SandboxApiError, chargeNotFound, invalidRequest, withdrawalNotFound } from './api-error.js'
import { qrImagePath, qrPng } from './brcode.js'
import type { Chaos, ChaosFault } from './chaos.js'
import type { SandboxClock } from './clock.js'
import type { ChargeEngine } from './engine.js'
import { newRequestId } from './ids.js'
import type { RateLimiter } from './rate-limit.js'
import type { Merchant, SandboxStore } from './store.js'
import type { Withdrawals } from './withdrawals.js'
import type { DeliveryWorker, Env, PanelRequest, PanelResponse } from './types.js'

export const MAX_BODY_BYTES = 1024 * 1024
/** A body this much over the limit is not drained any more: the connection is cut. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES

export interface SandboxServerDeps {
  store: SandboxStore
  engine: ChargeEngine
  withdrawals?: Withdrawals
  deliveries: DeliveryWorker
  clock: SandboxClock
  merchant: Merchant
  rateLimiter: RateLimiter
  chaos: Chaos
  chaosSlowMs: number
  version: string
  /** The nonce of this start, echoed by `/_sandbox/info` so `svc sandbox stop` proves whose pid it signals. */
  instance?: string
  log: (line: string) => void
  baseUrl: () => string
  /** The web panel under `/panel/` (its own guard: token, Host, CSRF). */
  web?: { handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> }
  /** The panel routes under `/_sandbox/` (authenticated by any valid key of this sandbox). */
  panel?: (req: PanelRequest) => Promise<PanelResponse>
  /** Deadlines for a request to arrive (default: net/server-guard's; tests shorten them). */
  timeouts?: Partial<ServerTimeouts>
}

interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
  raw?: { contentType: string; bytes: Buffer }
}

interface Authenticated {
  key: string
  environment: Env
}

const CHARGE_PATH = /^\/v1\/charges\/([^/]+)$/
const CANCEL_PATH = /^\/v1\/charges\/([^/]+)\/cancel$/
const ADVANCE_PATH = /^\/v1\/test\/charges\/([^/]+)\/advance$/
const WITHDRAWAL_PATH = /^\/v1\/withdrawals\/([^/]+)$/
const QR_PATH = /^\/qr\/([0-9a-f]{24})\.png$/

export function createSandboxServer(deps: SandboxServerDeps): Server {
  // Deadlines against slow-loris clients, and a 2.9-shaped answer to requests node cannot parse.
  const server = createServer(guardedServerOptions(deps.timeouts), (req, res) => {
    void handle(deps, req, res)
  })
  server.keepAliveTimeout = 5000
  answerClientErrors(server, newRequestId)
  return server
}

async function handle(deps: SandboxServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = newRequestId()
  const started = performance.now()
  res.setHeader('x-request-id', requestId)
  // Clients read the server's time from Date (client.serverNow()): it is the sandbox clock's,
  // which may run fast or have been advanced, not the wall clock node would send.
  res.setHeader('date', deps.clock.nowDate().toUTCString())
  res.once('close', () => {
    const outcome = res.writableFinished ? String(res.statusCode) : 'dropped'
    deps.log(`${req.method} ${(req.url ?? '/').split('?')[0]} → ${outcome} ${Math.round(performance.now() - started)}ms ${requestId}`)
  })
  try {
    const answer = await route(deps, req, res, parseTarget(req.url))
    if (answer) send(res, answer)
  } catch (err) {
    if (res.headersSent || res.destroyed) {
      res.destroy()
      return
    }
    const apiErr = err instanceof SandboxApiError ? err : internalError(deps, err, requestId)
    send(res, { status: apiErr.status, body: apiErr.body(requestId), headers: apiErr.headers })
  }
}

/** Returns the answer to send, or undefined when the connection was dealt with (dropped). */
/** Plain paths (letters, digits, `_`, `-` between slashes) need no URL parser: most requests. */
const PLAIN_PATH = /^(\/[\w-]+)+$/

function parseTarget(target: string | undefined): { pathname: string; searchParams: URLSearchParams } {
  if (target !== undefined && PLAIN_PATH.test(target)) return { pathname: target, searchParams: new URLSearchParams() }
  return new URL(target ?? '/', 'http://sandbox.invalid')
}

async function route(
  deps: SandboxServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: { pathname: string; searchParams: URLSearchParams },
): Promise<Answer | undefined> {
  const { pathname } = url
  const method = req.method ?? 'GET'

  if (method === 'GET' && pathname === '/_sandbox/info') {
    await readBody(req)
    return { status: 200, body: { sandbox: true, version: deps.version, now: deps.clock.nowDate().toISOString(), speed: deps.clock.speed, ...(deps.instance ? { instance: deps.instance } : {}) } }
  }
  if (deps.web && (pathname === '/panel' || pathname.startsWith('/panel/') || pathname === '/favicon.ico')) {
    await deps.web.handle(req, res, new URL(req.url ?? '/', 'http://sandbox.invalid'))
    return undefined
  }
  const qr = QR_PATH.exec(pathname)
  if (qr && (method === 'GET' || method === 'HEAD')) return qrImage(deps, qr[1]!)

  if (pathname.startsWith('/_sandbox/')) {
    const raw = await readBody(req)
    const who = authenticate(deps, req)
    return panel(deps, method, pathname, url.searchParams, parseJson(raw, true, req.headers['content-type']), who, res)
  }
  if (!pathname.startsWith('/v1/')) {
    await readBody(req)
    throw notFound()
  }

  // A route that exists answers every method: OPTIONS with its Allow list, HEAD as GET without
  // the body, any other method 405 with Allow (RFC 9110), never 404 as if the path did not exist.
  const allowed = allowedMethods(deps, pathname)
  if (allowed && (method === 'OPTIONS' || !allowed.includes(method))) {
    await readBody(req)
    const allow = allowed.join(', ')
    if (method === 'OPTIONS') return { status: 204, headers: { allow } }
    throw new SandboxApiError('method_not_allowed', `Método ${method} não permitido em ${pathname}; use ${allowed.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(' ou ')}.`, { status: 405, headers: { allow } })
  }
  const rawBody = await readBody(req)
  const who = authenticate(deps, req)
  const limited = deps.rateLimiter.take(who.key)
  if (!limited.allowed) {
    throw new SandboxApiError('rate_limited', 'Limite de requisições por chave atingido; aguarde antes de tentar novamente.', {
      headers: { 'retry-after': String(limited.retryAfterSeconds) },
    })
  }

  const creates = pathname === '/v1/charges' || pathname === '/v1/split-charges'
  const retrySafe = method === 'GET' || (method === 'POST' && creates && req.headers['idempotency-key'] !== undefined)
  const fault = deps.chaos.pick({ method, retrySafe })
  if (fault) deps.log(`chaos: ${fault} on ${method} ${pathname}`)
  if (await injectBefore(deps, fault, res)) return undefined

  const answer = await api(deps, method === 'HEAD' ? 'GET' : method, pathname, url.searchParams, rawBody, req, who)
  if (fault === 'lost_response') {
    // The work is done and saved; only the answer is lost, as when a connection dies on the way back.
    res.socket?.destroy()
    return undefined
  }
  return answer
}

/** Faults that happen before any work: true when the request was answered or dropped. */
async function injectBefore(deps: SandboxServerDeps, fault: ChaosFault | undefined, res: ServerResponse): Promise<boolean> {
  switch (fault) {
    case 'internal_error':
      throw new SandboxApiError('internal_error', 'Erro interno simulado (--chaos).')
    case 'provider_unavailable':
      throw new SandboxApiError('provider_unavailable', 'Provedor de pagamento indisponível (simulado por --chaos); tente novamente.', {
        headers: { 'retry-after': '1' },
      })
    case 'drop':
      res.socket?.destroy()
      return true
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, deps.chaosSlowMs))
      return false
    default:
      return false
  }
}

async function api(
  deps: SandboxServerDeps,
  method: string,
  pathname: string,
  query: URLSearchParams,
  rawBody: Buffer,
  req: IncomingMessage,
  who: Authenticated,
): Promise<Answer> {
  const { engine } = deps
  const env = who.environment

  if (pathname === '/v1/charges' && method === 'POST') {
    const idempotencyKey = parseIdempotencyKey(req.headers['idempotency-key'])
    const input = ChargeCreateRequestSchema.safeParse(parseJson(rawBody, false, req.headers['content-type']))
    if (!input.success) throw invalidRequest(detailsFromZod(input.error))
    const { charge, created } = await engine.create(env, input.data, idempotencyKey)
    return { status: created ? 201 : 200, body: present(deps, charge) }
  }
  if (pathname === '/v1/charges' && method === 'GET') return { status: 200, body: list(deps, env, query) }

  // A split charge is a charge with its destinations (spec 4.8): same engine, same states.
  if (pathname === '/v1/split-charges' && method === 'POST') {
    const idempotencyKey = parseIdempotencyKey(req.headers['idempotency-key'])
    const input = SplitChargeCreateRequestSchema.safeParse(parseJson(rawBody, false, req.headers['content-type']))
    if (!input.success) throw invalidRequest(detailsFromZod(input.error))
    const { charge, created } = await engine.create(env, input.data, idempotencyKey)
    return { status: created ? 201 : 200, body: present(deps, charge) }
  }

  const withdrawal = WITHDRAWAL_PATH.exec(pathname)
  if (withdrawal && method === 'GET' && deps.withdrawals) {
    return { status: 200, body: deps.withdrawals.get(env, pathIdOf(withdrawal[1]!, withdrawalNotFound)) }
  }

  const one = CHARGE_PATH.exec(pathname)
  if (one && method === 'GET') return { status: 200, body: present(deps, engine.get(env, chargeIdOf(one[1]!))) }

  const cancel = CANCEL_PATH.exec(pathname)
  if (cancel && method === 'POST') return { status: 200, body: present(deps, engine.cancel(env, chargeIdOf(cancel[1]!))) }

  const advance = ADVANCE_PATH.exec(pathname)
  if (advance && method === 'POST') {
    if (env === 'live') {
      throw new SandboxApiError('not_available_in_live', 'Operação disponível apenas no sandbox: use uma chave svc_test_.')
    }
    const input = AdvanceRequestSchema.safeParse(parseJson(rawBody, false, req.headers['content-type']))
    if (!input.success) throw invalidRequest(detailsFromZod(input.error))
    return { status: 200, body: present(deps, engine.advance(env, chargeIdOf(advance[1]!), input.data.status)) }
  }

  if (pathname === '/v1/account' && method === 'GET') return { status: 200, body: account(deps, env) }

  if (pathname === '/v1/webhooks/test' && method === 'POST') {
    if (!deps.deliveries.getEndpoint(env)) {
      throw new SandboxApiError('webhook_not_configured', 'Nenhuma URL de webhook configurada para este ambiente.')
    }
    return { status: 202, body: { eventId: engine.testEvent(env).id } }
  }
  throw notFound()
}

function list(deps: SandboxServerDeps, env: Env, query: URLSearchParams): { data: Charge[]; hasMore: boolean } {
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
    createdAfterMs: q.createdAfter === undefined ? undefined : Date.parse(q.createdAfter),
    createdBeforeMs: q.createdBefore === undefined ? undefined : Date.parse(q.createdBefore),
    after,
    limit: q.limit ?? LIMITS.listLimitDefault,
  })
  return { data: page.data.map((c) => present(deps, c)), hasMore: page.hasMore }
}

function account(deps: SandboxServerDeps, env: Env): Record<string, unknown> {
  const s = deps.store.getSettings()
  const endpoint = deps.deliveries.getEndpoint(env)
  return {
    merchantId: s.merchantIdPresent ? deps.merchant.merchantId : '',
    email: deps.merchant.email,
    environment: env,
    plan: planOf(s.feeBps),
    feeFixedInCents: s.feeFixedInCents,
    limits: { minChargeInCents: LIMITS.amountMin, maxChargeInCents: LIMITS.amountMax },
    settlementDelayHours: s.settlementDelayHours,
    ...(endpoint ? { webhook: { url: endpoint.url, active: endpoint.active } } : {}),
  }
}

/** The plan is named by its rate, so a plan change shows up as a different plan. */
export function planOf(feeBps: number): { id: string; name: string; feeBps: number } {
  return { id: `plan_${feeBps}bps`, name: `Sandbox ${(feeBps / 100).toFixed(2).replace('.', ',')}%`, feeBps }
}

/** A charge as answered: its QR image at this sandbox's current address (the port may change on restart). */
function present(deps: SandboxServerDeps, charge: Charge): Charge {
  return { ...charge, pix: { ...charge.pix, qrCodeImageUrl: `${deps.baseUrl()}${qrImagePath(charge.id)}` } }
}

async function qrImage(deps: SandboxServerDeps, id: string): Promise<Answer> {
  const found = deps.store.getChargeAnyEnv(id)
  if (!found) throw new SandboxApiError('charge_not_found', 'Cobrança não encontrada.')
  return { status: 200, raw: { contentType: 'image/png', bytes: await qrPng(found.charge.pix.qrCode) }, headers: { 'cache-control': 'public, max-age=3600' } }
}

async function panel(
  deps: SandboxServerDeps,
  method: string,
  pathname: string,
  query: URLSearchParams,
  body: unknown,
  who: Authenticated,
  res: ServerResponse,
): Promise<Answer> {
  if (!deps.panel) throw notFound()
  const envParam = query.get('env')
  if (envParam !== null && envParam !== 'test' && envParam !== 'live') {
    throw invalidRequest([{ field: 'env', message: 'env must be test or live' }])
  }
  const environment: Env = (envParam as Env | null) ?? who.environment
  const answer = await deps.panel({ method, path: pathname.slice('/_sandbox'.length), query, body, environment })
  // Panel errors carry the same requestId as every other error of the sandbox.
  const error = (answer.body as { error?: Record<string, unknown> } | undefined)?.error
  if (error && typeof error === 'object' && error.requestId === undefined) {
    error.requestId = res.getHeader('x-request-id')
  }
  return { status: answer.status, body: answer.body }
}

// ------------------------------------------------------------ auth, bodies, answers

function authenticate(deps: SandboxServerDeps, req: IncomingMessage): Authenticated {
  const header = req.headers.authorization
  const m = header === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!m) {
    throw new SandboxApiError('invalid_api_key', 'Chave de API ausente: envie Authorization: Bearer <chave>.')
  }
  const record = deps.store.findKey(m[1]!)
  if (!record) throw new SandboxApiError('invalid_api_key', 'Chave de API inválida.')
  if (record.revoked) throw new SandboxApiError('revoked_api_key', 'Chave de API revogada.')
  return { key: record.key, environment: record.environment }
}

function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined
  const parsed = IdempotencyKeySchema.safeParse(Array.isArray(raw) ? raw.join(',') : raw)
  if (!parsed.success) throw invalidRequest(detailsFromZod(parsed.error, 'Idempotency-Key').map((d) => ({ ...d, field: 'Idempotency-Key' })))
  return parsed.data
}

/** Reads the whole body; past 1 MiB keeps draining (so the client reads the 413) then refuses. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  // A body declared too large is refused before it is read (and the connection closed after the
  // answer), rather than drained: up to 16 MiB would be read first, and past that, cut unanswered.
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return Promise.reject(bodyTooLarge({ connection: 'close' }))
  // Listeners rather than `for await`: an async iterator per request cost more than the reading.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (err?: unknown): void => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', done)
      req.off('close', onClose)
      if (err !== undefined) reject(err)
      else if (size > MAX_BODY_BYTES) reject(bodyTooLarge())
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    }
    const onData = (chunk: Buffer): void => {
      size += chunk.length
      if (size > MAX_DRAIN_BYTES) {
        req.socket.destroy()
        done(new SandboxApiError('invalid_request', 'Corpo da requisição grande demais.', { status: 413 }))
        return
      }
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    }
    const onEnd = (): void => done()
    const onClose = (): void => {
      if (!req.complete) done(Object.assign(new Error('the client closed the connection before the body ended'), { code: 'ECONNRESET' }))
    }
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', done)
    req.once('close', onClose)
  })
}

function bodyTooLarge(headers?: Record<string, string>): SandboxApiError {
  return new SandboxApiError('invalid_request', `Corpo da requisição maior que ${MAX_BODY_BYTES} bytes.`, {
    status: 413,
    details: [{ field: '(body)', message: `the body must be at most ${MAX_BODY_BYTES} bytes` }],
    headers,
  })
}

/** `application/json`, `…+json`, any parameters; absent is read as JSON too (spec: all bodies are JSON). */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i
const UTF8 = new TextDecoder('utf-8', { fatal: true })

function parseJson(raw: Buffer, optional: boolean, contentType: string | undefined): unknown {
  if (raw.length > 0 && contentType !== undefined && !JSON_TYPE.test(contentType.trim())) {
    throw invalidRequest([{ field: 'Content-Type', message: `the body must be sent as application/json, not ${contentType}` }], 'Content-Type inválido: envie JSON (application/json).')
  }
  let text: string
  try {
    // Invalid UTF-8 is refused, not replaced by U+FFFD into a stored payer name.
    text = UTF8.decode(raw)
  } catch {
    throw invalidRequest([{ field: '(body)', message: 'the body is not valid UTF-8' }], 'Corpo da requisição não é UTF-8 válido.')
  }
  if (text.trim() === '') {
    if (optional) return undefined
    throw invalidRequest([{ field: '(body)', message: 'a JSON body is required' }], 'Corpo JSON obrigatório.')
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw invalidRequest([{ field: '(body)', message: `the body is not valid JSON: ${(err as Error).message}` }], 'Corpo JSON malformado.')
  }
}

/** The id in a path: a malformed escape (`%ff`, `%E0%A4%A`, `%`) names no charge, it is not a server error. */
function chargeIdOf(segment: string): string {
  return pathIdOf(segment, chargeNotFound)
}

function pathIdOf(segment: string, notFoundError: () => SandboxApiError): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw notFoundError()
  }
}


/** The methods a /v1 path answers (HEAD wherever GET, OPTIONS everywhere), or undefined when there is no such route. */
function allowedMethods(deps: SandboxServerDeps, pathname: string): string[] | undefined {
  const withGet = (m: string[]) => (m.includes('GET') ? [...m, 'HEAD', 'OPTIONS'] : [...m, 'OPTIONS'])
  if (pathname === '/v1/charges') return withGet(['GET', 'POST'])
  if (pathname === '/v1/split-charges') return withGet(['POST'])
  if (pathname === '/v1/account') return withGet(['GET'])
  if (pathname === '/v1/webhooks/test') return withGet(['POST'])
  if (CHARGE_PATH.test(pathname)) return withGet(['GET'])
  if (CANCEL_PATH.test(pathname) || ADVANCE_PATH.test(pathname)) return withGet(['POST'])
  if (WITHDRAWAL_PATH.test(pathname) && deps.withdrawals) return withGet(['GET'])
  return undefined
}

function notFound(): SandboxApiError {
  return new SandboxApiError('not_found', 'Rota não encontrada.', { status: STATUS_OF_CODE.not_found })
}

function internalError(deps: SandboxServerDeps, err: unknown, requestId: string): SandboxApiError {
  deps.log(`internal error on ${requestId}: ${(err as Error)?.stack ?? String(err)}`)
  return new SandboxApiError('internal_error', 'Erro interno do sandbox; cite o requestId ao reportar.')
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...answer.headers }
  if (answer.raw) {
    res.writeHead(answer.status, { ...headers, 'content-type': answer.raw.contentType, 'content-length': String(answer.raw.bytes.length) })
    res.end(answer.raw.bytes)
    return
  }
  if (answer.status === 204) {
    res.writeHead(204, headers)
    res.end()
    return
  }
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  })
  res.end(text)
}
