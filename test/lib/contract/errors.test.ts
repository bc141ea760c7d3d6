import { describe, expect, it } from 'vitest'
import { CHOSEN_CODES, ERROR_CODES, STATUS_OF_CODE } from '../../../src/lib/contract/errors.js'

// One table gives the HTTP status of every error code: the sandbox answers with it and the CLI reads it.
describe('the status of each error code (spec part 7)', () => {
  it('every code of the spec and every code this project chose has a status', () => {
    for (const code of [...ERROR_CODES, ...Object.values(CHOSEN_CODES)]) expect(STATUS_OF_CODE[code], code).toBeGreaterThanOrEqual(400)
  })

  it('the statuses a client branches on', () => {
    expect(STATUS_OF_CODE).toMatchObject({ invalid_request: 400, invalid_api_key: 401, charge_not_found: 404, idempotency_key_conflict: 409, rate_limited: 429, provider_unavailable: 503 })
  })
})
