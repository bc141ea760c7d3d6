/**
 * The sandbox panel's wire shapes (`/_sandbox/…`): written once here, served by the sandbox and
 * read by the CLI's panel client, which must not import the sandbox's server code. Type-only.
 */
import type { Environment } from './schemas.js'

/** The states of a webhook delivery in the sandbox's log. */
export const DELIVERY_STATES = ['pending', 'succeeded', 'failed', 'skipped'] as const
export type DeliveryState = (typeof DELIVERY_STATES)[number]

/**
 * The states the delivery log shows (`/_sandbox/deliveries`, the library's `deliveries()`): the
 * stored ones, plus two that only `--webhook-faults` makes: `lost` (never sent by `lose`; stored
 * as succeeded, as the service would believe) and `held` (held back by `reorder` or `delay`, not
 * yet handed to delivery).
 */
export const DELIVERY_VIEW_STATES = [...DELIVERY_STATES, 'lost', 'held'] as const
export type DeliveryViewState = (typeof DELIVERY_VIEW_STATES)[number]

export interface WebhookEndpoint {
  environment: Environment
  url: string
  active: boolean
  /** Set when the endpoint was deactivated after 24 h without a success. */
  deactivatedAt?: string
}

export interface AttemptRecord {
  attempt: number
  at: string
  url: string
  status?: number
  error?: string
  response?: string
  durationMs: number
  /** A resend from the panel rather than the retry schedule. */
  manual: boolean
  /**
   * Faults `--webhook-faults` injected into this attempt: `fail-first` (failed as a network
   * error), `duplicate` (a second delivery of the event), `lose` (not sent), `delay`, `reorder`.
   */
  injected?: string[]
}

export interface DeliveryRecord {
  eventId: string
  type: string
  environment: Environment
  url: string
  attempts: number
  lastStatus?: number
  lastError?: string
  lastResponse?: string
  nextRetryAt?: string
  state: DeliveryViewState
  createdAt: string
  firstAttemptAt?: string
  body: string
  /** Faults `--webhook-faults` injected into its attempts (`lose`: the event was never sent). */
  injected?: string[]
  /** Every attempt, oldest first (only when the log is filtered by event id). */
  attemptLog?: AttemptRecord[]
}

export interface SandboxKey {
  /** Masked form only, except in the one `keys create` answer and the start banner. */
  key: string
  environment: Environment
  revoked: boolean
  createdAt: string
}

export interface AccountSettings {
  feeBps: number
  feeFixedInCents: number
  settlementDelayHours: number
  activated: boolean
  blocked: boolean
  merchantIdPresent: boolean
  /** Seconds a QR stays payable (spec: "not shown"). */
  qrValiditySeconds: number
  /**
   * Operators' rehearsal (CLI.md 0.4): paid charges stay in paid_pending_settlement past their
   * estimatedAt until this is false again or `test advance --status settled` settles one.
   */
  holdSettlements?: boolean
}
