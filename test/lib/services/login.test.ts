/** The login use-case below the command, against the sandbox over real HTTP: the key checked, then stored 0600. */
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { login } from '../../../src/lib/services/login.js'
import { testIO } from '../../helpers/test-io.js'
import { useSandboxClient } from '../../helpers/sandbox-client.js'

const ctx = useSandboxClient()

function setUp(stdin: string) {
  const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-login-')) }
  const mem = testIO({ env, stdin })
  const warnings: string[] = []
  return {
    env,
    ...mem,
    warnings,
    ctx: { io: mem.io, openProfiles: () => ProfileStore.open(env), newApiClient: async (o: Parameters<typeof createClient>[0]) => createClient(o), warn: (t: string) => void warnings.push(t) },
  }
}

describe('login', () => {
  it('--with-key-stdin: checks the key with GET /v1/account, stores key, secret and base URL, and makes it the default', async () => {
    const s = setUp(`${ctx.sandbox.testKey}\n${ctx.sandbox.webhookSecret}\n`)
    const r = await login({ profile: 'local', baseUrl: ctx.sandbox.baseUrl, withKeyStdin: true, withWebhookSecretStdin: true }, s.ctx)
    expect(r).toMatchObject({ name: 'local', environment: 'test', created: true, becameDefault: true, secret: 'new' })
    const store = await ProfileStore.open(s.env)
    expect(store.get('local')).toMatchObject({ apiKey: ctx.sandbox.testKey, webhookSecret: ctx.sandbox.webhookSecret, baseUrl: ctx.sandbox.baseUrl })
    expect(store.defaultProfile).toBe('local')
    expect(statSync(store.path).mode & 0o777).toBe(0o600)
    expect(s.out() + s.err()).not.toContain(ctx.sandbox.testKey)
  })

  it('a key the service refuses is not stored: exit 3, and the store stays empty', async () => {
    const s = setUp('svc_test_00000000000000000000000000000000\n')
    await expect(login({ profile: 'bad', baseUrl: ctx.sandbox.baseUrl, withKeyStdin: true, withWebhookSecretStdin: false }, s.ctx)).rejects.toMatchObject({ exitCode: 3 })
    expect((await ProfileStore.open(s.env)).names()).toEqual([])
  })

  it('a key of neither prefix: exit 3 before any request; no base URL: exit 2 naming --base-url', async () => {
    const s = setUp('sk_live_123\n')
    await expect(login({ baseUrl: ctx.sandbox.baseUrl, withKeyStdin: true, withWebhookSecretStdin: false }, s.ctx)).rejects.toMatchObject({ exitCode: 3 })
    const t = setUp(`${ctx.sandbox.testKey}\n`)
    await expect(login({ withKeyStdin: true, withWebhookSecretStdin: false }, t.ctx)).rejects.toMatchObject({ exitCode: 2, details: [{ field: 'base-url' }] })
  })
})
