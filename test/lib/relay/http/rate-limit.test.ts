import { describe, expect, it } from 'vitest'
import { AuthFailureLimiter } from '../../../../src/lib/relay/http/rate-limit.js'

describe('AuthFailureLimiter', () => {
  it('lets an address fail `limit` times per window, then says how long to wait; other addresses are not affected', () => {
    let t = 0
    const l = new AuthFailureLimiter({ limit: 3, windowMs: 60_000, now: () => t })
    for (let i = 0; i < 3; i++) {
      expect(l.retryAfterMs('1.2.3.4')).toBe(0)
      l.fail('1.2.3.4')
      t += 1000
    }
    expect(l.retryAfterMs('1.2.3.4')).toBe(57_000)
    expect(l.retryAfterMs('5.6.7.8')).toBe(0)
    t = 60_001
    expect(l.retryAfterMs('1.2.3.4')).toBe(0)
  })

  it('tracks a bounded number of addresses', () => {
    const l = new AuthFailureLimiter({ limit: 1, windowMs: 60_000, now: () => 0, maxAddresses: 2 })
    l.fail('a')
    l.fail('b')
    l.fail('c')
    expect(l.retryAfterMs('a')).toBe(0)
    expect(l.retryAfterMs('c')).toBeGreaterThan(0)
  })
})
