import { describe, expect, it } from 'vitest'
import { backoffMs, parseRetryAfter, retryDelay } from '../../../src/lib/api/retry.js'

describe('retry policy', () => {
  it('backs off exponentially with jitter between half and all of the step, capped at 8 s', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0))).toEqual([250, 500, 1000, 2000])
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0.999999))).toEqual([500, 1000, 2000, 4000])
    expect(backoffMs(10, () => 0.999999)).toBe(8000)
  })

  it('reads Retry-After as seconds or as an HTTP date, and ignores garbage', () => {
    const now = Date.parse('2026-11-20T14:00:00Z')
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter('Fri, 20 Nov 2026 14:00:07 GMT', now)).toBe(7000)
    expect(parseRetryAfter('Fri, 20 Nov 2026 13:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })

  it('retries only what CLI.md says', () => {
    const r = () => 0
    expect(retryDelay({ kind: 'status', status: 409, code: 'charge_processing' }, 0, r)).toBe(1000)
    expect(retryDelay({ kind: 'status', status: 409, code: 'charge_not_cancelable' }, 0, r)).toBeUndefined()
    expect(retryDelay({ kind: 'status', status: 429, retryAfterMs: 1500 }, 2, r)).toBe(1500)
    expect(retryDelay({ kind: 'status', status: 404 }, 0, r)).toBeUndefined()
    expect(retryDelay({ kind: 'status', status: 502 }, 1, r)).toBe(500)
    expect(retryDelay({ kind: 'transport', reason: 'refused' }, 0, r)).toBe(250)
  })

  it('does not repeat an unprotected request that may have taken effect', () => {
    const r = () => 0
    expect(retryDelay({ kind: 'transport', reason: 'reset' }, 0, r, true)).toBeUndefined()
    expect(retryDelay({ kind: 'transport', reason: 'timeout' }, 0, r, true)).toBeUndefined()
    expect(retryDelay({ kind: 'status', status: 500 }, 0, r, true)).toBeUndefined()
    expect(retryDelay({ kind: 'transport', reason: 'refused' }, 0, r, true)).toBe(250)
    expect(retryDelay({ kind: 'status', status: 503 }, 0, r, true)).toBe(250)
    expect(retryDelay({ kind: 'status', status: 429 }, 0, r, true)).toBe(250)
  })
})
