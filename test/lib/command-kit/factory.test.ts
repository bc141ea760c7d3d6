/** The commands' seam: a run gets the system's factory with what its caller handed in on top, for that run only. */
import { describe, expect, it } from 'vitest'
import { systemClock, systemFactory } from '../../../src/lib/command-kit/factory.js'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import ProfilesList from '../../../src/commands/profiles/list.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { getIO } from '../../../src/lib/output/io.js'
import { freshConfigDir, TEST_KEY } from '../../helpers/config.js'
import { runCommand } from '../../helpers/run-command.js'
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

  it("opens the stored profiles of its terminal's environment once a run, when first asked for, with the store's 0700/0600 rules", async () => {
    const dir = join(freshConfigDir(), 'svc')
    const { io } = testIO({ env: { SVC_CONFIG_DIR: dir } })
    const factory = systemFactory({ io })
    expect(() => statSync(dir)).toThrow()
    const store = await factory.openProfiles()
    expect(await factory.openProfiles()).toBe(store)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    store.save('work', { apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:9' })
    expect(statSync(store.path).mode & 0o777).toBe(0o600)
    expect(factory.readProfiles().get('work')?.apiKey).toBe(TEST_KEY)
    // `profiles remove`'s store, which tolerates that profile's bad fields, is its own.
    expect(await factory.openProfiles({ tolerate: 'work' })).not.toBe(store)
    // The next run opens them again.
    expect(await systemFactory({ io }).openProfiles()).not.toBe(store)
  })

  it("hands a command the profiles a test gives its run, wherever the terminal's environment points", async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const store = await ProfileStore.open(env)
    store.save('handed', { apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:9' })
    const opened: unknown[] = []
    const openProfiles = async (opts?: { tolerate?: string }) => {
      opened.push(opts)
      return store
    }
    const r = await runCommand(ProfilesList, [], { env: { SVC_CONFIG_DIR: freshConfigDir() }, factory: { openProfiles } })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^handed\ttest\t/)
    expect(opened).toHaveLength(1)
  })
})
