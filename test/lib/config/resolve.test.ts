import { describe, expect, it } from 'vitest'
import { normalizeBaseUrl, resolveCredentials, resolveProfile, resolveWebhookSecrets } from '../../../src/lib/config/resolve.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { AuthError, UsageError } from '../../../src/lib/errors.js'
import { freshConfigDir, LIVE_KEY, OTHER_TEST_KEY, TEST_KEY, WEBHOOK_SECRET } from '../../helpers/config.js'

const FLAG_KEY = 'svc_test_flagflagflagflag0001'
const ENV_KEY = 'svc_live_envenvenvenvenv0002'
const FLAG_URL = 'https://flag.example.com'
const ENV_URL = 'https://env.example.com'

/** A config dir with a default profile, a second profile, and a logged-out one. */
async function setup(): Promise<NodeJS.ProcessEnv> {
  const env = { SVC_CONFIG_DIR: freshConfigDir() }
  const store = await ProfileStore.open(env)
  store.save('main', { apiKey: TEST_KEY, baseUrl: 'https://main.example.com', webhookSecret: WEBHOOK_SECRET })
  store.save('other', { apiKey: OTHER_TEST_KEY, baseUrl: 'https://other.example.com/' })
  store.save('live', { apiKey: LIVE_KEY, baseUrl: 'https://live.example.com' })
  store.save('gone', { baseUrl: 'https://gone.example.com' })
  store.setDefault('main')
  return env
}

describe('resolveCredentials: key and base URL, flag > env > profile', () => {
  // Every combination of where the key and the URL may come from; the highest source present wins for each, independently.
  const keySources = ['flag', 'env', 'profile'] as const
  const urlSources = ['flag', 'env', 'profile'] as const
  for (const keyFrom of keySources) {
    for (const urlFrom of urlSources) {
      it(`key from ${keyFrom}, base URL from ${urlFrom}`, async () => {
        const env = await setup()
        const flags: Record<string, string> = {}
        if (keyFrom === 'flag') {
          flags['api-key'] = FLAG_KEY
          env.SVC_API_KEY = ENV_KEY
        } else if (keyFrom === 'env') {
          env.SVC_API_KEY = ENV_KEY
        }
        if (urlFrom === 'flag') {
          flags['base-url'] = FLAG_URL
          env.SVC_BASE_URL = ENV_URL
        } else if (urlFrom === 'env') {
          env.SVC_BASE_URL = ENV_URL
        }
        const creds = await resolveCredentials(flags, env)
        expect(creds.apiKey).toBe({ flag: FLAG_KEY, env: ENV_KEY, profile: TEST_KEY }[keyFrom])
        expect(creds.source).toBe({ flag: '--api-key', env: 'SVC_API_KEY', profile: 'profile main' }[keyFrom])
        expect(creds.environment).toBe({ flag: 'test', env: 'live', profile: 'test' }[keyFrom])
        expect(creds.baseUrl).toBe({ flag: FLAG_URL, env: ENV_URL, profile: 'https://main.example.com' }[urlFrom])
      })
    }
  }

  it('the profile: --profile beats SVC_PROFILE beats the default', async () => {
    const env = await setup()
    expect((await resolveCredentials({}, env)).profileName).toBe('main')
    expect(await resolveCredentials({}, { ...env, SVC_PROFILE: 'live' })).toMatchObject({ profileName: 'live', apiKey: LIVE_KEY, environment: 'live', baseUrl: 'https://live.example.com' })
    expect(await resolveCredentials({ profile: 'other' }, { ...env, SVC_PROFILE: 'live' })).toMatchObject({
      profileName: 'other',
      apiKey: OTHER_TEST_KEY,
      // The trailing slash stored in the profile is not doubled by the client.
      baseUrl: 'https://other.example.com',
    })
  })

  it("a key from the environment still takes the chosen profile's base URL", async () => {
    const env = await setup()
    expect(await resolveCredentials({ profile: 'live' }, { ...env, SVC_API_KEY: ENV_KEY })).toMatchObject({ apiKey: ENV_KEY, baseUrl: 'https://live.example.com', source: 'SVC_API_KEY' })
  })

  it('empty flags and variables count as absent', async () => {
    const env = await setup()
    const creds = await resolveCredentials({ 'api-key': '', 'base-url': ' ' }, { ...env, SVC_API_KEY: '', SVC_BASE_URL: '', SVC_PROFILE: '' })
    expect(creds).toMatchObject({ apiKey: TEST_KEY, profileName: 'main', baseUrl: 'https://main.example.com' })
  })

  it('unknown --profile or SVC_PROFILE: exit 3 with a hint, even when flags cover the rest', async () => {
    const env = await setup()
    for (const [flags, e] of [
      [{ profile: 'nope' }, env],
      [{}, { ...env, SVC_PROFILE: 'nope' }],
      [{ profile: 'nope', 'api-key': FLAG_KEY, 'base-url': FLAG_URL }, env],
    ] as const) {
      const error = await resolveCredentials(flags, e).catch((err: unknown) => err)
      expect(error).toMatchObject({ code: 'profile_not_found', exitCode: 3, message: expect.stringContaining('"nope"'), hint: expect.stringContaining('svc profiles list') })
    }
  })

  it('a logged-out profile: exit 3 telling how to log in again', async () => {
    const env = await setup()
    await expect(resolveCredentials({ profile: 'gone' }, env)).rejects.toMatchObject({ exitCode: 3, hint: expect.stringContaining('svc login --profile gone') })
  })

  it('no key anywhere: exit 3 pointing at svc login and the sandbox', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    await expect(resolveCredentials({}, env)).rejects.toMatchObject({ exitCode: 3, hint: expect.stringContaining('svc login') })
  })

  it('a key with neither prefix: exit 3, whatever its source, without printing it', async () => {
    const env = await setup()
    const bad = 'sk_live_abcdefghijklmnop'
    for (const [flags, e] of [
      [{ 'api-key': bad }, env],
      [{}, { ...env, SVC_API_KEY: bad }],
    ] as const) {
      const error = (await resolveCredentials(flags, e).catch((err: unknown) => err)) as AuthError
      expect(error).toBeInstanceOf(AuthError)
      expect(error.exitCode).toBe(3)
      expect(`${error.message} ${error.hint}`).not.toContain(bad)
    }
  })

  it('no base URL anywhere: exit 2 asking for --base-url', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const error = await resolveCredentials({ 'api-key': FLAG_KEY }, env).catch((err: unknown) => err)
    expect(error).toBeInstanceOf(UsageError)
    expect(error).toMatchObject({ exitCode: 2, hint: expect.stringContaining('--base-url') })
  })
})

describe('resolveProfile', () => {
  it('gives nothing when there is no profile and none is named', async () => {
    expect(await resolveProfile({}, { SVC_CONFIG_DIR: freshConfigDir() })).toEqual({})
  })
})

describe('resolveWebhookSecrets: --secret > SVC_WEBHOOK_SECRET > profile', () => {
  it('follows the order, and splits the variable on commas for rotation', async () => {
    const env = await setup()
    expect(await resolveWebhookSecrets({ secret: ['a', 'b'] }, { ...env, SVC_WEBHOOK_SECRET: 'c' })).toEqual(['a', 'b'])
    expect(await resolveWebhookSecrets({}, { ...env, SVC_WEBHOOK_SECRET: 'c, d,' })).toEqual(['c', 'd'])
    expect(await resolveWebhookSecrets({}, env)).toEqual([WEBHOOK_SECRET])
    expect(await resolveWebhookSecrets({ profile: 'other' }, env)).toEqual([])
  })

  it('unknown --profile: exit 3', async () => {
    const env = await setup()
    await expect(resolveWebhookSecrets({ profile: 'nope' }, env)).rejects.toMatchObject({ exitCode: 3 })
  })
})

describe('normalizeBaseUrl', () => {
  it('keeps origin and path, drops trailing slashes', () => {
    expect(normalizeBaseUrl('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787')
    expect(normalizeBaseUrl(' https://api.example.com/svc// ')).toBe('https://api.example.com/svc')
  })

  it('refuses what is not an http(s) URL, or carries credentials, a query or a fragment (exit 2, field base-url)', () => {
    for (const bad of ['api.example.com', 'ftp://x.example', 'https://u:p@x.example', 'https://x.example/?a=1', 'https://x.example/#f']) {
      expect(() => normalizeBaseUrl(bad)).toThrow(UsageError)
      try {
        normalizeBaseUrl(bad, 'SVC_BASE_URL')
      } catch (error) {
        expect(error).toMatchObject({ exitCode: 2, details: [{ field: 'base-url' }], message: expect.stringContaining('SVC_BASE_URL') })
      }
    }
  })
})

describe('resolveCredentials: an environment variable over --profile (issue 36.24)', () => {
  it('says so in envOverride when --profile was typed, not when the profile came from elsewhere', async () => {
    const env = { ...(await setup()), SVC_API_KEY: ENV_KEY }
    expect((await resolveCredentials({ profile: 'other' }, env)).envOverride).toMatch(/^SVC_API_KEY overrides the API key of --profile other /)
    expect((await resolveCredentials({ profile: 'other', profileNotFromFlag: true }, env)).envOverride).toBeUndefined()
    expect((await resolveCredentials({}, env)).envOverride).toBeUndefined()
  })
})
