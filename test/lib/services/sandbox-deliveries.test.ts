/** `listSandboxDeliveries` against a real sandbox: the typed input read first, `since` on the sandbox's clock, not_found for an event with no delivery. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { PanelClient } from '../../../src/lib/sandbox-client/panel-client.js'
import { listSandboxDeliveries } from '../../../src/lib/services/sandbox-deliveries.js'

// The sandbox's clock is a year ahead of this machine's: an age counts back from the sandbox's.
const SANDBOX_NOW = Date.parse('2027-11-22T12:00:00.000Z')
let sb: RunningSandbox
let panel: PanelClient

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true, start: SANDBOX_NOW }) })
  panel = new PanelClient({ baseUrl: sb.baseUrl, apiKey: sb.testKey })
})
afterAll(async () => {
  await sb?.close()
})

const ctx = () => {
  const asked = { panel: 0 }
  return {
    asked,
    panel: async () => (asked.panel++, panel),
    now: () => new Date(SANDBOX_NOW - 365 * 86_400_000),
    environment: async () => 'test' as const,
  }
}

describe('listSandboxDeliveries', () => {
  it('refuses a bad since and limit at once, by path, before the sandbox is asked', async () => {
    const c = ctx()
    const refused = listSandboxDeliveries({ since: 'soonish', limit: 1001 }, c)
    await expect(refused).rejects.toBeInstanceOf(InputError)
    await expect(refused).rejects.toMatchObject({ issues: [{ path: 'since', message: expect.stringContaining('is not a date') }, { path: 'limit' }] })
    expect(c.asked.panel).toBe(0)
  })

  it("reads an age on the sandbox's clock, and fills in the default limit", async () => {
    const log = await listSandboxDeliveries({ since: '24h', state: 'failed', type: 'charge.*' }, ctx())
    expect(log.filter).toMatchObject({ since: new Date(SANDBOX_NOW - 86_400_000).toISOString(), limit: 50, state: 'failed', type: 'charge.*' })
  })

  it('an event with no delivery: not_found (exit 4) read at once or streamed, with or without all', async () => {
    const log = await listSandboxDeliveries({ eventId: 'evt_nope' }, ctx())
    await expect(log.page()).rejects.toMatchObject({ exitCode: 4, code: 'not_found', message: expect.stringContaining('evt_nope') })
    for (const all of [false, true]) {
      const streamed = await listSandboxDeliveries({ eventId: 'evt_nope', all }, ctx())
      await expect(streamed.pages[Symbol.asyncIterator]().next()).rejects.toMatchObject({ exitCode: 4, code: 'not_found' })
    }
    expect(await (await listSandboxDeliveries({}, ctx())).page()).toEqual([])
  })
})
