import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import ProfilesList from '../../../src/commands/profiles/list.js'
import ProfilesRemove from '../../../src/commands/profiles/remove.js'
import ProfilesShow from '../../../src/commands/profiles/show.js'
import ProfilesUse from '../../../src/commands/profiles/use.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { runCommand } from '../../helpers/run-command.js'
import { freshConfigDir } from '../../helpers/config.js'
import { configWithProfiles, SECRETS } from '../../helpers/profiles.js'

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
const ANSI = /\u001B\[/

function expectNoSecret(...outputs: string[]): void {
  for (const out of outputs) for (const s of SECRETS) expect(out).not.toContain(s)
}

describe('svc profiles list', () => {
  it('shows a table on a terminal: default marked, environment from the prefix, keys masked', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(ProfilesList, [], { env, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(ANSI)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes
    const lines = r.stdout.replace(/\u001B\[[0-9;]*m/g, '').split('\n')
    expect(lines[0]).toMatch(/NAME\s+ENV\s+BASE URL\s+API KEY\s+WEBHOOK SECRET/)
    expect(lines.find((l) => l.includes('sandbox'))).toMatch(/^\*\s+sandbox\s+test\s+http:\/\/127\.0\.0\.1:8787\s+svc_test_…2a4b\s+whsec_…e6d5$/)
    expect(lines.find((l) => l.includes('prod'))).toMatch(/^\s+prod\s+live\s+https:\/\/api\.example\.com\s+svc_live_…7988\s+-$/)
    expect(lines.find((l) => l.includes('old'))).toContain('(logged out)')
    expectNoSecret(r.stdout, r.stderr)
  })

  it('prints tab-separated rows without header or colours when piped', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(ProfilesList, [], { env })
    expect(r.stdout).toBe(['old\t\thttps://old.example.com\t\tfalse', 'prod\tlive\thttps://api.example.com\tsvc_live_…7988\tfalse', 'sandbox\ttest\thttp://127.0.0.1:8787\tsvc_test_…2a4b\ttrue', ''].join('\n'))
    expectNoSecret(r.stdout, r.stderr)
  })

  it('--json: an array of masked profiles', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(ProfilesList, ['--json'], { env })
    const list = JSON.parse(r.stdout)
    expect(list).toContainEqual({ name: 'sandbox', default: true, environment: 'test', baseUrl: 'http://127.0.0.1:8787', apiKey: 'svc_test_…2a4b', webhookSecret: 'whsec_…e6d5' })
    expect(list).toContainEqual({ name: 'old', default: false, environment: null, baseUrl: 'https://old.example.com', apiKey: null, webhookSecret: null })
    expectNoSecret(r.stdout, r.stderr)
  })

  it('no profiles: a hint on a terminal, nothing in a pipe, [] in JSON', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const tty = await runCommand(ProfilesList, [], { env, tty: true })
    expect(tty.stdout).toBe('')
    expect(tty.stderr).toContain('svc login')
    expect((await runCommand(ProfilesList, [], { env })).stdout).toBe('')
    expect(JSON.parse((await runCommand(ProfilesList, ['--json'], { env })).stdout)).toEqual([])
  })
})

describe('svc profiles use', () => {
  it('makes the profile the default and keeps the file 0600', async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(ProfilesUse, ['prod'], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Default profile: prod (live, https://api.example.com)')
    expect(store.defaultProfile).toBe('prod')
    expect(statSync(store.path).mode & 0o777).toBe(0o600)
  })

  it('unknown name: exit 4 (not found, issue 16 item 16) naming the known profiles, default unchanged', async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(ProfilesUse, ['prdo'], { env })
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('No profile named "prdo"')
    expect(r.stderr).toContain('old, prod, sandbox')
    expect(r.stderr).toContain('Hint:')
    expect(store.defaultProfile).toBe('sandbox')
  })
})

describe('svc profiles show', () => {
  it('shows the default profile on a terminal, key and secret masked', async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(ProfilesShow, ['--no-color'], { env, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('Profile         sandbox (default)')
    expect(r.stdout).toContain('Environment     test')
    expect(r.stdout).toContain('API key         svc_test_…2a4b')
    expect(r.stdout).toContain('Webhook secret  whsec_…e6d5')
    expect(r.stdout).toContain(`Config file     ${store.path}`)
    expectNoSecret(r.stdout, r.stderr)
  })

  it('shows the named profile, else the one SVC_PROFILE names', async () => {
    const { env } = await configWithProfiles()
    expect((await runCommand(ProfilesShow, ['prod'], { env })).stdout).toContain('apiKey\tsvc_live_…7988\n')
    expect((await runCommand(ProfilesShow, [], { env: { ...env, SVC_PROFILE: 'prod' } })).stdout).toContain('name\tprod\n')
  })

  it('--json is masked too', async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(ProfilesShow, ['sandbox', '--json'], { env })
    expect(JSON.parse(r.stdout)).toEqual({
      name: 'sandbox',
      default: true,
      environment: 'test',
      baseUrl: 'http://127.0.0.1:8787',
      apiKey: 'svc_test_…2a4b',
      webhookSecret: 'whsec_…e6d5',
      configFile: store.path,
    })
    expectNoSecret(r.stdout, r.stderr)
  })

  it('unknown name: exit 4; no profile at all: exit 4 with a hint', async () => {
    const { env } = await configWithProfiles()
    expect((await runCommand(ProfilesShow, ['nope'], { env })).exitCode).toBe(4)
    const none = await runCommand(ProfilesShow, [], { env: { SVC_CONFIG_DIR: freshConfigDir() } })
    expect(none.exitCode).toBe(4)
    expect(none.stderr).toContain('svc login')
  })
})

describe('svc profiles remove', () => {
  it('deletes the profile, and says there is no default any more when it was the default', async () => {
    const { env, store } = await configWithProfiles()
    const r = await runCommand(ProfilesRemove, ['sandbox'], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Removed profile sandbox.')
    expect(r.stderr).toContain('svc profiles use NAME')
    expect(store.names()).toEqual(['old', 'prod'])
    expect(store.defaultProfile).toBeUndefined()
    expect(statSync(store.path).mode & 0o777).toBe(0o600)
    expectNoSecret(r.stdout, r.stderr)
  })

  it('--json prints the removed profile, masked', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(ProfilesRemove, ['prod', '--json'], { env })
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'prod', apiKey: 'svc_live_…7988' })
    expectNoSecret(r.stdout, r.stderr)
  })

  it('unknown name: exit 4 and nothing removed', async () => {
    const { env } = await configWithProfiles()
    const r = await runCommand(ProfilesRemove, ['nope'], { env })
    expect(r.exitCode).toBe(4)
    expect((await ProfileStore.open(env)).names()).toEqual(['old', 'prod', 'sandbox'])
  })

  it('needs a name (exit 2)', async () => {
    const { env } = await configWithProfiles()
    expect((await runCommand(ProfilesRemove, [], { env })).exitCode).toBe(2)
  })
})
