import { describe, expect, it } from 'vitest'
import { CliError, EXIT, exitCodeForApiError, UsageError } from '../../src/lib/errors.js'

describe("the CLI's exit codes (CLI.md)", () => {
  it('keep their numbers', () => {
    expect(EXIT).toEqual({ ok: 0, unexpected: 1, usage: 2, auth: 3, notFound: 4, conflict: 5, rateLimited: 6, network: 7, waitFailed: 8, needsAttention: 9, couldNotTell: 10 })
  })

  it('map an API error by its code first, then its status', () => {
    expect(exitCodeForApiError(502, 'provider_error')).toBe(EXIT.network)
    expect(exitCodeForApiError(500, 'internal_error')).toBe(EXIT.unexpected)
    expect([400, 405, 413, 422].map((s) => exitCodeForApiError(s, 'invalid_request'))).toEqual([2, 2, 2, 2])
    expect([401, 403, 404, 409, 429, 402, 503].map((s) => exitCodeForApiError(s, undefined))).toEqual([3, 3, 4, 5, 6, 7, 7])
    expect(exitCodeForApiError(418, undefined)).toBe(EXIT.unexpected)
  })

  it('a CliError is exit 1 unless it says otherwise; a UsageError is exit 2 naming its field', () => {
    expect(new CliError('x').exitCode).toBe(1)
    expect(new UsageError('bad', { field: 'amount' })).toMatchObject({ exitCode: 2, code: 'invalid_request', details: [{ field: 'amount', message: 'bad' }] })
  })
})
