import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import RelayChannelAdd from '../../../../src/commands/relay/channel/add.js'
import RelayTokenCreate from '../../../../src/commands/relay/token/create.js'
import RelayTokenList from '../../../../src/commands/relay/token/list.js'
import RelayTokenRevoke from '../../../../src/commands/relay/token/revoke.js'
import { openSqliteRelayStore } from '../../../../src/lib/relay/store/sqlite.js'
import { hashRelayToken } from '../../../../src/lib/relay/tokens.js'
import { runCommand } from '../../../helpers/run-command.js'

let data: string
beforeEach(async () => {
  data = mkdtempSync(join(tmpdir(), 'svc-relay-tok-'))
  await runCommand(RelayChannelAdd, ['team', '--secret', 'whsec_token_create_test_01234567', '--data', data])
})
afterEach(() => rmSync(data, { recursive: true, force: true }))

describe('svc relay token create / list / revoke', () => {
  it('prints the token once (svcrelay_ + 43 base64url chars) and stores only its hash', async () => {
    const r = await runCommand(RelayTokenCreate, ['alice', '--channel', 'team', '--only', 'charge.*', '--match', 'data.charge.externalId=alice-*', '--data', data, '--json'])
    expect(r.exitCode).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toEqual({ name: 'alice', channel: 'team', token: expect.stringMatching(/^svcrelay_[A-Za-z0-9_-]{43}$/) })
    const piped = await runCommand(RelayTokenCreate, ['bob', '--channel', 'team', '--data', data])
    expect(piped.stdout).toMatch(/^svcrelay_[A-Za-z0-9_-]{43}\n$/)
    const store = await openSqliteRelayStore({ dir: data })
    const tokens = await store.listTokens()
    expect(tokens.find((t) => t.name === 'alice')).toMatchObject({ hash: hashRelayToken(out.token), only: ['charge.*'], match: [{ path: 'data.charge.externalId', glob: 'alice-*' }] })
    expect(JSON.stringify(tokens)).not.toContain(out.token.slice(9))
    await store.close()
    const list = await runCommand(RelayTokenList, ['--data', data, '--json'])
    expect(list.stdout).not.toContain(out.token.slice(9))
    expect(JSON.parse(list.stdout).map((t: { name: string }) => t.name)).toEqual(['alice', 'bob'])
  })

  it.each([
    [['Alice', '--channel', 'team'], 'name'],
    [['alice', '--channel', 'Team'], 'channel'],
    [['alice', '--channel', 'team', '--only', 'charge.payed'], 'only'],
    [['alice', '--channel', 'team', '--match', 'novalue'], 'match'],
    [['alice', '--channel', 'team', '--match', 'data..x=1'], 'match'],
  ])('refuses %j with exit 2 naming %s', async (argv, field) => {
    const r = await runCommand(RelayTokenCreate, [...argv, '--data', data, '--json'])
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stderr).error.details[0].field).toBe(field)
  })

  it('an unknown channel exits 4, a taken name 5; revoke is idempotent and an unknown token exits 4', async () => {
    expect((await runCommand(RelayTokenCreate, ['alice', '--channel', 'nope', '--data', data])).exitCode).toBe(4)
    await runCommand(RelayTokenCreate, ['alice', '--channel', 'team', '--data', data])
    expect((await runCommand(RelayTokenCreate, ['alice', '--channel', 'team', '--data', data])).exitCode).toBe(5)
    expect((await runCommand(RelayTokenRevoke, ['alice', '--data', data])).exitCode).toBe(0)
    expect((await runCommand(RelayTokenRevoke, ['alice', '--data', data])).exitCode).toBe(0)
    expect((await runCommand(RelayTokenRevoke, ['nope', '--data', data])).exitCode).toBe(4)
    expect(JSON.parse((await runCommand(RelayTokenList, ['--data', data, '--json'])).stdout)[0]).toMatchObject({ name: 'alice', revoked: true })
  })
})
