import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import AccountCommand from '../../../src/commands/account.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import ProfilesShow from '../../../src/commands/profiles/show.js'
import ProfilesUse from '../../../src/commands/profiles/use.js'
import SandboxClockShow from '../../../src/commands/sandbox/clock/show.js'
import { resolveCredentials } from '../../../src/lib/config/resolve.js'
import { runCommand } from '../../helpers/run-command.js'
import { configWithProfiles } from '../../helpers/profiles.js'

// A profile name that does not exist is not a bad key: its own code. `profiles use|show|remove` act on the profile: exit 4
// (not found, as the README table says); --profile on another command is its credentials: exit 3.
describe('an unknown profile name', () => {
  it('`profiles use nope`: profile_not_found, exit 4 (issue 16 item 16), the hint lists the known profiles', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(ProfilesUse, ['nope'], { env })
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('Error [profile_not_found]: No profile named "nope".')
    expect(r.stderr).toMatch(/Hint: Known profiles: old, prod, sandbox\. .*svc login --profile nope/)
    expect(r.stderr).not.toContain('invalid_api_key')

    const json = await runCommand(ProfilesUse, ['nope', '--json'], { env })
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'profile_not_found' } })
  })

  it('--profile NAME / SVC_PROFILE on a command: profile_not_found, exit 3', async () => {
    const { env } = await configWithProfiles()
    const flag = await runCommand(SandboxClockShow, ['--profile', 'nope'], { env })
    expect(flag.exitCode).toBe(3)
    expect(flag.stderr).toContain('Error [profile_not_found]')
    expect(flag.stderr).toContain('Known profiles: old, prod, sandbox')
    await expect(resolveCredentials({}, { ...env, SVC_PROFILE: 'nope' })).rejects.toMatchObject({ code: 'profile_not_found', exitCode: 3 })
  })

  it('no profile named and no default, or no sandbox profile: profile_not_found too', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-empty-')) }
    const show = await runCommand(ProfilesShow, [], { env })
    expect(show.exitCode).toBe(4)
    expect(show.stderr).toContain('Error [profile_not_found]')
    const panel = await runCommand(SandboxClockShow, [], { env })
    expect(panel.exitCode).toBe(3)
    expect(panel.stderr).toContain('Error [profile_not_found]')
  })

  it('no default profile but a sandbox profile: the hint says `svc profiles use sandbox` (issue 16 item 16)', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-nodefault-')) }
    const store = await ProfileStore.open(env)
    store.save('sandbox', { apiKey: 'svc_test_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:1' })
    store.save('sandbox-live', { apiKey: 'svc_live_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:1' })
    const r = await runCommand(AccountCommand, [], { env })
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('No API key found: no default profile is set.')
    expect(r.stderr).toContain('Hint: Make one the default with `svc profiles use sandbox`, or pass --profile NAME (stored: sandbox, sandbox-live).')
    expect(r.stderr).not.toContain('svc login')
  })
})
