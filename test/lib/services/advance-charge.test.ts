/**
 * test advance's use-case: a bad status is an input error naming the field by its path, a live key
 * is refused before anything is sent, and a refused move carries a typed next step (the states the
 * charge could come from, and reading it) that each door words.
 */
import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { ApiError, CliError } from '../../../src/lib/errors.js'
import { advanceCharge, sourcesOf } from '../../../src/lib/services/advance-charge.js'

const ID = '6650a1b2c3d4e5f60718293a'
const test = { environment: 'test' as const, apiKey: 'svc_test_Zq8rT2vLm9XwK4pN7bYc3HdJ', source: 'SVC_API_KEY' }

describe('advanceCharge', () => {
  it('refuses a status that is no target by its path, and a live key, before anything is sent', async () => {
    let sent = 0
    const client = async () => ({ advanceCharge: async () => (sent++, Promise.reject(new Error('not reached'))) })
    const bad = await advanceCharge(client, test, ID, 'paid').catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(InputError)
    expect((bad as InputError).issues.map((i) => i.path)).toEqual(['status'])
    const live = await advanceCharge(client, { ...test, environment: 'live', apiKey: 'svc_live_Zq8rT2vLm9XwK4pN7bYc3HdJ' }, ID, 'settled').catch((e: unknown) => e)
    expect(live).toBeInstanceOf(CliError)
    expect([(live as CliError).code, (live as CliError).exitCode, (live as CliError).next]).toEqual(['not_available_in_live', 3, { do: 'use_test_key', by: 'svc' }])
    expect(sent).toBe(0)
  })

  it('gives a refused move the step to read the charge, with the states it could come from', async () => {
    const refused = new ApiError({ status: 409, code: 'invalid_transition', message: 'no', requestId: 'req_1' })
    const err = await advanceCharge(async () => ({ advanceCharge: () => Promise.reject(refused) }), test, ID, 'settled').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).next).toEqual({ do: 'see_charge', id: ID, status: 'settled', from: sourcesOf('settled') })
    expect([(err as ApiError).requestId, (err as ApiError).exitCode, (err as ApiError).hint]).toEqual(['req_1', 5, undefined])
  })
})
