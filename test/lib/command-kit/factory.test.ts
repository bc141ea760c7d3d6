/** The commands' seam: a run gets the system's factory with what its caller handed in on top, for that run only. */
import { describe, expect, it } from 'vitest'
import { systemClock, systemFactory } from '../../../src/lib/command-kit/factory.js'
import { getIO } from '../../../src/lib/output/io.js'
import { testIO } from '../../helpers/test-io.js'

describe('the command factory', () => {
  it("is the system's where nothing was handed in, and each part handed in replaces the system's", () => {
    const plain = systemFactory()
    expect(plain.clock).toBe(systemClock)
    expect(plain.io).toBe(getIO())
    const clock = { now: () => 42, sleep: async () => {} }
    const { io } = testIO({ tty: false })
    const handed = systemFactory({ clock, io })
    expect(handed.clock).toBe(clock)
    expect(handed.io).toBe(io)
    expect(typeof handed.newApiClient).toBe('function')
    // Nothing is left behind for the next run.
    expect(systemFactory().clock).toBe(systemClock)
  })

  it("reads credentials from its terminal's environment, not the process's", async () => {
    const { io } = testIO({ env: { SVC_API_KEY: 'svc_test_fromtheterminal', SVC_BASE_URL: 'http://127.0.0.1:9' } })
    const factory = systemFactory({ io })
    const creds = await factory.resolveCredentials({})
    expect(creds.apiKey).toBe('svc_test_fromtheterminal')
    expect(creds.baseUrl).toBe('http://127.0.0.1:9')
  })

  it('makes real clients lazily', async () => {
    const client = await systemFactory().newApiClient({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:9' })
    expect(typeof client.getCharge).toBe('function')
    await client.close()
    const panel = await systemFactory().newPanelClient({ apiKey: 'svc_test_x', baseUrl: 'http://127.0.0.1:9' })
    expect(typeof panel.getWebhook).toBe('function')
  })
})
