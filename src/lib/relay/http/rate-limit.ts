/**
 * Failed token checks per client address: past `limit` failures within `windowMs`, every request
 * that needs a token from that address is answered 429 with Retry-After until the oldest failure
 * leaves the window. Tokens have 256 random bits, so this is not what stops guessing: it keeps a
 * scanner from costing the store a lookup per request. Bounded: at most `maxAddresses` tracked.
 */

export interface AuthLimiterOptions {
  limit: number
  windowMs: number
  now: () => number
  maxAddresses?: number
}

export class AuthFailureLimiter {
  private readonly failures = new Map<string, number[]>()

  constructor(private readonly opts: AuthLimiterOptions) {}

  /** Milliseconds the address must wait, or 0 when it may try. */
  retryAfterMs(address: string): number {
    const list = this.live(address)
    if (list.length < this.opts.limit) return 0
    return Math.max(1, list[0]! + this.opts.windowMs - this.opts.now())
  }

  fail(address: string): void {
    const list = this.live(address)
    list.push(this.opts.now())
    if (list.length > this.opts.limit) list.splice(0, list.length - this.opts.limit)
    this.failures.delete(address)
    this.failures.set(address, list)
    const max = this.opts.maxAddresses ?? 100_000
    // The oldest-touched address goes first (a Map keeps insertion order).
    while (this.failures.size > max) this.failures.delete(this.failures.keys().next().value!)
  }

  private live(address: string): number[] {
    const since = this.opts.now() - this.opts.windowMs
    const list = (this.failures.get(address) ?? []).filter((t) => t > since)
    if (list.length === 0) this.failures.delete(address)
    return list
  }
}
