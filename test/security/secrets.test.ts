/**
 * No leaked key: every command is run (in-process, piped, SVC_DEBUG=1) against a sandbox, and
 * its stdout and stderr, the config file and the listener's event log are scanned for a full
 * API key or webhook secret outside its one home: the config file's profile fields, the
 * sandbox's own database, the `sandbox start` banner and the one answer of `sandbox keys
 * create`. The config file and the sqlite files are created 0600 (directories 0700), and
 * `--api-key` on a command line draws a warning with the safer ways.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Command } from '@oclif/core'
import { createClient } from '../../src/lib/api/client.js'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'
import { startApp, type TargetApp } from '../helpers/webhooks.js'
import { startCommand } from '../helpers/background-command.js'
import { type RunResult, runCommand } from '../helpers/run-command.js'

const CPF = '52998224725'
/** A well-formed key the sandbox never issued: a typo'd real key must not be echoed either. */
const UNKNOWN_KEY = `svc_test_${'7'.repeat(32)}`
/** Any full key or secret: a masked one has an ellipsis and at most four characters after it. */
const KEY_SHAPED = /\b(?:svc_(?:live|test)_|whsec_)[A-Za-z0-9_-]{9,}/

let configDir: string
let sb: RunningSandbox
let app: TargetApp
let env: Record<string, string>
const secrets: string[] = []
const runs: Array<{ argv: string[]; result: RunResult; exemptStdout?: boolean }> = []

type CommandClass = typeof Command & { run(argv?: string[], opts?: string): Promise<unknown> }
const load = async (path: string): Promise<CommandClass> => (await import(/* @vite-ignore */ `../../src/commands/${path}.ts`)).default as CommandClass

/** Runs `svc <path> argv` with SVC_DEBUG=1 and records what it printed. */
async function svc(path: string, argv: string[] = [], opts: { stdin?: string; exemptStdout?: boolean; env?: Record<string, string | undefined> } = {}): Promise<RunResult> {
  const result = await runCommand(await load(path), argv, { env: { ...env, SVC_DEBUG: '1', ...opts.env }, stdin: opts.stdin })
  runs.push({ argv: [...path.split('/'), ...argv], result, exemptStdout: opts.exemptStdout })
  return result
}

function leaksIn(text: string): string[] {
  const found = secrets.filter((s) => text.includes(s))
  const shaped = text.match(new RegExp(KEY_SHAPED, 'g')) ?? []
  return [...found, ...shaped]
}

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'svc-secrets-'))
  env = { SVC_CONFIG_DIR: configDir }
  sb = await startSandboxServer({ port: 0, dataDir: join(configDir, 'sandbox-data'), clock: new SandboxClock({ manual: true }), rateLimitPerSecond: 1_000_000 })
  secrets.push(sb.testKey, sb.liveKey, sb.webhookSecret, UNKNOWN_KEY)
  app = await startApp()
})
afterAll(async () => {
  await app?.close()
  await sb?.close()
})

describe('secrets never leak', () => {
  it('through any command, with SVC_DEBUG=1, nor into the config file outside its profiles, nor into the event log', async () => {
    // Profiles: the one home of keys and secrets on the user's side.
    expect((await svc('login', ['--profile', 'sandbox', '--base-url', sb.baseUrl, '--with-key-stdin', '--with-webhook-secret-stdin'], { stdin: `${sb.testKey}\n${sb.webhookSecret}\n` })).exitCode).toBe(0)
    expect((await svc('login', ['--profile', 'live', '--base-url', sb.baseUrl, '--with-key-stdin'], { stdin: `${sb.liveKey}\n` })).exitCode).toBe(0)
    await svc('profiles/use', ['sandbox'])
    await svc('profiles/list')
    await svc('profiles/list', ['--json'])
    await svc('profiles/show', ['sandbox'])
    await svc('profiles/show', ['live', '--json'])
    await svc('account')
    await svc('account', ['--json'])
    await svc('account', ['--profile', 'live'])

    // Charges, every way.
    const created = await svc('charges/create', ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'secrets-1', '--json'])
    const id = JSON.parse(created.stdout).id as string
    const second = (await svc('charges/create', ['--amount', '2500', '--payer-tax-number', CPF, '-q'])).stdout.trim()
    await svc('charges/create', ['--amount', '1500', '--payer-tax-number', CPF, '--external-id', 'secrets-1'])
    await svc('charges/get', [id])
    await svc('charges/get', [id, '--json'])
    await svc('charges/list')
    await svc('charges/list', ['--ndjson'])
    await svc('charges/list', ['--all', '-q'])
    await svc('test/advance', [second, '--status', 'paid_pending_settlement'])
    await svc('test/advance', [second, '--status', 'settled', '--json'])
    await svc('test/advance', [second, '--status', 'settled', '--profile', 'live'])
    await svc('charges/cancel', [id])
    await svc('charges/cancel', ['-'], { stdin: `${id}\n${second}\n` })
    await svc('charges/watch', [id, second])
    await svc('api', ['GET', '/v1/account'])
    await svc('api', ['POST', '/v1/charges', '-d', JSON.stringify({ amountInCents: 1800, payerTaxNumber: CPF })])
    await svc('api', ['GET', '/v1/charges?limit=2', '-H', 'X-Trace: 1'])

    // Failures print errors, never the key that failed.
    await svc('charges/get', [id, '--api-key', UNKNOWN_KEY])
    await svc('account', ['--api-key', UNKNOWN_KEY, '--json'])
    await svc('account', [], { env: { SVC_API_KEY: UNKNOWN_KEY } })
    await svc('charges/get', ['nope'])
    await svc('charges/create', ['--amount', '5'])

    // The sandbox's panel, keys included.
    await svc('sandbox/webhook/show')
    await svc('webhooks/test')
    await svc('sandbox/keys/list')
    await svc('sandbox/keys/list', ['--json'])
    const made = await svc('sandbox/keys/create', ['--json'], { exemptStdout: true })
    const newKey = made.stdout.match(/svc_test_[A-Za-z0-9_-]+/)?.[0]
    expect(newKey).toBeDefined()
    secrets.push(newKey!)
    await svc('sandbox/keys/revoke', [newKey!])
    await svc('sandbox/keys/list')
    await svc('sandbox/account/set', ['--fee-bps', '150'])
    await svc('sandbox/clock/show')
    await svc('sandbox/clock/advance', ['1m'])

    // The listener: deliveries in, forwarded, logged; then the log read back and replayed.
    const listen = startCommand(await load('webhooks/listen'), ['--forward', `127.0.0.1:${app.port}/hooks`, '--port', '0', '--no-tui'], { ...env, SVC_DEBUG: '1' })
    const [, listening] = await listen.waitFor(/"listening":"([^"]+)"/)
    const client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl })
    await client.createCharge({ amountInCents: 3000, payerTaxNumber: CPF })
    await client.testWebhook()
    await listen.waitFor(/(?:"outcome":"forwarded"[\s\S]*){2}/)
    await client.close()
    expect(await listen.stop()).toBe(0)
    runs.push({ argv: ['webhooks', 'listen'], result: { stdout: listen.stdout(), stderr: listen.stderr(), exitCode: 0 } })
    expect(listening).toMatch(/^http:\/\/127\.0\.0\.1:/)

    await svc('sandbox/deliveries/index')
    const deliveries = await svc('sandbox/deliveries/index', ['--json'])
    const eventId = (JSON.parse(deliveries.stdout) as { data: Array<{ eventId: string }> }).data[0]!.eventId
    await svc('sandbox/deliveries/index', ['--event-id', eventId])
    await svc('sandbox/deliveries/resend', [eventId])
    await svc('webhooks/events')
    await svc('webhooks/events', ['--json'])
    await svc('webhooks/replay', [eventId, '--forward', `127.0.0.1:${app.port}/hooks`])
    const body = '{"id":"evt_local","type":"charge.test"}'
    const ts = Math.floor(Date.now() / 1000)
    await svc('webhooks/verify', ['--secret', sb.webhookSecret, '--timestamp', String(ts), '--signature', signatureHeader(sb.webhookSecret, ts, body)], { stdin: body })
    await svc('webhooks/verify', ['--secret', sb.webhookSecret, '--timestamp', String(ts), '--signature', `v1=${'0'.repeat(64)}`], { stdin: body })
    await svc('webhooks/check', [`http://127.0.0.1:${app.port}/hooks`])
    await svc('logout', ['--profile', 'live'])

    // Everything printed: no full key or secret anywhere (keys create's answer is its one home).
    for (const { argv, result, exemptStdout } of runs) {
      expect(leaksIn(result.stderr), `stderr of svc ${argv.join(' ')}`).toEqual([])
      if (!exemptStdout) expect(leaksIn(result.stdout), `stdout of svc ${argv.join(' ')}`).toEqual([])
    }
    // SVC_DEBUG=1 really logged requests (with the key masked, or not at all).
    expect(runs.find((r) => r.argv[0] === 'account')!.result.stderr).toMatch(/GET \/v1\/account/)

    // The config file: keys and secrets only as the profiles' own fields.
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as { profiles: Record<string, Record<string, unknown>> }
    expect(config.profiles.sandbox).toMatchObject({ apiKey: sb.testKey, webhookSecret: sb.webhookSecret })
    expect(config.profiles.live?.apiKey, 'logout removed the key').toBeUndefined()
    for (const p of Object.values(config.profiles)) {
      delete p.apiKey
      delete p.webhookSecret
    }
    expect(leaksIn(JSON.stringify(config))).toEqual([])

    // The event log: signatures and bodies, never the secret or a key.
    const events = readFileSync(join(configDir, 'events.db'))
    for (const s of secrets) expect(events.includes(s), 'event log').toBe(false)
    expect(events.toString('latin1')).not.toMatch(KEY_SHAPED)
  })

  it('the config file, the event log and the sandbox database are 0600, their directories 0700', () => {
    const mode = (p: string) => statSync(p).mode & 0o777
    expect(mode(configDir)).toBe(0o700)
    expect(mode(join(configDir, 'config.json'))).toBe(0o600)
    expect(mode(join(configDir, 'events.db'))).toBe(0o600)
    const data = join(configDir, 'sandbox-data')
    expect(mode(data)).toBe(0o700)
    const dbFiles = readdirSync(data).filter((f) => f.startsWith('sandbox.db'))
    expect(dbFiles).toContain('sandbox.db')
    for (const f of dbFiles) expect(mode(join(data, f)), f).toBe(0o600)
  })

  it("svc sandbox start: the banner is the keys' home; its log and its files leak nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-secrets-start-'))
    const start = startCommand(await load('sandbox/start'), ['--port', '0', '--json', '--data', join(dir, 'sb')], { SVC_CONFIG_DIR: dir, SVC_DEBUG: '1' })
    const [line] = await start.waitFor(/^\{.*\}\n/)
    const banner = JSON.parse(line) as { testKey: string; liveKey: string; webhookSecret: string }
    expect(await start.stop()).toBe(0)
    const own = [banner.testKey, banner.liveKey, banner.webhookSecret]
    for (const s of own) expect(start.stderr().includes(s)).toBe(false)
    expect(start.stderr()).not.toMatch(KEY_SHAPED)
    const mode = (p: string) => statSync(p).mode & 0o777
    expect(mode(join(dir, 'config.json'))).toBe(0o600)
    for (const f of readdirSync(join(dir, 'sb')).filter((x) => x.startsWith('sandbox.db'))) expect(mode(join(dir, 'sb', f)), f).toBe(0o600)
    expect(existsSync(join(dir, 'sb', 'sandbox.db'))).toBe(true)
  })
})

describe('--api-key on the command line', () => {
  it.each([
    ['account', []],
    ['charges/list', ['-q']],
    ['charges/get', ['ffffffffffffffffffffffff']],
    ['webhooks/test', []],
    ['api', ['GET', '/v1/account']],
    ['sandbox/keys/list', []],
    ['sandbox/clock/show', []],
  ] as Array<[string, string[]]>)('svc %s warns that it is visible to other processes and points to --with-key-stdin / SVC_API_KEY', async (path, argv) => {
    const r = await runCommand(await load(path), [...argv, '--api-key', sb.testKey, '--base-url', sb.baseUrl], { env })
    expect(r.stderr).toMatch(/Warning:.*--api-key is visible to other processes/)
    expect(r.stderr).toMatch(/--with-key-stdin/)
    expect(r.stderr).toMatch(/SVC_API_KEY/)
    expect(r.stderr.includes(sb.testKey)).toBe(false)
  })

  it('no warning when the key comes from SVC_API_KEY or a profile', async () => {
    const fromEnv = await runCommand(await load('account'), [], { env: { ...env, SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl } })
    expect(fromEnv.stderr).not.toMatch(/Warning:/)
    const fromProfile = await runCommand(await load('account'), ['--profile', 'sandbox'], { env })
    expect(fromProfile.stderr).not.toMatch(/Warning:/)
  })
})

describe('--secret on the command line', () => {
  const SECRET = 'whsec_cmdline_0123456789abcdef'
  const body = '{"id":"evt_x"}'
  it.each([
    // Each runs far enough to have read its flags: the warning comes before any other outcome.
    ['webhooks/listen', ['--forward', 'localhost:1', '--events', 'no.such_type']],
    ['webhooks/check', ['http://127.0.0.1:9/hooks', '--json']],
    ['webhooks/verify', ['--timestamp', '1763800000', '--signature', `v1=${'0'.repeat(64)}`]],
    ['webhooks/replay', ['evt_never_received']],
  ] as Array<[string, string[]]>)('svc %s warns that it is visible to other processes and points to SVC_WEBHOOK_SECRET and the profile', async (path, argv) => {
    const r = await runCommand(await load(path), [...argv, '--secret', SECRET], { env, stdin: body })
    expect(r.stderr).toMatch(/Warning:.*--secret is visible to other processes/)
    expect(r.stderr).toMatch(/SVC_WEBHOOK_SECRET/)
    expect(r.stderr).toMatch(/profile/)
    expect(r.stderr.includes(SECRET)).toBe(false)
    expect(r.stdout.includes(SECRET)).toBe(false)
  })

  it('no warning when the secret comes from SVC_WEBHOOK_SECRET', async () => {
    const r = await runCommand(await load('webhooks/verify'), ['--timestamp', '1763800000', '--signature', `v1=${'0'.repeat(64)}`], { env: { ...env, SVC_WEBHOOK_SECRET: SECRET }, stdin: body })
    expect(r.exitCode).toBe(1)
    expect(r.stderr).not.toMatch(/Warning:/)
  })

  it('the help of each command names SVC_WEBHOOK_SECRET', async () => {
    for (const path of ['webhooks/listen', 'webhooks/check', 'webhooks/verify', 'webhooks/replay']) {
      const cmd = await load(path)
      const flags = (cmd as unknown as { flags: Record<string, { description?: string }> }).flags
      expect(flags.secret?.description).toMatch(/Visible to other processes: prefer SVC_WEBHOOK_SECRET or the profile/)
    }
  })
})
