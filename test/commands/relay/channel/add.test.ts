import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import RelayChannelAdd from '../../../../src/commands/relay/channel/add.js'
import RelayChannelList from '../../../../src/commands/relay/channel/list.js'
import RelayChannelRemove from '../../../../src/commands/relay/channel/remove.js'
import { runCommand } from '../../../helpers/run-command.js'

const SECRET = 'whsec_channel_add_test_0123456789'
let data: string
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'svc-relay-cmd-'))
})
afterEach(() => rmSync(data, { recursive: true, force: true }))

describe('svc relay channel add / list / remove', () => {
  it('adds a channel and prints {"name","url"} with the public URL; the secret is never printed', async () => {
    const r = await runCommand(RelayChannelAdd, ['team', '--secret', SECRET, '--data', data, '--public-url', 'https://relay.example.com/', '--json'])
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('--secret is visible to other processes')
    expect(JSON.parse(r.stdout)).toEqual({ name: 'team', url: 'https://relay.example.com/hooks/team' })
    const list = await runCommand(RelayChannelList, ['--data', data, '--json'], { env: { SVC_RELAY_PUBLIC_URL: 'https://relay.example.com' } })
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name: 'team', url: 'https://relay.example.com/hooks/team', secrets: 1 })])
    expect(r.stdout + r.stderr + list.stdout + list.stderr).not.toContain(SECRET.slice(6))
  })

  it('takes the secrets from SVC_WEBHOOK_SECRET (comma-separated, rotation) when --secret is not given', async () => {
    const r = await runCommand(RelayChannelAdd, ['team', '--data', data, '--json'], { env: { SVC_WEBHOOK_SECRET: `${SECRET},whsec_second_secret_00000000` } })
    expect(r.exitCode).toBe(0)
    const list = await runCommand(RelayChannelList, ['--data', data, '--json'])
    expect(JSON.parse(list.stdout)[0].secrets).toBe(2)
  })

  it.each([
    [['Team!', '--secret', SECRET], 'name'],
    [['team'], 'secret'],
    [['team', '--secret', 'not-a-secret'], 'secret'],
    [['team', '--secret', SECRET, '--retention', 'forever'], 'retention'],
    [['team', '--secret', SECRET, '--max-bytes', '12'], 'max-bytes'],
    [['team', '--secret', SECRET, '--public-url', 'ftp://x'], 'public-url'],
  ])('refuses %j with exit 2 naming %s, and creates nothing', async (argv, field) => {
    const r = await runCommand(RelayChannelAdd, [...argv, '--data', data, '--json'], { env: { SVC_WEBHOOK_SECRET: undefined } })
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stderr).error.details[0].field).toBe(field)
    expect(JSON.parse((await runCommand(RelayChannelList, ['--data', data, '--json'])).stdout)).toEqual([])
  })

  it('a taken name exits 5; removing an unknown channel exits 4; remove then list is empty', async () => {
    await runCommand(RelayChannelAdd, ['team', '--secret', SECRET, '--data', data])
    expect((await runCommand(RelayChannelAdd, ['team', '--secret', SECRET, '--data', data])).exitCode).toBe(5)
    expect((await runCommand(RelayChannelRemove, ['nope', '--data', data])).exitCode).toBe(4)
    expect((await runCommand(RelayChannelRemove, ['team', '--data', data, '--json'])).stdout).toContain('"removed":true')
    expect(JSON.parse((await runCommand(RelayChannelList, ['--data', data, '--json'])).stdout)).toEqual([])
  })

  it('refuses a --store that is not a postgres:// URL, exit 2 (PostgreSQL itself: test/commands/relay/store-postgres.test.ts)', async () => {
    const r = await runCommand(RelayChannelAdd, ['team', '--store', 'mysql://localhost/relay', '--json'], { env: { SVC_WEBHOOK_SECRET: SECRET } })
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stderr).error.details[0].field).toBe('store')
  })
})
