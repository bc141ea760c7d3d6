/**
 * For command tests: `const runCommand = commandRunner(instantRetries(sleeps))` makes the clients
 * that commands create record their back-off waits instead of sleeping, with no jitter.
 * No module mock: the run's factory (src/lib/command-kit/factory.ts) is the seam.
 */
import { createClient } from '../../src/lib/api/client.js'
import type { CommandFactory } from '../../src/lib/command-kit/factory.js'

export function instantRetries(sleeps: number[]): Partial<CommandFactory> {
  return { newApiClient: async (opts) => createClient({ ...opts, sleep: async (ms) => void sleeps.push(ms), random: () => 0 }) }
}
