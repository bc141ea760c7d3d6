/**
 * The CLI's client of the local sandbox's panel API (`/_sandbox/…`): what the real service's web
 * panel does (webhook URL, delivery log, keys, plan), plus the sandbox's clock. It speaks plain
 * HTTP with the bearer key and never imports the sandbox's server code, so the webhooks listener
 * can use it against a sandbox running in another process. The wire shapes are the panel's
 * contract (contract/panel.ts), shared with the server.
 */
import { environmentOfKey, maskSecret } from '../config/mask.js'
import type { AccountSettings, DeliveryRecord, SandboxKey, WebhookEndpoint } from '../contract/panel.js'
import type { SandboxState } from '../contract/sandbox-state.js'
import type { IncomingHttpHeaders } from 'node:http'
import { MAX_ANSWER_BYTES } from '../api/http.js'
import { ApiError, NetworkError, ResponseError } from '../errors.js'
import type { NextStep } from '../next-step.js'
import { OutboundClient, OutboundError } from '../net/outbound.js'
import type { Environment } from '../contract/schemas.js'

export type { DeliveryState, DeliveryViewState } from '../contract/panel.js'
export type PanelDelivery = DeliveryRecord

/** The delivery log's filters (CLI.md 0.4): state, event type (`charge.*`), created since (RFC 3339), a cursor. */
export interface DeliveryListFilter {
  env?: Environment
  eventId?: string
  limit?: number
  state?: string
  type?: string
  since?: string
  startingAfter?: string
}
export type PanelKey = SandboxKey
export type PanelAccountSettings = AccountSettings

export interface PanelWebhookEndpoint extends WebhookEndpoint {
  lastSuccessAt?: string
}

/** An environment with no webhook URL, as `svc sandbox webhook` shows it (`url: null`). */
export interface NoWebhookEndpoint {
  environment: Environment
  url: null
}

export type PanelAccountPatch = Partial<Pick<PanelAccountSettings, 'feeBps' | 'feeFixedInCents' | 'settlementDelayHours' | 'activated' | 'blocked' | 'qrValiditySeconds' | 'holdSettlements'>>

export interface PanelClock {
  now: string
  speed: number
}

export interface PanelTarget {
  baseUrl: string
  apiKey: string
  /** Per-request timeout, default 30 s. */
  timeoutMs?: number
  /**
   * SVC_DEBUG=1: one line per request and per answer, in the API client's format
   * (`→ GET /path`, `← 200 GET /path 12ms requestId req_…`). The sink masks the key.
   */
  debug?: (line: string) => void
}

const DETECT_TIMEOUT_MS = 1500

/** Whether `baseUrl` is a local sandbox (it answers `GET /_sandbox/info`). Never throws. */
export async function detectSandbox(baseUrl: string, opts: { timeoutMs?: number; debug?: (line: string) => void } = {}): Promise<boolean> {
  return (await probeSandbox(baseUrl, opts)).kind === 'sandbox'
}

/**
 * What answers at `baseUrl`: a local sandbox, something else (a real service), or nothing at all
 * (refused, unknown host, timed out) — with why, so a caller can say the URL cannot be reached
 * rather than that it is not a sandbox. Never throws.
 */
export type SandboxProbe = { kind: 'sandbox'; instance?: string } | { kind: 'other' } | { kind: 'unreachable'; reason: string }

export async function probeSandbox(baseUrl: string, opts: { timeoutMs?: number; debug?: (line: string) => void } = {}): Promise<SandboxProbe> {
  const started = performance.now()
  opts.debug?.('→ GET /_sandbox/info')
  let res: PanelAnswer
  try {
    res = await exchange(new URL(`${trimSlash(baseUrl)}/_sandbox/info`), 'GET', {}, undefined, opts.timeoutMs ?? DETECT_TIMEOUT_MS)
  } catch (err) {
    opts.debug?.(answerLine(describe(err), 'GET', '/_sandbox/info', started))
    return { kind: 'unreachable', reason: describe(err) }
  }
  opts.debug?.(answerLine(String(res.status), 'GET', '/_sandbox/info', started, headerOf(res.headers['x-request-id'])))
  if (res.status !== 200) return { kind: 'other' }
  try {
    const body = JSON.parse(res.text) as { sandbox?: unknown; instance?: unknown }
    if (body === null || typeof body !== 'object' || body.sandbox !== true) return { kind: 'other' }
    // `instance`: the nonce of that sandbox's start (runfile.ts proves a run file's owner with it).
    return typeof body.instance === 'string' ? { kind: 'sandbox', instance: body.instance } : { kind: 'sandbox' }
  } catch {
    return { kind: 'other' }
  }
}

/** The API client's `←` debug line: outcome, request, duration, requestId. */
function answerLine(outcome: string, method: string, path: string, started: number, requestId?: string | null): string {
  return `← ${outcome} ${method} ${path} ${Math.round(performance.now() - started)}ms${requestId ? ` requestId ${requestId}` : ''}`
}

/** The environment's webhook URL in a local sandbox, or undefined when none is set. */
export async function getWebhookUrl(opts: PanelTarget & { env?: Environment }): Promise<string | undefined> {
  try {
    return (await new PanelClient(opts).getWebhook(opts.env)).url
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined
    throw err
  }
}

/** Removes the environment's webhook URL in a local sandbox (nothing when none is set). */
export async function removeWebhookUrl(opts: PanelTarget & { env?: Environment }): Promise<void> {
  try {
    await new PanelClient(opts).removeWebhook(opts.env)
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return
    throw err
  }
}

/** Saves (and so reactivates) the environment's webhook URL in a local sandbox. */
export async function setWebhookUrl(opts: PanelTarget & { url: string; env?: Environment }): Promise<PanelWebhookEndpoint> {
  return new PanelClient(opts).setWebhook(opts.url, opts.env)
}

export class PanelClient {
  private readonly baseUrl: string

  constructor(private readonly target: PanelTarget) {
    this.baseUrl = trimSlash(target.baseUrl)
  }

  /** 404 `webhook_not_configured` (an ApiError, exit 4) when the environment has no URL. */
  getWebhook(env?: Environment): Promise<PanelWebhookEndpoint> {
    const environment = this.env(env)
    return this.call('GET', '/webhook', {
      query: { env },
      notFound: {
        message: `No webhook URL is set for the ${environment} environment.`,
        next: { do: 'set_webhook', env: environment },
      },
    })
  }

  /** The endpoint, or that the environment has none (not an error). */
  async findWebhook(env?: Environment): Promise<PanelWebhookEndpoint | NoWebhookEndpoint> {
    try {
      return await this.getWebhook(env)
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return { environment: this.env(env), url: null }
      throw err
    }
  }

  /** Removes the environment's webhook URL (404 `webhook_not_configured` when none is set). */
  removeWebhook(env?: Environment): Promise<{ environment: Environment; removed: true }> {
    return this.call('DELETE', '/webhook', { query: { env } })
  }

  setWebhook(url: string, env?: Environment): Promise<PanelWebhookEndpoint> {
    return this.call('PUT', '/webhook', { body: { url, ...(env ? { env } : {}) } })
  }

  listDeliveries(filter: DeliveryListFilter = {}): Promise<{ data: PanelDelivery[]; hasMore?: boolean }> {
    const limit = filter.limit === undefined ? undefined : String(filter.limit)
    const { env, eventId, state, type, since, startingAfter } = filter
    return this.call('GET', '/deliveries', { query: { env, eventId, limit, state, type, since, startingAfter } })
  }

  /** Every delivery matching the filter, newest first, one page (1000) in memory at a time. */
  async *allDeliveries(filter: Omit<DeliveryListFilter, 'limit' | 'startingAfter'> = {}): AsyncGenerator<PanelDelivery[]> {
    let startingAfter: string | undefined
    for (;;) {
      const page = await this.listDeliveries({ ...filter, limit: 1000, startingAfter })
      if (page.data.length > 0) yield page.data
      const last = page.data.at(-1)
      if (!page.hasMore || !last || last.eventId === startingAfter) return
      startingAfter = last.eventId
    }
  }

  /** 404 (exit 4) when the environment (the key's, or `env`) has no delivery of that event. */
  resendDelivery(eventId: string, env?: Environment): Promise<{ eventId: string }> {
    return this.call('POST', `/deliveries/${encodeURIComponent(eventId)}/resend`, { query: { env }, body: {}, notFound: deliveryNotFound(eventId, this.env(env)) })
  }

  listKeys(): Promise<{ data: PanelKey[] }> {
    return this.call('GET', '/keys')
  }

  createKey(env?: Environment): Promise<PanelKey> {
    return this.call('POST', '/keys', { body: env ? { env } : {} })
  }

  /** The key travels in the body, never in the URL (URLs end up in logs). */
  revokeKey(key: string, env?: Environment): Promise<PanelKey> {
    const shown = key.includes('…') || key.includes('...') ? key : maskSecret(key) || key
    return this.call('POST', '/keys/revoke', {
      body: { key, ...(env ? { env } : {}) },
      notFound: {
        message: `No key ${shown} in this sandbox${env ? ` (${env} environment)` : ''}.`,
        hint: 'See its keys with `svc sandbox keys list`: give a key in full, or masked as listed there (svc_test_…a1b2).',
      },
    })
  }

  getAccount(): Promise<PanelAccountSettings> {
    return this.call('GET', '/account')
  }

  updateAccount(patch: PanelAccountPatch): Promise<PanelAccountSettings> {
    return this.call('PATCH', '/account', { body: patch })
  }

  /** A one-time URL (60 s) into the web panel, for a browser. */
  panelLink(): Promise<{ url: string }> {
    return this.call('POST', '/panel-link', { body: {} })
  }

  /** Empties the sandbox's data; keys, secret, plan and webhook URLs stay. */
  reset(): Promise<{ reset: true }> {
    return this.call('POST', '/reset', { body: {} })
  }

  /** The sandbox's whole state, as `svc sandbox export` writes it; the live keys and the webhook secret only with `includeLiveSecrets`. */
  exportState(opts: { includeLiveSecrets?: boolean } = {}): Promise<SandboxState> {
    return this.call('GET', '/export', { query: { includeLiveSecrets: opts.includeLiveSecrets ? 'true' : undefined } })
  }

  getClock(): Promise<PanelClock> {
    return this.call('GET', '/clock')
  }

  advanceClock(ms: number): Promise<{ now: string }> {
    return this.call('POST', '/clock/advance', { body: { ms } })
  }

  /** The environment acted on: the one asked for, else the key's. */
  private env(env?: Environment): Environment {
    return env ?? environmentOfKey(this.target.apiKey) ?? 'test'
  }

  private async call<T>(method: string, path: string, opts: { query?: Record<string, string | undefined>; body?: unknown; notFound?: NotFound } = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}/_sandbox${path}`)
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v)
    const headers: Record<string, string> = { authorization: `Bearer ${this.target.apiKey}`, accept: 'application/json' }
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    this.target.debug?.(`→ ${method} ${url.pathname}${url.search}`)
    const started = performance.now()
    let res: PanelAnswer
    try {
      res = await exchange(url, method, headers, opts.body === undefined ? undefined : JSON.stringify(opts.body), this.target.timeoutMs ?? 30_000)
    } catch (err) {
      this.target.debug?.(answerLine(describe(err), method, `${url.pathname}${url.search}`, started))
      if (err instanceof OutboundError && err.kind === 'too_large')
        throw new ResponseError(`The sandbox's answer to ${method} ${url.pathname} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; svc stopped reading it.`, err.status)
      throw new NetworkError(`Could not reach the sandbox at ${this.baseUrl} (${describe(err)}).`, {
        cause: err,
        next: { do: 'check_connection', cause: 'panel' },
      })
    }
    const text = res.text
    this.target.debug?.(answerLine(String(res.status), method, `${url.pathname}${url.search}`, started, headerOf(res.headers['x-request-id'])))
    let parsed: unknown
    try {
      parsed = text === '' ? null : JSON.parse(text)
    } catch {
      throw new ResponseError(`The sandbox answered ${res.status} with a body that is not JSON.`, res.status)
    }
    if (res.status >= 200 && res.status < 300) return parsed as T
    const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown } } | null)?.error
    if (!error || typeof error.code !== 'string') {
      throw new ResponseError(`The sandbox answered ${res.status} without an error body. Is ${this.baseUrl} a local sandbox?`, res.status)
    }
    let message = typeof error.message === 'string' ? error.message : error.code
    let hint: string | undefined
    let next: NextStep | undefined
    if (res.status === 404) {
      // A 404 means "no such thing" only from a sandbox; anything else has no panel at all.
      if (!(await detectSandbox(this.baseUrl, { debug: this.target.debug }))) next = { do: 'point_at_sandbox', baseUrl: this.baseUrl }
      else if (opts.notFound) ({ message, hint, next } = opts.notFound)
    }
    throw new ApiError({
      status: res.status,
      code: error.code,
      message,
      details: Array.isArray(error.details) ? (error.details as Array<{ field: string; message: string }>) : undefined,
      requestId: typeof error.requestId === 'string' ? error.requestId : undefined,
      retryAfterMs: retryAfterMs(headerOf(res.headers['retry-after'])),
      hint,
      next,
    })
  }
}

/** What a 404 from a running sandbox means for one request: what to do next typed where it is a tool or a command (each door words it). */
interface NotFound {
  message: string
  hint?: string
  next?: NextStep
}

function deliveryNotFound(eventId: string, env: Environment): NotFound {
  return { message: `No delivery with event id ${eventId} in the ${env} environment.`, next: { do: 'list_deliveries', env } }
}

/** The same answer as a resend of an unknown event, for `svc sandbox deliveries --event-id` finding nothing (exit 4). */
export function noDeliveryError(eventId: string, env: Environment): ApiError {
  return new ApiError({ status: 404, code: 'not_found', ...deliveryNotFound(eventId, env) })
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

function retryAfterMs(value: string | null): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined
  return Number(value) * 1000
}

function describe(err: unknown): string {
  if (err instanceof OutboundError) return err.kind === 'timeout' ? 'timed out' : (err.code ?? err.message)
  const e = err as { message?: string }
  return e?.message ?? String(err)
}

interface PanelAnswer {
  status: number
  headers: IncomingHttpHeaders
  text: string
}

/** One client for every panel request of the process; idle kept-alive sockets do not hold it open. */
let outbound: OutboundClient | undefined

async function exchange(url: URL, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<PanelAnswer> {
  outbound ??= new OutboundClient({ keepAliveTimeoutMs: 1_000 })
  const res = await outbound.send({ origin: url.origin, path: `${url.pathname}${url.search}`, method, headers, body, timeoutMs, maxBodyBytes: MAX_ANSWER_BYTES, overflow: 'fail' })
  return { status: res.status, headers: res.headers, text: res.body.toString('utf8') }
}

function headerOf(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null
}
