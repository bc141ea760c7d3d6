import { statSync } from 'node:fs'
import { PassThrough } from 'node:stream'
import nock from 'nock'
import { afterEach, describe, expect, it } from 'vitest'
import Login from '../../src/commands/login.js'
import { ProfileStore } from '../../src/lib/config/store.js'
import { requestsWithoutMock } from '../helpers/http-mocks.js'
import { commandRunner } from '../helpers/run-command.js'
import { account, BASE_URL, errorBody, LIVE_KEY, TEST_KEY } from '../helpers/api-fixtures.js'
import { instantRetries } from '../helpers/instant-retries.js'
import { freshConfigDir, WEBHOOK_SECRET } from '../helpers/config.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

afterEach(() => {
  sleeps.length = 0
})

const SECRETS = [TEST_KEY, LIVE_KEY, WEBHOOK_SECRET]
function expectNoSecret(...outputs: string[]): void {
  for (const out of outputs) for (const s of SECRETS) expect(out).not.toContain(s)
}

async function stored(env: Record<string, string>) {
  const store = await ProfileStore.open(env)
  return { store, names: store.names(), default: store.defaultProfile }
}

/** Runs login on a fake terminal where `typed` is what the user types at the prompts. */
async function runOnTerminal(argv: string[], typed: string, env: Record<string, string>) {
  const stdin = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode: (m: boolean) => void }
  stdin.isTTY = true
  stdin.setRawMode = () => {}
  stdin.write(typed)
  return runCommand(Login, argv, { tty: true, stdin, env: { ...env, CI: undefined }, noColor: true })
}

describe('svc login --with-key-stdin', () => {
  it('checks the key with GET /v1/account, stores it 0600 as the default profile, and prints it masked', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
      .get('/v1/account')
      .reply(200, account())
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', `${BASE_URL}/`], { stdin: `  ${TEST_KEY}  \nignored\n`, env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Logged in to test as loja@example.com.br (merchant mch_7Hq2xK9) — profile default, key svc_test_…2a4b')
    expect(r.stderr).toContain('default is now the default profile')
    expectNoSecret(r.stdout, r.stderr)
    const { store } = await stored(env)
    expect(store.get('default')).toEqual({ apiKey: TEST_KEY, baseUrl: BASE_URL })
    expect(store.defaultProfile).toBe('default')
    expect(statSync(store.path).mode & 0o777).toBe(0o600)
  })

  it('a 401: exit 3 with the API code and requestId, and nothing stored', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL)
      .get('/v1/account')
      .reply(401, errorBody('invalid_api_key', 'Chave de API inválida', { requestId: 'req_401' }))
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL], { stdin: `${TEST_KEY}\n`, env })
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('Error [invalid_api_key]: Chave de API inválida (requestId req_401)')
    expect(r.stderr).toContain('Nothing was stored')
    expectNoSecret(r.stdout, r.stderr)
    expect((await stored(env)).names).toEqual([])
  })

  it('a 401 with --json: the API error object on stderr', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const plainHttp = BASE_URL.replace(/^https:/, 'http:')
    nock(plainHttp).get('/v1/account').reply(401, errorBody('revoked_api_key', 'Chave revogada'))
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', plainHttp, '--json'], { stdin: `${TEST_KEY}\n`, env })
    expect(r.exitCode).toBe(3)
    // Warnings (here: a base URL that is not https) come first; the error object is the last line.
    expect(r.stderr).toContain('is not https')
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toEqual({ error: { code: 'revoked_api_key', message: 'Chave revogada', requestId: 'req_8f2c1d' } })
  })

  it('a key with neither prefix: exit 3 before any request', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const bad = 'sk_test_0123456789abcdef0123'
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL], { stdin: `${bad}\n`, env })
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('neither svc_live_ nor svc_test_')
    expect(r.stderr).not.toContain(bad)
    expect(requestsWithoutMock()).toEqual([])
    expect((await stored(env)).names).toEqual([])
  })

  it('empty stdin: exit 2 naming the key, no request', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL], { stdin: '\n', env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('No API key given')
    expect(requestsWithoutMock()).toEqual([])
  })

  it('no base URL anywhere: exit 2 asking for --base-url, before reading the key', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const r = await runCommand(Login, ['--with-key-stdin'], { stdin: `${TEST_KEY}\n`, env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--base-url')
  })

  it('takes the base URL from SVC_BASE_URL, then from the stored profile on a later login', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL).get('/v1/account').twice().reply(200, account())
    expect((await runCommand(Login, ['--with-key-stdin', '-p', 'ci'], { stdin: `${TEST_KEY}\n`, env: { ...env, SVC_BASE_URL: BASE_URL } })).exitCode).toBe(0)
    const again = await runCommand(Login, ['--with-key-stdin', '-p', 'ci'], { stdin: `${TEST_KEY}\n`, env })
    expect(again.exitCode).toBe(0)
    expect((await stored(env)).store.get('ci')?.baseUrl).toBe(BASE_URL)
  })

  it('a bad --base-url: exit 2 naming the field, no request', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', 'api.example.com'], { stdin: `${TEST_KEY}\n`, env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('base-url')
  })

  it('stores a webhook secret read from the next stdin line, masked in the output', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runCommand(Login, ['--with-key-stdin', '--with-webhook-secret-stdin', '--base-url', BASE_URL], { stdin: `${TEST_KEY}\n${WEBHOOK_SECRET}\n`, env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('Webhook secret stored: whsec_…e6d5')
    expectNoSecret(r.stdout, r.stderr)
    expect((await stored(env)).store.get('default')?.webhookSecret).toBe(WEBHOOK_SECRET)
  })

  it('--with-webhook-secret-stdin without its line: exit 2, nothing stored', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const r = await runCommand(Login, ['--with-key-stdin', '--with-webhook-secret-stdin', '--base-url', BASE_URL], { stdin: `${TEST_KEY}\n`, env })
    expect(r.exitCode).toBe(2)
    expect(requestsWithoutMock()).toEqual([])
    expect((await stored(env)).names).toEqual([])
  })

  describe('the webhook secret is checked as the key is (issue 16 item 17)', () => {
    for (const [what, secret] of [
      ['a line of shell', `export SVC_WEBHOOK_SECRET=${'a'.repeat(20)}`],
      ['shell syntax', '$(cat ~/.secret-file)'],
      ['the API key', TEST_KEY],
      ['too short', 'whsec_abc'],
    ] as const) {
      it(`stdin: ${what} → exit 2, nothing sent, nothing stored`, async () => {
        const env = { SVC_CONFIG_DIR: freshConfigDir() }
        const r = await runCommand(Login, ['--with-key-stdin', '--with-webhook-secret-stdin', '--base-url', BASE_URL], { stdin: `${TEST_KEY}\n${secret}\n`, env })
        expect(r.exitCode).toBe(2)
        expect(r.stderr).toContain('This is not a webhook secret')
        expect(requestsWithoutMock()).toEqual([])
        expect((await stored(env)).names).toEqual([])
        expectNoSecret(r.stderr)
      })
    }

    it('on a terminal: a bad secret is asked again, then the good one is stored', async () => {
      const env = { SVC_CONFIG_DIR: freshConfigDir() }
      nock(BASE_URL).get('/v1/account').reply(200, account())
      const r = await runOnTerminal(['--base-url', BASE_URL], `${TEST_KEY}\rexport X=1\r${WEBHOOK_SECRET}\r`, env)
      expect(r.exitCode).toBe(0)
      expect(r.stderr).toContain('Not a webhook secret: it contains spaces: paste the secret alone, not a line of shell. Try again (Enter to skip).')
      expect((await stored(env)).store.get('default')?.webhookSecret).toBe(WEBHOOK_SECRET)
    })
  })

  it('--with-webhook-secret-stdin needs --with-key-stdin (exit 2)', async () => {
    const r = await runCommand(Login, ['--with-webhook-secret-stdin', '--base-url', BASE_URL], { stdin: `${WEBHOOK_SECRET}\n`, env: { SVC_CONFIG_DIR: freshConfigDir() } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('with-key-stdin')
  })

  it('--json prints the masked profile and the account', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL)
      .get('/v1/account')
      .reply(200, account({ environment: 'live' }))
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL, '--profile', 'prod', '--json'], { stdin: `${LIVE_KEY}\n`, env })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      profile: { name: 'prod', default: true, environment: 'live', baseUrl: BASE_URL, apiKey: 'svc_live_…7988', webhookSecret: null },
      account: account({ environment: 'live' }),
    })
    expectNoSecret(r.stdout, r.stderr)
  })

  it('a second profile does not take the default, and a new login keeps the stored webhook secret', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    const store = await ProfileStore.open(env)
    store.save('sandbox', { apiKey: TEST_KEY, baseUrl: 'http://127.0.0.1:8787', webhookSecret: WEBHOOK_SECRET })
    store.setDefault('sandbox')
    nock(BASE_URL).get('/v1/account').reply(200, account())
    nock('http://127.0.0.1:8787').get('/v1/account').reply(200, account())
    const other = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL, '--profile', 'staging'], { stdin: `${TEST_KEY}\n`, env })
    expect(other.exitCode).toBe(0)
    expect(other.stderr).toContain('svc profiles use staging')
    const again = await runCommand(Login, ['--with-key-stdin', '--profile', 'sandbox'], { stdin: `${TEST_KEY}\n`, env })
    expect(again.exitCode).toBe(0)
    expect(again.stderr).toContain('Webhook secret kept: whsec_…e6d5')
    expect(store.defaultProfile).toBe('sandbox')
    expect(store.get('sandbox')?.webhookSecret).toBe(WEBHOOK_SECRET)
    expectNoSecret(other.stderr, again.stderr)
  })

  it('stores into SVC_PROFILE when no --profile is given; --profile wins over it', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir(), SVC_PROFILE: 'ci' }
    nock(BASE_URL).get('/v1/account').twice().reply(200, account())
    expect((await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL], { stdin: `${TEST_KEY}\n`, env })).exitCode).toBe(0)
    expect((await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL, '-p', 'mine'], { stdin: `${TEST_KEY}\n`, env })).exitCode).toBe(0)
    expect((await stored(env)).names).toEqual(['ci', 'mine'])
  })

  it('a profile name that is not safe in a shell or a table: exit 2, no request', async () => {
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL, '-p', 'my prod'], { stdin: `${TEST_KEY}\n`, env: { SVC_CONFIG_DIR: freshConfigDir() } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('Profile name "my prod" is not valid')
    expect(requestsWithoutMock()).toEqual([])
  })

  it('SVC_DEBUG=1 logs the request with the key masked', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir(), SVC_DEBUG: '1' }
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL], { stdin: `${TEST_KEY}\n`, env })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('/v1/account')
    expectNoSecret(r.stdout, r.stderr)
  })

  it('a stdin that is a terminal: exit 2 pointing at the hidden prompt', async () => {
    const r = await runCommand(Login, ['--with-key-stdin', '--base-url', BASE_URL], { tty: true, env: { SVC_CONFIG_DIR: freshConfigDir() } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('hidden prompt')
  })
})

describe('svc login on a terminal', () => {
  it('not interactive and no --with-key-stdin: exit 2 with the flag to pass, never a prompt', async () => {
    const r = await runCommand(Login, ['--base-url', BASE_URL], { env: { SVC_CONFIG_DIR: freshConfigDir() } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--with-key-stdin')
    expect(r.stderr).not.toContain('API key (')
  })

  it('asks for the key and an optional webhook secret at hidden prompts and stores both', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runOnTerminal(['--base-url', BASE_URL, '-p', 'dev'], `${TEST_KEY}\r${WEBHOOK_SECRET}\r`, env)
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('API key (svc_live_… or svc_test_…):')
    expect(r.stderr).toContain('Webhook secret (optional, Enter to skip):')
    expect(r.stderr).toContain('Webhook secret stored: whsec_…e6d5')
    expectNoSecret(r.stdout, r.stderr)
    expect((await stored(env)).store.get('dev')).toEqual({ apiKey: TEST_KEY, baseUrl: BASE_URL, webhookSecret: WEBHOOK_SECRET })
  })

  it('Enter at the webhook secret prompt skips it', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runOnTerminal(['--base-url', BASE_URL], `${TEST_KEY}\r\r`, env)
    expect(r.exitCode).toBe(0)
    expect((await stored(env)).store.get('default')).toEqual({ apiKey: TEST_KEY, baseUrl: BASE_URL })
  })

  it('does not ask for a webhook secret when the key is refused', async () => {
    const env = { SVC_CONFIG_DIR: freshConfigDir() }
    nock(BASE_URL).get('/v1/account').reply(401, errorBody('invalid_api_key', 'Chave de API inválida'))
    const r = await runOnTerminal(['--base-url', BASE_URL], `${TEST_KEY}\r`, env)
    expect(r.exitCode).toBe(3)
    expect(r.stderr).not.toContain('Webhook secret')
    expectNoSecret(r.stdout, r.stderr)
  })
})
