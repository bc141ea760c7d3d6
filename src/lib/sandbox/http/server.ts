/**
 * The sandbox's HTTP face (spec part 4 over node:http): each request gets a requestId (also sent
 * as X-Request-Id on every answer) and the sandbox clock's Date, goes to its surface — the open
 * routes, the web panel (`/panel/`), the panel API (`/_sandbox/`) or the API (`/v1/`) — and every
 * error thrown on the way is shaped here, once, as spec 2.9 says.
 *
 * The routes are tables (api-routes.ts, panel-routes.ts, ../web/web-panel.ts) matched by router.ts;
 * bodies and answers are read and written by http-io.ts; the key is checked by auth.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { STATUS_OF_CODE } from '../../contract/errors.js'
import { answerClientErrors, guardedServerOptions } from '../../net/server-guard.js'
import { SandboxApiError, invalidRequest } from '../api-error.js'
import { API_ROUTES, OPEN_ROUTES } from './api-routes.js'
import { authenticate } from './auth.js'
import type { ChaosFault } from './chaos.js'
import { type Answer, parseJson, parseTarget, readBody, send } from './http-io.js'
import { newRequestId } from '../store/ids.js'
import { OPENAPI_ROUTE } from './openapi.js'
import { Router } from './router.js'

import type { SandboxServerDeps } from './server-deps.js'
import type { Environment } from '../../contract/schemas.js'

const apiRouter = new Router(API_ROUTES)
// `/openapi.json` is open too: the document of this sandbox (openapi.ts).
const openRouter = new Router([...OPEN_ROUTES, OPENAPI_ROUTE], { headAsGet: false })

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

/** Returns the answer to send, or undefined when the connection was dealt with (dropped, or answered by the web panel). */
async function route(deps: SandboxServerDeps, req: IncomingMessage, res: ServerResponse, url: { pathname: string; searchParams: URLSearchParams }): Promise<Answer | undefined> {
  const { pathname } = url
  const method = req.method ?? 'GET'

  const open = openRouter.match(method, pathname)
  if (open && 'route' in open) return open.route.handler(deps, req, open.params)
  if (deps.web && (pathname === '/panel' || pathname.startsWith('/panel/') || pathname === '/favicon.ico')) {
    await deps.web.handle(req, res, new URL(req.url ?? '/', 'http://sandbox.invalid'))
    return undefined
  }
  if (pathname.startsWith('/_sandbox/')) return panel(deps, req, method, url)
  if (!pathname.startsWith('/v1/')) {
    await readBody(req)
    throw notFound()
  }
  return api(deps, req, res, method, url)
}

/** `/v1/…`: method check, key, rate limit and chaos, then the route's handler. */
async function api(deps: SandboxServerDeps, req: IncomingMessage, res: ServerResponse, method: string, url: { pathname: string; searchParams: URLSearchParams }): Promise<Answer | undefined> {
  const { pathname } = url
  // A route that exists answers every method: OPTIONS with its Allow list, HEAD as GET without
  // the body, any other method 405 with Allow (RFC 9110), never 404 as if the path did not exist.
  const match = apiRouter.match(method, pathname)
  if (match && (method === 'OPTIONS' || 'allow' in match)) {
    await readBody(req)
    const allowed = 'allow' in match ? match.allow : apiRouter.allowed(pathname)!
    const allow = allowed.join(', ')
    if (method === 'OPTIONS') return { status: 204, headers: { allow } }
    throw new SandboxApiError('method_not_allowed', `Método ${method} não permitido em ${pathname}; use ${allowed.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').join(' ou ')}.`, { status: 405, headers: { allow } })
  }
  const rawBody = await readBody(req)
  const who = authenticate(deps.store, req)
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

  // An unknown path is known to be unknown only to a client with a key (401 before 404).
  if (!match) throw notFound()
  const answer = await match.route.handler({ deps, req, env: who.environment, params: match.params, query: url.searchParams, rawBody })
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

/** `/_sandbox/…`: any valid key of this sandbox; `?env=` picks the environment, else the key's. */
async function panel(deps: SandboxServerDeps, req: IncomingMessage, method: string, url: { pathname: string; searchParams: URLSearchParams }): Promise<Answer> {
  const raw = await readBody(req)
  const who = authenticate(deps.store, req)
  const body = parseJson(raw, true, req.headers['content-type'])
  if (!deps.panel) throw notFound()
  const query = url.searchParams
  const envParam = query.get('env')
  if (envParam !== null && envParam !== 'test' && envParam !== 'live') {
    throw invalidRequest([{ field: 'env', message: 'env must be test or live' }])
  }
  const environment: Environment = (envParam as Environment | null) ?? who.environment
  return deps.panel({ method, path: url.pathname.slice('/_sandbox'.length), query, body, environment })
}

function notFound(): SandboxApiError {
  return new SandboxApiError('not_found', 'Rota não encontrada.', { status: STATUS_OF_CODE.not_found })
}

function internalError(deps: SandboxServerDeps, err: unknown, requestId: string): SandboxApiError {
  deps.log(`internal error on ${requestId}: ${(err as Error)?.stack ?? String(err)}`)
  return new SandboxApiError('internal_error', 'Erro interno do sandbox; cite o requestId ao reportar.')
}
