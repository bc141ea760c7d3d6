/**
 * `--chaos RATE` fault injection, for testing clients' retries. The fault is chosen before
 * any work is done, so an injected error or dropped connection never leaves a charge behind;
 * the one fault that does the work (`lost_response`: the charge is made, the answer never
 * arrives) is only injected on requests a client can safely repeat (GETs and creations that
 * carry an Idempotency-Key), whose retry gets the original.
 */
export type ChaosFault = 'internal_error' | 'provider_unavailable' | 'drop' | 'slow' | 'lost_response'

export interface ChaosOptions {
  rate: number
  /** Seed of the fault sequence, so a failing run can be replayed (default: random). */
  seed?: number
}

export class Chaos {
  private readonly random: () => number

  constructor(private readonly opts: ChaosOptions) {
    this.random = mulberry32(opts.seed ?? Math.floor(Math.random() * 2 ** 32))
  }

  get enabled(): boolean {
    return this.opts.rate > 0
  }

  /** The fault to inject on this request, or undefined. */
  pick(req: { method: string; retrySafe: boolean }): ChaosFault | undefined {
    if (!this.enabled || this.random() >= this.opts.rate) return undefined
    const kinds: ChaosFault[] = ['internal_error', 'provider_unavailable', 'drop', 'slow']
    if (req.retrySafe) kinds.push('lost_response')
    return kinds[Math.floor(this.random() * kinds.length)]
  }
}

/** A small seeded PRNG (mulberry32): enough for fault choice, and reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
