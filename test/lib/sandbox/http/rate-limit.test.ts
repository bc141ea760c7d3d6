import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../src/lib/sandbox/http/chaos.js'
import { RateLimiter } from '../../../../src/lib/sandbox/http/rate-limit.js'

describe('RateLimiter', () => {
  it('allows a burst of perSecond, refuses the next with a whole-second Retry-After, and refills with time', () => {
    let now = 0
    const limiter = new RateLimiter(2, () => now)
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 })
    expect(limiter.take('b').allowed).toBe(true)
    now += 499
    expect(limiter.take('a').allowed).toBe(false)
    now += 2
    expect(limiter.take('a').allowed).toBe(true)
    now += 10_000
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a').allowed).toBe(true)
    expect(limiter.take('a').allowed).toBe(false)
  })

  it('answers Retry-After in whole seconds above one second for slow rates', () => {
    let now = 0
    const limiter = new RateLimiter(0.25, () => now)
    expect(limiter.take('k').allowed).toBe(true)
    expect(limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 4 })
    now = 4000
    expect(limiter.take('k').allowed).toBe(true)
  })
})

describe('chaos PRNG', () => {
  it('replays the same sequence for the same seed', () => {
    const a = mulberry32(42)
    const b = mulberry32(42)
    const xs = Array.from({ length: 5 }, () => a())
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs)
    for (const x of xs) expect(x).toBeGreaterThanOrEqual(0)
    for (const x of xs) expect(x).toBeLessThan(1)
  })
})
