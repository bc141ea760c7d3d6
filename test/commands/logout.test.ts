import { describe, expect, it } from 'vitest'
import Logout from '../../src/commands/logout.js'
import { ProfileStore } from '../../src/lib/config/store.js'
import { runCommand } from '../helpers/run-command.js'
import { freshConfigDir } from '../helpers/config.js'
import { configWithProfiles, SECRETS } from '../helpers/profiles.js'

function expectNoSecret(...outputs: string[]): void {
  for (const out of outputs) for (const s of SECRETS) expect(out).not.toContain(s)
}

describe('svc logout', () => {
  it("removes the default profile's key and secret, keeps its base URL for the next login", async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(Logout, [], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Logged out of profile sandbox (removed key svc_test_…2a4b and webhook secret whsec_…e6d5).')
    expectNoSecret(r.stdout, r.stderr)
    expect(store.get('sandbox')).toEqual({ baseUrl: 'http://127.0.0.1:8787' })
    expect(store.get('prod')?.apiKey).toBeDefined()
    expect(store.defaultProfile).toBe('sandbox')
  })

  it('--profile and SVC_PROFILE choose the profile', async () => {
    const { env, store } = await configWithProfiles()
    expect((await runCommand(Logout, ['--profile', 'prod'], { env })).exitCode).toBe(0)
    expect(store.get('prod')).toEqual({ baseUrl: 'https://api.example.com' })
    expect(store.get('sandbox')?.apiKey).toBeDefined()
    expect((await runCommand(Logout, [], { env: { ...env, SVC_PROFILE: 'sandbox' } })).exitCode).toBe(0)
    expect(store.get('sandbox')?.apiKey).toBeUndefined()
  })

  it('--all logs out of every profile; --json lists them', async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(Logout, ['--all', '--json'], { env })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ loggedOut: ['prod', 'sandbox'], alreadyLoggedOut: ['old'] })
    for (const name of store.names()) expect(store.get(name)?.apiKey).toBeUndefined()
    expect(JSON.stringify(store.data)).not.toMatch(/svc_(test|live)_|whsec_/)
  })

  it('logging out twice is not an error', async () => {
    const { env } = await configWithProfiles()
    await runCommand(Logout, ['-p', 'prod'], { env })
    const again = await runCommand(Logout, ['-p', 'prod'], { env })
    expect(again.exitCode).toBe(0)
    expect(again.stderr).toContain('already logged out')
  })

  it('unknown --profile: exit 3 with a hint; --profile with --all: exit 2', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(Logout, ['--profile', 'nope'], { env })
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('svc profiles list')
    expect((await runCommand(Logout, ['--profile', 'prod', '--all'], { env })).exitCode).toBe(2)
  })

  it('no profiles at all: says so, exit 0', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const r = await runCommand(Logout, [], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Not logged in')
    expect((await ProfileStore.open(env)).names()).toEqual([])
  })
})
