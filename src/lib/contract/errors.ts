/** Error codes enumerated in spec part 7, plus the ones this project chose where the spec says "not shown". */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_api_key',
  'revoked_api_key',
  'merchant_not_activated',
  'charge_blocked',
  'missing_merchant_id',
  'charge_not_found',
  'external_id_conflict',
  'charge_processing',
  'charge_not_cancelable',
  'invalid_transition',
  'idempotency_key_conflict',
  'rate_limited',
  'provider_error',
  'provider_unavailable',
  'not_available_in_live',
  'internal_error',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/**
 * Choices for what the spec leaves "not shown" (listed in the README):
 * - 404 of webhook test: `webhook_not_configured`; any unknown path: `not_found`.
 * - provider_unavailable → 503, internal_error → 500.
 * - Oversized request body → 413 `invalid_request`.
 * - A withdrawal that does not exist (in this environment): 404 `withdrawal_not_found`, as charges.
 * - A method a route does not take: 405 `method_not_allowed` with `Allow`; HEAD is GET without the
 *   body, OPTIONS answers 204 with `Allow`.
 */
export const CHOSEN_CODES = {
  webhookNotConfigured: 'webhook_not_configured',
  notFound: 'not_found',
  withdrawalNotFound: 'withdrawal_not_found',
  methodNotAllowed: 'method_not_allowed',
} as const

export const STATUS_OF_CODE: Record<string, number> = {
  invalid_request: 400,
  invalid_api_key: 401,
  revoked_api_key: 401,
  provider_error: 402,
  merchant_not_activated: 403,
  charge_blocked: 403,
  missing_merchant_id: 403,
  not_available_in_live: 403,
  charge_not_found: 404,
  webhook_not_configured: 404,
  not_found: 404,
  withdrawal_not_found: 404,
  method_not_allowed: 405,
  external_id_conflict: 409,
  charge_processing: 409,
  charge_not_cancelable: 409,
  invalid_transition: 409,
  idempotency_key_conflict: 409,
  rate_limited: 429,
  internal_error: 500,
  provider_unavailable: 503,
}
