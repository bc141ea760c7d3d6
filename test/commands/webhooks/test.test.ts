import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nock from 'nock'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import Account from '../../../src/commands/account.js'
import SandboxClockAdvance from '../../../src/commands/sandbox/clock/advance.js'
import SandboxDeliveries from '../../../src/commands/sandbox/deliveries/index.js'
import SandboxWebhookSet from '../../../src/commands/sandbox/webhook/set.js'
import WebhooksTest from '../../../src/commands/webhooks/test.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { startTarget, type Target } from '../../helpers/delivery-target.js'
import { account, BASE_URL, errorBody, TEST_KEY } from '../../helpers/api-fixtures.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { commandRunner } from '../../helpers/run-command.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const env = { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
const ANSI = /\u001B\[/

afterEach(() => {
  sleeps.length = 0
})

describe('svc webhooks test', () => {
  it('prints just the event id when piped', async () => {
    nock(BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
      .get('/v1/account')
      .reply(200, account())
      .post('/v1/webhooks/test')
      .reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, [], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('evt_01J9Z\n')
    expect(r.stderr).toBe('')
  })

  it('paints the badge with the colour of the stream it is on (stdout a terminal, stderr a file)', async () => {
    const scope = nock(BASE_URL).get('/v1/account').reply(200, account()).post('/v1/webhooks/test').reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, [], { env, tty: true, stderrTty: false })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('\u001B[7m\u001B[1m TEST ')
    expect(scope.isDone()).toBe(true)
  })

  it('shows the environment badge and the id on a terminal', async () => {
    nock(BASE_URL).get('/v1/account').reply(200, account()).post('/v1/webhooks/test').reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, [], { env, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(ANSI)
    expect(r.stdout).toContain(' TEST ')
    expect(r.stdout).toContain('Sent a charge.test event:')
    expect(r.stdout).toContain('evt_01J9Z')
  })

  it('prints {"eventId": …} with --json', async () => {
    nock(BASE_URL).get('/v1/account').reply(200, account()).post('/v1/webhooks/test').reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, ['--json'], { env })
    expect(JSON.parse(r.stdout)).toEqual({ eventId: 'evt_01J9Z' })
  })

  it('exits 4 with a hint to set the URL in the panel when none is configured', async () => {
    nock(BASE_URL)
      .get('/v1/account')
      .reply(200, account({ webhook: undefined }))
      .post('/v1/webhooks/test')
      .reply(404, errorBody('webhook_not_configured', 'Nenhuma URL de webhook', { requestId: 'req_9' }))
    const r = await runCommand(WebhooksTest, [], { env })
    expect(r.exitCode).toBe(4)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('Error [webhook_not_configured]: Nenhuma URL de webhook (requestId req_9)')
    expect(r.stderr).toContain('Hint: No webhook URL is configured for the test environment: set it in the panel')
    expect(sleeps).toEqual([])
  })

  it('points at `svc sandbox webhook set` against the local sandbox', async () => {
    const sandbox = 'http://127.0.0.1:8787'
    nock(sandbox)
      .get('/v1/account')
      .reply(200, account({ webhook: undefined }))
      .post('/v1/webhooks/test')
      .reply(404, errorBody('webhook_not_configured', 'Nenhuma URL de webhook'))
    const r = await runCommand(WebhooksTest, [], { env: { ...env, SVC_BASE_URL: sandbox } })
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('svc sandbox webhook set URL --env test')
  })

  it('exits 3 on a revoked key, without the set-up hint', async () => {
    nock(BASE_URL).get('/v1/account').reply(401, errorBody('revoked_api_key', 'Chave revogada'))
    const r = await runCommand(WebhooksTest, ['--json'], { env })
    expect(r.exitCode).toBe(3)
    expect(JSON.parse(r.stderr)).toEqual(errorBody('revoked_api_key', 'Chave revogada'))
  })
})

describe('svc webhooks test and svc account with an endpoint the sandbox deactivated (issue 29 item 3)', () => {
  let sb: RunningSandbox
  let target: Target
  let sandboxEnv: Record<string, string>

  beforeAll(async () => {
    nock.enableNetConnect('127.0.0.1')
    const clock = new SandboxClock({ manual: true, start: Date.parse('2026-11-22T12:00:00.000Z') })
    sb = await startSandboxServer({ port: 0, inMemory: true, clock })
    target = await startTarget()
    sandboxEnv = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-webhooks-test-')) }
    // As the sandbox does it: an endpoint that answers 500 to every attempt for 24 h is deactivated.
    await runCommand(SandboxWebhookSet, [target.url], { env: sandboxEnv })
    target.answers = [{ status: 500 }]
    const res = await fetch(`${sb.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: { authorization: `Bearer ${sb.testKey}` } })
    expect(res.status).toBe(202)
    await runCommand(SandboxClockAdvance, ['25h'], { env: sandboxEnv })
    const acct = (await (await fetch(`${sb.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${sb.testKey}` } })).json()) as { webhook?: unknown }
    expect(acct.webhook).toEqual({ url: target.url, active: false })
    target.received.length = 0
  })
  afterAll(async () => {
    await sb?.close()
    await target?.close()
  })

  const sentTestEvents = async () => {
    const r = await runCommand(SandboxDeliveries, ['--json'], { env: sandboxEnv })
    return (JSON.parse(r.stdout).data as Array<{ type: string }>).filter((d) => d.type === 'charge.test').length
  }

  it('sends nothing, says the endpoint is inactive and how to reactivate it, and exits 9', async () => {
    const before = await sentTestEvents()
    const r = await runCommand(WebhooksTest, [], { env: sandboxEnv, tty: true })
    expect(r.exitCode).toBe(9)
    expect(r.stdout).toBe('')
    expect(r.stdout + r.stderr).not.toContain('Sent')
    const stderr = stripAnsi(r.stderr)
    expect(stderr).toContain(`Error [webhook_inactive]: The test webhook endpoint ${target.url} is inactive`)
    expect(stderr).toContain('no test event was sent. Save the URL again to reactivate it.')
    expect(stderr).toContain(`Hint: Run \`svc sandbox webhook set ${target.url} --env test\``)
    expect(await sentTestEvents()).toBe(before)
    expect(target.received).toHaveLength(0)
  })

  it('--json: the error object on stderr, nothing on stdout, exit 9', async () => {
    const r = await runCommand(WebhooksTest, ['--json'], { env: sandboxEnv })
    expect(r.exitCode).toBe(9)
    expect(r.stdout).toBe('')
    const { error } = JSON.parse(r.stderr.trim()) as { error: { code: string; message: string } }
    expect(error.code).toBe('webhook_inactive')
    expect(error.message).toContain(target.url)
    expect(error.message).toContain('Save the URL again to reactivate it')
  })

  it('svc account shows the same hint next to (inactive); piped, on stderr beside the stable lines', async () => {
    const tty = await runCommand(Account, [], { env: sandboxEnv, tty: true })
    expect(tty.exitCode).toBe(0)
    const lines = stripAnsi(tty.stdout).split('\n')
    const at = lines.findIndex((l) => l.includes(`${target.url} (inactive)`))
    expect(at).toBeGreaterThan(0)
    expect(lines[at + 1]).toContain(`Save the URL again to reactivate it: \`svc sandbox webhook set ${target.url} --env test\``)
    const piped = await runCommand(Account, [], { env: sandboxEnv })
    expect(piped.stdout).toContain('webhook.active\tfalse\n')
    expect(piped.stdout).not.toContain('reactivate')
    expect(piped.stderr).toContain('The webhook endpoint is inactive. Save the URL again to reactivate it')
  })

  it('once the URL is saved again, the test event is sent (exit 0)', async () => {
    await runCommand(SandboxWebhookSet, [target.url], { env: sandboxEnv })
    target.answers = [{ status: 200 }]
    const r = await runCommand(WebhooksTest, [], { env: sandboxEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^evt_\w+\n$/)
    const account = await runCommand(Account, [], { env: sandboxEnv, tty: true })
    expect(stripAnsi(account.stdout)).toContain(`${target.url} (active)`)
    expect(account.stdout).not.toContain('reactivate')
  })
})

describe('against a service that is not the sandbox', () => {
  it('an inactive endpoint: exit 9, the panel named, nothing sent', async () => {
    const scope = nock(BASE_URL)
      .get('/v1/account')
      .reply(200, account({ webhook: { url: 'https://loja.example.com.br/webhooks/svc', active: false } }))
    const r = await runCommand(WebhooksTest, [], { env })
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toContain('Save the URL again to reactivate it.')
    expect(r.stderr).toContain('Hint: Save it in the panel (API, Webhook), then run `svc webhooks test` again.')
    expect(scope.isDone()).toBe(true)
  })
})
