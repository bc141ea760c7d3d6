/**
 * Per-key rate limiting (spec: "numeric rate limit per key: not shown"; the sandbox's default
 * is generous and `rateLimitPerSecond` lowers it). A token bucket per key, on the wall clock:
 * it limits how fast real requests arrive, which the sandbox clock (which can jump) must not
 * influence.
 */
export interface RateDecision {
  allowed: boolean
  /** Whole seconds until the next request would be allowed (for Retry-After), when refused. */
  retryAfterSeconds: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()
  /** A burst of one second's worth of requests, and never less than one request. */
  private readonly capacity: number

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, perSecond)
  }

  take(key: string): RateDecision {
    const t = this.now()
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: t }
    b.tokens = Math.min(this.capacity, b.tokens + ((t - b.at) / 1000) * this.perSecond)
    b.at = t
    this.buckets.set(key, b)
    if (b.tokens >= 1) {
      b.tokens -= 1
      return { allowed: true, retryAfterSeconds: 0 }
    }
    const waitMs = ((1 - b.tokens) / this.perSecond) * 1000
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
  }
}
