/**
 * The API client (spec part 4) over one keep-alive undici Agent: bearer auth, JSON, response
 * validation with the contract's schemas, timeouts, and the retries of CLI.md.
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import { ANSWER_SHAPES, type AnswerShape } from '../generated/answer-parsers.js'
import type { Account, AdvanceRequest, Charge, ChargeCreateRequest, ChargeListQuery } from '../contract/schemas.js'
import type { SplitCharge, SplitChargeCreateRequest } from '../contract/split-charges.js'
import type { Withdrawal } from '../contract/withdrawals.js'
import { NetworkError, ResponseError } from '../errors.js'
import { isLoopbackUrl } from '../net/loopback.js'
import { redact } from '../config/mask.js'
import { concealKey } from './conceal.js'
import { decodeBody, errorBodyOf, errorFromResponse, requestIdOf } from './decode.js'
import { AnswerTooLargeError, type HttpRequest, type HttpResponse, HttpTransport, MAX_ANSWER_BYTES, TransportError } from './http.js'
import { paginate } from './paginate.js'
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type Failure, isAmbiguous, parseRetryAfter, retryDelay } from './retry.js'
import type { ApiClient, ClientOptions, CreateChargeResult, CreateSplitChargeResult, RawResponse } from './types.js'

export function createClient(opts: ClientOptions): ApiClient {
  return new UndiciApiClient(opts)
}

interface Exchange {
  res: HttpResponse
  /** An earlier attempt failed in a way that may have taken effect on the server. */
  ambiguousEarlier: boolean
}

/**
 * A split charge's answer has no generated fast parser (contract/answer-parsers.ts covers the
 * answers every command reads): it is checked with its zod schema, loaded on first use.
 */
const SPLIT_CHARGE_SHAPE: AnswerShape<SplitCharge> = {
  parse: () => undefined,
  schema: () => import('../contract/split-charges.js').then((m) => m.SplitChargeSchema),
}

/** Methods that can be repeated without a second effect (RFC 9110 9.2.2). */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'])

/** The Date header has a one-second resolution and the answer takes time to arrive: smaller differences are noise. */
const SKEW_TRUST_MS = 5000

class UndiciApiClient implements ApiClient {
  private readonly transport: HttpTransport
  private readonly timeoutMs: number
  private readonly maxRetries: number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private readonly baseHeaders: Record<string, string>
  /** Server clock minus local clock, from the latest Date header (0 while within SKEW_TRUST_MS). */
  private skewMs = 0

  constructor(private readonly opts: ClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES
    this.sleep = opts.sleep ?? ((ms) => delay(ms))
    this.random = opts.random ?? Math.random
    this.transport = new HttpTransport(opts.baseUrl, this.timeoutMs)
    // The key travels only in this header: never in a URL, a log line or an error message.
    this.baseHeaders = {
      authorization: `Bearer ${opts.apiKey}`,
      'user-agent': opts.userAgent ?? 'svc',
      accept: 'application/json',
    }
  }

  async createCharge(body: ChargeCreateRequest, opts: { idempotencyKey?: string } = {}): Promise<CreateChargeResult> {
    // One key per call, the same on every retry, so a retry can never create a second charge.
    const idempotencyKey = opts.idempotencyKey ?? randomUUID()
    const { res } = await this.exchange({ method: 'POST', path: '/v1/charges', body: JSON.stringify(body), headers: { 'idempotency-key': idempotencyKey } })
    const charge = await this.decode(res, ANSWER_SHAPES.charge, 'Charge', 'POST /v1/charges')
    return { charge, created: res.status === 201, idempotencyKey }
  }

  async createSplitCharge(body: SplitChargeCreateRequest, opts: { idempotencyKey?: string } = {}): Promise<CreateSplitChargeResult> {
    // As for createCharge: one key per call, the same on every retry. The spec shows no payload for this
    // path; the sandbox honours the key here as on /v1/charges, so a retry never makes a second split charge.
    const idempotencyKey = opts.idempotencyKey ?? randomUUID()
    const { res } = await this.exchange({ method: 'POST', path: '/v1/split-charges', body: JSON.stringify(body), headers: { 'idempotency-key': idempotencyKey } })
    const charge = await this.decode(res, SPLIT_CHARGE_SHAPE, 'split charge', 'POST /v1/split-charges')
    return { charge, created: res.status === 201, idempotencyKey }
  }

  async listCharges(query: ChargeListQuery = {}) {
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v))
    const qs = params.size ? `?${params}` : ''
    const { res } = await this.exchange({ method: 'GET', path: `/v1/charges${qs}` })
    return this.decode(res, ANSWER_SHAPES.chargeList, 'charge list', 'GET /v1/charges')
  }

  paginateCharges(query: ChargeListQuery = {}): AsyncGenerator<Charge> {
    return paginate((q) => this.listCharges(q), query)
  }

  async getCharge(id: string): Promise<Charge> {
    const path = `/v1/charges/${encodeURIComponent(id)}`
    const { res } = await this.exchange({ method: 'GET', path })
    return this.decode(res, ANSWER_SHAPES.charge, 'Charge', `GET ${path}`)
  }

  /*
   * Cancel and advance are not idempotent POSTs, yet they are retried after a lost answer
   * (reset, timeout, 5xx): a repeat cannot do harm, because moving a charge that already moved
   * is refused with a 409 (charge_not_cancelable / invalid_transition) and changes nothing. That
   * 409 after an ambiguous failure usually means our first attempt did work, so we read the
   * charge (the authority) and report success when it is in the state asked for, instead of a
   * misleading conflict.
   */
  async cancelCharge(id: string): Promise<Charge> {
    const path = `/v1/charges/${encodeURIComponent(id)}/cancel`
    return this.moveCharge(id, { method: 'POST', path }, 'charge_not_cancelable', 'canceled')
  }

  async advanceCharge(id: string, status: AdvanceRequest['status']): Promise<Charge> {
    const path = `/v1/test/charges/${encodeURIComponent(id)}/advance`
    return this.moveCharge(id, { method: 'POST', path, body: JSON.stringify({ status }) }, 'invalid_transition', status)
  }

  async getWithdrawal(id: string): Promise<Withdrawal> {
    const path = `/v1/withdrawals/${encodeURIComponent(id)}`
    const { res } = await this.exchange({ method: 'GET', path })
    return this.decode(res, ANSWER_SHAPES.withdrawal, 'Withdrawal', `GET ${path}`)
  }

  async getAccount(): Promise<Account> {
    const { res } = await this.exchange({ method: 'GET', path: '/v1/account' })
    return this.decode(res, ANSWER_SHAPES.account, 'Account', 'GET /v1/account')
  }

  async testWebhook() {
    const { res } = await this.exchange({ method: 'POST', path: '/v1/webhooks/test' })
    return this.decode(res, ANSWER_SHAPES.webhookTestResponse, 'webhook test answer', 'POST /v1/webhooks/test')
  }

  async raw(method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
    const upper = method.toUpperCase()
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v
    // CLI.md: POST /v1/charges always carries an Idempotency-Key, through `svc api` too.
    if (upper === 'POST' && /^\/v1\/charges\/?(\?|$)/.test(path) && !headers['idempotency-key']) headers['idempotency-key'] = randomUUID()
    // Any other non-idempotent request (e.g. POST /v1/split-charges) has no key to make a repeat
    // safe: it is retried only when the server surely did not act on it (refused, 429, 503).
    const unsafe = !IDEMPOTENT_METHODS.has(upper) && !headers['idempotency-key']
    const { res } = await this.exchange({ method: upper, path, body: opts.body, headers }, unsafe)
    return { status: res.status, headers: res.headers, body: res.body }
  }

  serverNow(): Date {
    return new Date(Date.now() + this.skewMs)
  }

  async close(): Promise<void> {
    await this.transport.close()
  }

  // ---------------------------------------------------------------- internals

  private async moveCharge(id: string, req: Omit<HttpRequest, 'headers'>, refusedCode: string, target: Charge['status']): Promise<Charge> {
    const { res, ambiguousEarlier } = await this.exchange(req)
    if (ambiguousEarlier && res.status === 409 && errorBodyOf(res)?.error.code === refusedCode) {
      const charge = await this.getCharge(id)
      if (charge.status === target) return charge
    }
    return this.decode(res, ANSWER_SHAPES.charge, 'Charge', `${req.method} ${req.path}`)
  }

  private async decode<T>(res: HttpResponse, shape: AnswerShape<T>, what: string, request: string): Promise<T> {
    try {
      if (res.status < 200 || res.status > 299) throw errorFromResponse(res, request)
      return await decodeBody(res, shape, what, request)
    } catch (err) {
      throw concealKey(err, this.opts.apiKey)
    }
  }

  /** Sends with retries; returns the last HTTP answer (any status) or throws NetworkError. */
  private async exchange(req: Omit<HttpRequest, 'headers'> & { headers?: Record<string, string> }, ambiguousIsFinal = false): Promise<Exchange> {
    const headers = { ...this.baseHeaders, ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers }
    const request: HttpRequest = { ...req, headers }
    let ambiguousEarlier = false
    for (let retry = 0; ; retry++) {
      this.log(`→ ${req.method} ${req.path}${retry ? ` (retry ${retry}/${this.maxRetries})` : ''}`)
      const started = performance.now()
      let res: HttpResponse | undefined
      let failure: Failure | undefined
      let transportError: TransportError | undefined
      try {
        res = await this.transport.send(request)
        this.observeServerDate(res.headers.date)
        failure = this.failureOf(res)
      } catch (err) {
        if (err instanceof AnswerTooLargeError) {
          this.log(`← ${err.status ?? 'error'} ${req.method} ${req.path} answer over ${MAX_ANSWER_BYTES} bytes, not read further`)
          throw new ResponseError(`The server's answer to ${req.method} ${req.path} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB; svc stopped reading it.`, err.status)
        }
        if (!(err instanceof TransportError)) throw concealKey(err, this.opts.apiKey)
        transportError = err
        failure = { kind: 'transport', reason: err.reason }
      }
      const ms = Math.round(performance.now() - started)
      const wait = failure && retry < this.maxRetries ? retryDelay(failure, retry, this.random, ambiguousIsFinal) : undefined
      const outcome = res ? String(res.status) : (transportError?.code ?? 'error')
      const requestId = res ? (requestIdOf(res.headers) ?? errorBodyOf(res)?.error.requestId) : undefined
      this.log(`← ${outcome} ${req.method} ${req.path} ${ms}ms${requestId ? ` requestId ${requestId}` : ''}${wait !== undefined ? ` (retrying in ${wait}ms)` : ''}`)
      if (wait === undefined) {
        if (res) return { res, ambiguousEarlier }
        throw concealKey(this.networkError(transportError!, retry + 1), this.opts.apiKey)
      }
      if (failure && isAmbiguous(failure)) ambiguousEarlier = true
      await this.sleep(wait)
    }
  }

  private observeServerDate(header: string | undefined): void {
    const at = header ? Date.parse(header) : Number.NaN
    if (Number.isNaN(at)) return
    const skew = at - Date.now()
    this.skewMs = Math.abs(skew) > SKEW_TRUST_MS ? skew : 0
  }

  private failureOf(res: HttpResponse): Failure | undefined {
    if (res.status < 400) return undefined
    const code = res.status === 409 ? errorBodyOf(res)?.error.code : undefined
    return { kind: 'status', status: res.status, code, retryAfterMs: parseRetryAfter(res.headers['retry-after']) }
  }

  private networkError(err: TransportError, attempts: number): NetworkError {
    const host = this.transport.host
    const tries = attempts > 1 ? ` (${attempts} attempts)` : ''
    const messages: Record<TransportError['reason'], string> = {
      refused: `Could not connect to ${host}: connection refused${tries}.`,
      dns: `Could not resolve the host ${host}${tries}.`,
      reset: `The connection to ${host} was closed before an answer came (${err.code})${tries}.`,
      timeout: `No answer from ${host} within ${this.timeoutMs / 1000} s${tries}.`,
      other: `Network error talking to ${host}: ${err.message} (${err.code})${tries}.`,
    }
    const cause = err.reason === 'timeout' ? 'timeout' : isLoopbackUrl(`http://${host}`) ? 'sandbox' : err.reason === 'dns' ? 'dns' : 'network'
    return new NetworkError(messages[err.reason], { cause: err, next: { do: 'check_connection', cause } })
  }

  private log(line: string): void {
    // A requestId the server chose is in the line: mask an echoed key here, whoever the sink is.
    if (this.opts.debug) this.opts.debug(redact(line, [this.opts.apiKey]))
  }
}
