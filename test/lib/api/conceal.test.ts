import { describe, expect, it } from 'vitest'
import { concealKey } from '../../../src/lib/api/conceal.js'
import { ApiError, NetworkError, ResponseError } from '../../../src/lib/errors.js'
import { TEST_KEY } from '../../helpers/api-fixtures.js'

// A server (or a hostile --base-url) may echo the Authorization header back in any field.
const echoed = `Bearer ${TEST_KEY}`
const leaks = (x: unknown) => JSON.stringify(x, Object.getOwnPropertyNames(x as object)).includes(TEST_KEY.slice(9))

describe('concealKey: the API key never leaves the client inside an error', () => {
  it('masks an API error message, details, code, request id and hint, and keeps the status and retry delay', () => {
    const err = concealKey(
      new ApiError({ status: 401, code: echoed, message: `bad ${echoed}`, details: [{ field: echoed, message: echoed }], requestId: echoed, retryAfterMs: 500, hint: echoed }),
      TEST_KEY,
    ) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect([err.status, err.retryAfterMs]).toEqual([401, 500])
    for (const text of [err.message, err.apiCode, err.requestId, err.hint, err.details?.[0]?.field, err.details?.[0]?.message]) expect(text).not.toContain(TEST_KEY.slice(9))
    expect(err.message).toMatch(/^bad Bearer /)
  })

  it('masks a response error and a network error down its cause chain, error codes kept', () => {
    const res = concealKey(new ResponseError(`not JSON: ${echoed}`, 502), TEST_KEY) as ResponseError
    expect(res).toBeInstanceOf(ResponseError)
    expect(res.message).not.toContain(TEST_KEY)
    expect(res.status).toBe(502)
    const socket = Object.assign(new Error(`HPE_INVALID_CONSTANT: ${echoed}`), { code: 'HPE_INVALID_CONSTANT', data: echoed })
    const net = concealKey(new NetworkError('the answer was not HTTP', { cause: new Error(`fetch failed: ${echoed}`, { cause: socket }) }), TEST_KEY) as NetworkError
    expect(net).toBeInstanceOf(NetworkError)
    const inner = (net.cause as Error).cause as Error & { code: string; data: string }
    expect(inner.code).toBe('HPE_INVALID_CONSTANT')
    expect([(net.cause as Error).message, inner.message, inner.data, inner.stack ?? ''].some((t) => t.includes(TEST_KEY))).toBe(false)
  })

  it('passes through what is no error', () => {
    expect(concealKey('plain', TEST_KEY)).toBe('plain')
    expect(leaks(concealKey(new Error(echoed), TEST_KEY))).toBe(false)
  })
})
