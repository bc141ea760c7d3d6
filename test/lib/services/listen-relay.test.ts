import { describe, expect, it } from 'vitest'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { UsageError } from '../../../src/lib/errors.js'
import { resolveRelayListen } from '../../../src/lib/services/listen-relay.js'
import { freshConfigDir } from '../../helpers/config.js'

const TOKEN = `svcrelay_${'a1B2c3D4'.repeat(5)}`

async function withProfile(relayUrl?: string, relayToken?: string): Promise<NodeJS.ProcessEnv> {
  const env = { SVC_CONFIG_DIR: freshConfigDir() }
  const store = await ProfileStore.open(env)
  store.save('dev', { relayUrl, relayToken })
  store.setDefault('dev')
  return env
}

function run(input: Partial<Parameters<typeof resolveRelayListen>[0]> & { env: NodeJS.ProcessEnv }) {
  const warnings: string[] = []
  return { warnings, result: resolveRelayListen({ warn: (m) => warnings.push(m), ...input }) }
}

describe('resolveRelayListen: where webhooks listen receives from', () => {
  it('no relay anywhere: the local server (undefined), and --token alone is refused naming it', async () => {
    const env = await withProfile()
    expect(await run({ env }).result).toBeUndefined()
    await expect(run({ env, token: TOKEN }).result).rejects.toMatchObject({ exitCode: 2, details: [{ field: 'token' }] })
  })

  it('--relay beats SVC_RELAY_URL, which beats the profile; the token likewise', async () => {
    const env = { ...(await withProfile('http://127.0.0.1:7001', `${TOKEN}p`)), SVC_RELAY_URL: 'http://127.0.0.1:7002', SVC_RELAY_TOKEN: `${TOKEN}e` }
    const fromFlag = await run({ env, relay: 'http://127.0.0.1:7003', token: `${TOKEN}f` }).result
    expect(fromFlag?.urls.map((u) => u.port)).toEqual(['7003'])
    expect(fromFlag?.token).toBe(`${TOKEN}f`)
    const fromEnv = await run({ env }).result
    expect(fromEnv?.urls.map((u) => u.port)).toEqual(['7002'])
    expect(fromEnv?.token).toBe(`${TOKEN}e`)
    const fromProfile = await run({ env: await withProfile('http://127.0.0.1:7001', `${TOKEN}p`) }).result
    expect(fromProfile?.urls.map((u) => u.port)).toEqual(['7001'])
    expect(fromProfile?.token).toBe(`${TOKEN}p`)
  })

  it('a relay without a token is refused before anything connects, saying how to get one', async () => {
    const env = await withProfile()
    const err = await run({ env, relay: 'https://relay.example.com' }).result.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as UsageError).message).toBe('No relay token.')
    expect((err as UsageError).hint).toContain('svc relay token create')
  })

  it('warns, without the token, when the relay is cleartext off loopback or the token was typed on the command line', async () => {
    const env = await withProfile()
    const { warnings, result } = run({ env, relay: 'http://relay.example.com', token: TOKEN })
    await result
    expect(warnings.join('\n')).toMatch(/not https/)
    expect(warnings.join('\n')).toMatch(/--token is visible/)
    expect(warnings.join('\n')).not.toContain(TOKEN.slice(9))
    const quiet = run({ env: { ...env, SVC_RELAY_TOKEN: TOKEN }, relay: 'http://127.0.0.1:7001' })
    await quiet.result
    expect(quiet.warnings).toEqual([])
  })
})
