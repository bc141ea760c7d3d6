/** The commands' seam: what a test hands in replaces the system's parts, merged, until reset. */
import { describe, expect, it } from 'vitest'
import { commandFactory, overrideCommandFactory, resetCommandFactory, systemFactory } from '../../../src/lib/command-kit/factory.js'

describe('the command factory', () => {
  it("is the system's until a test overrides a part, and merges overrides part by part", async () => {
    expect(commandFactory()).toBe(systemFactory)
    const clock = { now: () => 42, sleep: async () => {} }
    overrideCommandFactory({ clock })
    const newApiClient = systemFactory.newApiClient
    overrideCommandFactory({ newApiClient })
    expect(commandFactory().clock).toBe(clock)
    expect(commandFactory().newApiClient).toBe(newApiClient)
    expect(commandFactory().newPanelClient).toBe(systemFactory.newPanelClient)
    resetCommandFactory()
    expect(commandFactory()).toBe(systemFactory)
  })

  it('makes real clients lazily', async () => {
    const client = await systemFactory.newApiClient({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:9' })
    expect(typeof client.getCharge).toBe('function')
    await client.close()
    const panel = await systemFactory.newPanelClient({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:9' })
    expect(typeof panel.getWebhook).toBe('function')
  })
})
