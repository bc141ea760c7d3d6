/**
 * For command tests: `vi.mock('…/src/lib/api/client.js', (orig) => instantRetries(orig, sleeps))`
 * makes the client that ApiCommand creates record its back-off waits instead of sleeping.
 */
import type * as ClientModule from '../../src/lib/api/client.js'
import type { ClientOptions } from '../../src/lib/api/types.js'

export async function instantRetries(importOriginal: () => Promise<unknown>, sleeps: number[]): Promise<typeof ClientModule> {
  const real = (await importOriginal()) as typeof ClientModule
  return {
    ...real,
    createClient: (opts: ClientOptions) => real.createClient({ ...opts, sleep: async (ms) => void sleeps.push(ms), random: () => 0 }),
  }
}
