/**
 * The sandbox of the chaos suites (reliability/chaos-creates and chaos-binary), set up once: in
 * memory, on a manual clock, CHAOS_RATE faults (500/503 answers, dropped connections, slow answers,
 * answers lost after the work) drawn from `seed` so a failing run replays, no rate limit in the way.
 */
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'

export const CHAOS_RATE = 0.3

/** `slowMs`: how long a slow answer takes. */
export function startChaosSandbox(opts: { seed: number; slowMs: number }): Promise<RunningSandbox> {
  return startSandboxServer({
    port: 0,
    inMemory: true,
    clock: new SandboxClock({ manual: true }),
    chaos: CHAOS_RATE,
    chaosSeed: opts.seed,
    chaosSlowMs: opts.slowMs,
    rateLimitPerSecond: 1_000_000,
  })
}
