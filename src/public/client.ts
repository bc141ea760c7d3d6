/**
 * `svc-cli/client`: the typed client of the Pix charge service API for your own Node code. It is
 * the client `svc` itself runs (one keep-alive connection pool, retries with backoff, an automatic
 * `Idempotency-Key` on every creation so a retry never makes a second charge, answers checked
 * against the spec's shapes), behind a small, stable surface.
 *
 * @example
 * ```ts
 * import { createClient, SvcApiError } from 'svc-cli/client'
 *
 * const svc = createClient({ apiKey: process.env.SVC_API_KEY!, baseUrl: 'http://127.0.0.1:8787' })
 * try {
 *   const charge = await svc.charges.create({ amountInCents: 1500, payerTaxNumber: '12345678909', externalId: 'order-42' })
 *   console.log(charge.pix.qrCode) // the Pix copy-and-paste string
 *   for await (const settled of svc.charges.list({ status: 'settled' })) console.log(settled.id)
 * } catch (err) {
 *   if (err instanceof SvcApiError) console.error(err.status, err.code, err.message, err.requestId)
 *   else throw err
 * } finally {
 *   await svc.close()
 * }
 * ```
 *
 * Importing this module loads neither oclif, Ink nor React: only the API client and undici.
 *
 * @packageDocumentation
 */
// First: on an old Node this throws one clear Error before undici is evaluated (see node-guard.ts).
import './node-guard.js'
import { createClient as createApiClient } from '../lib/api/client.js'
import type { ApiClient } from '../lib/api/types.js'
import type { Account, Charge, ChargeCreateRequest, ChargeListQuery, ErrorDetail, WebhookTestResponse } from '../lib/contract/schemas.js'
import type { SplitCharge, SplitChargeCreateRequest } from '../lib/contract/split-charges.js'
import type { Withdrawal } from '../lib/contract/withdrawals.js'
import { ApiError, CliError, NetworkError, ResponseError } from '../lib/errors.js'
import { normalizeBaseUrl } from '../lib/config/resolve.js'

export type { Account, Charge, ChargeCreateRequest, ChargeListQuery, ErrorDetail, WebhookTestResponse } from '../lib/contract/schemas.js'
export type { SplitCharge, SplitChargeCreateRequest } from '../lib/contract/split-charges.js'
export type { Withdrawal } from '../lib/contract/withdrawals.js'

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** A `svc_test_` or `svc_live_` key. It travels only in the `Authorization` header, never in a message. */
  apiKey: string
  /** The service's base URL, e.g. `https://api.example.com` or a sandbox's `http://127.0.0.1:8787` (default: `SVC_BASE_URL`). */
  baseUrl?: string
  /** Per-request timeout in milliseconds, over connect, headers and body (default 30000). */
  timeout?: number
  /** At most this many retries of a failed request (default 3; 0 turns retries off). */
  maxRetries?: number
}

/** Options of {@link SvcClient.charges}`.create` and {@link SvcClient.splitCharges}`.create`. */
export interface CreateOptions {
  /**
   * The `Idempotency-Key` (at most 128 characters). Default: a fresh UUID per call, kept across
   * that call's retries. Pass your own (e.g. your order id) to make a repeat of the same call,
   * from another process or after a crash, return the charge the first one created.
   */
  idempotencyKey?: string
}

/**
 * Every failure of a call: an error answer of the API (spec 2.9), a network failure after the
 * retries, or an answer that is not the API's shape.
 *
 * - API error: `status` is the HTTP status, `code` the API's code (e.g. `charge_not_found`,
 *   `invalid_request`, `rate_limited`), `details` the fields at fault, `requestId` the id to quote.
 * - Network failure (refused, DNS, reset, timeout, after the retries): `status` 0 and `code`
 *   `'network_error'`; `cause` holds the underlying error. A creation that failed this way may have
 *   taken effect: call it again with the same `idempotencyKey` to get it without a second charge.
 * - An answer that is not the API's shape: `code` `'invalid_response'`, `status` the HTTP status.
 * - A key that starts with neither `svc_test_` nor `svc_live_`, or no base URL: thrown by
 *   {@link createClient} itself, `status` 0 and `code` `'invalid_api_key'` / `'invalid_base_url'`.
 * - A call on a closed client: `status` 0, `code` `'client_closed'`, nothing sent.
 * - A bad argument (an empty or non-string id, a bad `timeout` or `maxRetries`): `status` 0,
 *   `code` `'invalid_request'`, `details` naming it; nothing sent.
 */
export class SvcApiError extends Error {
  /** The HTTP status, or 0 when no HTTP answer came (network failure, local check). */
  readonly status: number
  /** The API's error code, or `network_error`, `invalid_response`, `invalid_api_key`, `invalid_base_url`, `client_closed`, `invalid_request` (status 0: a bad argument). */
  readonly code: string
  /** The fields at fault (`invalid_request`), as the API sent them. */
  readonly details: ErrorDetail[] | undefined
  /** The API's request id (quote it to support); undefined when no API answer came. */
  readonly requestId: string | undefined
  /** How long the API asked to wait (`Retry-After`, 429/503), in milliseconds. */
  readonly retryAfterMs: number | undefined

  constructor(init: { status: number; code: string; message: string; details?: ErrorDetail[]; requestId?: string; retryAfterMs?: number; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'SvcApiError'
    this.status = init.status
    this.code = init.code
    this.details = init.details
    this.requestId = init.requestId
    this.retryAfterMs = init.retryAfterMs
  }
}

/** The client {@link createClient} returns. Call `close()` when done, to free its connections. */
export interface SvcClient {
  /** Charges (spec 4). */
  readonly charges: {
    /** Creates a charge (`POST /v1/charges`); a replay of the same key or `externalId` returns the existing one. */
    create(input: ChargeCreateRequest, opts?: CreateOptions): Promise<Charge>
    /** Reads a charge (`GET /v1/charges/{id}`). */
    get(id: string): Promise<Charge>
    /** Cancels a charge (`POST /v1/charges/{id}/cancel`). */
    cancel(id: string): Promise<Charge>
    /**
     * Every charge that matches `query`, newest first, following the pages (`hasMore`,
     * `startingAfter`) as you iterate: `for await (const charge of client.charges.list({ status: 'settled' }))`.
     * `limit` sets the page size (default 100), not the total.
     */
    list(query?: ChargeListQuery): AsyncIterable<Charge>
  }
  /** Split charges (spec 4.8): a charge whose settled asset is divided between 2 to 10 wallets. */
  readonly splitCharges: {
    /** Creates a split charge (`POST /v1/split-charges`); `split` lists `{ wallet, shareBps }`, the shares adding up to 10000. */
    create(input: SplitChargeCreateRequest, opts?: CreateOptions): Promise<SplitCharge>
  }
  /** The merchant account. */
  readonly account: {
    /** `GET /v1/account`: plan and fees, limits, settlement hold, webhook. */
    get(): Promise<Account>
  }
  /** Withdrawals. */
  readonly withdrawals: {
    /** `GET /v1/withdrawals/{id}`. */
    get(id: string): Promise<Withdrawal>
  }
  /** Webhooks. */
  readonly webhooks: {
    /** Sends a `charge.test` event to the account's webhook URL (`POST /v1/webhooks/test`). */
    test(): Promise<WebhookTestResponse>
  }
  /** Closes the connection pool; a call after it fails at once with `SvcApiError` code `client_closed`. */
  close(): Promise<void>
}

/**
 * A client of the service, bound to one key.
 *
 * @throws {@link SvcApiError} (`invalid_api_key`, `invalid_base_url`, `invalid_request` for a bad
 * `timeout` or `maxRetries`) when an option is unusable; nothing is sent.
 */
export function createClient(options: ClientOptions): SvcClient {
  const opts = options ?? ({} as ClientOptions)
  if (typeof opts.apiKey !== 'string' || !/^svc_(test|live)_\S+$/.test(opts.apiKey)) {
    throw new SvcApiError({ status: 0, code: 'invalid_api_key', message: 'apiKey must be a key that starts with svc_test_ or svc_live_ (copy it again from the panel, API section).' })
  }
  const baseUrl = checkBaseUrl(opts.baseUrl ?? process.env.SVC_BASE_URL)
  if (opts.timeout !== undefined && !(Number.isFinite(opts.timeout) && opts.timeout > 0)) throw badArgument('timeout', `timeout must be a positive number of milliseconds, not ${String(opts.timeout)}`)
  if (opts.maxRetries !== undefined && !(Number.isInteger(opts.maxRetries) && opts.maxRetries >= 0)) throw badArgument('maxRetries', `maxRetries must be an integer ≥ 0, not ${String(opts.maxRetries)}`)
  const api = createApiClient({ apiKey: opts.apiKey, baseUrl, timeoutMs: opts.timeout, maxRetries: opts.maxRetries, userAgent: 'svc-cli/client' })
  return wrap(api)
}

function wrap(api: ApiClient): SvcClient {
  let closed = false
  /** One call of the API client, its typed errors turned into SvcApiError; refused at once once closed. */
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (closed) throw new SvcApiError({ status: 0, code: 'client_closed', message: 'This client was closed (close()); create another one.' })
    try {
      return await fn()
    } catch (err) {
      throw toSvcApiError(err)
    }
  }
  return {
    charges: {
      create: (input, o = {}) => call(async () => (await api.createCharge(input, { idempotencyKey: o.idempotencyKey })).charge),
      get: (id) => call(() => api.getCharge(idArg(id, 'charges.get'))),
      cancel: (id) => call(() => api.cancelCharge(idArg(id, 'charges.cancel'))),
      list: (query = {}) => ({
        async *[Symbol.asyncIterator]() {
          const pages = api.paginateCharges(query)
          for (;;) {
            const next = await call(() => pages.next())
            if (next.done) return
            yield next.value
          }
        },
      }),
    },
    splitCharges: {
      create: (input, o = {}) => call(async () => (await api.createSplitCharge(input, { idempotencyKey: o.idempotencyKey })).charge),
    },
    account: { get: () => call(() => api.getAccount()) },
    withdrawals: { get: (id) => call(() => api.getWithdrawal(idArg(id, 'withdrawals.get'))) },
    webhooks: { test: () => call(() => api.testWebhook()) },
    close: () => {
      closed = true
      return api.close()
    },
  }
}

function idArg(id: unknown, where: string): string {
  if (typeof id !== 'string' || id.trim() === '') throw badArgument('id', `${where}: the id must be a non-empty string, not ${typeof id === 'string' ? JSON.stringify(id) : String(id)}`)
  return id
}

/** A bad argument, refused before anything is sent: an SvcApiError like every other failure. */
function badArgument(field: string, message: string): SvcApiError {
  return new SvcApiError({ status: 0, code: 'invalid_request', message, details: [{ field, message }] })
}

/** The CLI's own rules for a base URL (config/resolve.ts), its refusal worded as an SvcApiError. */
function checkBaseUrl(raw: string | undefined): string {
  const fail = (why: string) => new SvcApiError({ status: 0, code: 'invalid_base_url', message: why })
  if (raw === undefined || raw.trim() === '') throw fail('baseUrl is required: pass it, or set SVC_BASE_URL (e.g. https://api.example.com or http://127.0.0.1:8787).')
  try {
    return normalizeBaseUrl(raw, 'baseUrl')
  } catch (err) {
    throw fail((err as Error).message)
  }
}

function toSvcApiError(err: unknown): unknown {
  if (err instanceof ApiError) {
    return new SvcApiError({ status: err.status, code: err.apiCode, message: err.message, details: err.details, requestId: err.requestId, retryAfterMs: err.retryAfterMs, cause: err })
  }
  if (err instanceof NetworkError) return new SvcApiError({ status: 0, code: 'network_error', message: err.message, cause: err.cause ?? err })
  if (err instanceof ResponseError) return new SvcApiError({ status: err.status ?? 0, code: 'invalid_response', message: err.message, details: err.details, cause: err })
  if (err instanceof CliError) return new SvcApiError({ status: 0, code: err.code, message: err.message, details: err.details, cause: err })
  return err
}
