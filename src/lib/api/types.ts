/** The client seam: commands depend on this interface, `createClient` in client.ts implements it. */
import type { Account, AdvanceRequest, Charge, ChargeCreateRequest, ChargeList, ChargeListQuery, WebhookTestResponse } from '../contract/schemas.js'
import type { SplitCharge, SplitChargeCreateRequest } from '../contract/split-charges.js'
import type { Withdrawal } from '../contract/withdrawals.js'

export interface ClientOptions {
  apiKey: string
  baseUrl: string
  /** Per-request timeout, default 30 s. */
  timeoutMs?: number
  /** At most this many retries (CLI.md: 3). */
  maxRetries?: number
  /** Log one line per request/response to this sink (SVC_DEBUG=1), key masked. */
  debug?: (line: string) => void
  /** Injected for tests: sleeping between retries. */
  sleep?: (ms: number) => Promise<void>
  /** Injected for tests: jitter source in [0, 1). */
  random?: () => number
  userAgent?: string
}

export interface CreateChargeResult {
  charge: Charge
  /** false when the API answered 200: an existing charge was returned (idempotent replay). */
  created: boolean
  idempotencyKey: string
}

export interface CreateSplitChargeResult {
  charge: SplitCharge
  /** false when the API answered 200: an existing split charge was returned (idempotent replay). */
  created: boolean
  idempotencyKey: string
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface ApiClient {
  createCharge(body: ChargeCreateRequest, opts?: { idempotencyKey?: string }): Promise<CreateChargeResult>
  /** POST /v1/split-charges (spec 4.8), with an Idempotency-Key like createCharge, so it is retried as safely. */
  createSplitCharge(body: SplitChargeCreateRequest, opts?: { idempotencyKey?: string }): Promise<CreateSplitChargeResult>
  listCharges(query?: ChargeListQuery): Promise<ChargeList>
  /** Follows hasMore/startingAfter to the end, one page in memory at a time. */
  paginateCharges(query?: ChargeListQuery): AsyncGenerator<Charge>
  getCharge(id: string): Promise<Charge>
  cancelCharge(id: string): Promise<Charge>
  getWithdrawal(id: string): Promise<Withdrawal>
  getAccount(): Promise<Account>
  testWebhook(): Promise<WebhookTestResponse>
  advanceCharge(id: string, status: AdvanceRequest['status']): Promise<Charge>
  /**
   * "Now" on the server's clock, from the Date header of its latest answer (the local clock until
   * one came, or when the two differ by 5 s or less). A sandbox whose clock was advanced is ahead
   * of ours: relative times ("3 min ago") must be computed against its clock, not ours.
   */
  serverNow(): Date
  /** Raw authenticated request for `svc api` (no schema validation, same retries). */
  raw(method: string, path: string, opts?: { body?: string; headers?: Record<string, string> }): Promise<RawResponse>
  close(): Promise<void>
}
