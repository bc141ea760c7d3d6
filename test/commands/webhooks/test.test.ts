import nock from 'nock'
import { afterEach, describe, expect, it, vi } from 'vitest'
import WebhooksTest from '../../../src/commands/webhooks/test.js'
import { BASE_URL, errorBody, TEST_KEY } from '../../helpers/api-fixtures.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { runCommand } from '../../helpers/run-command.js'

const sleeps = vi.hoisted(() => [] as number[])
vi.mock('../../../src/lib/api/client.js', (orig) => instantRetries(orig, sleeps))

const env = { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
const ANSI = /\u001B\[/

afterEach(() => {
  sleeps.length = 0
})

describe('svc webhooks test', () => {
  it('prints just the event id when piped', async () => {
    nock(BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
      .post('/v1/webhooks/test')
      .reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, [], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('evt_01J9Z\n')
    expect(r.stderr).toBe('')
  })

  it('paints the badge with the colour of the stream it is on (stdout a terminal, stderr a file)', async () => {
    const scope = nock(BASE_URL).post('/v1/webhooks/test').reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, [], { env, tty: true, stderrTty: false })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('\u001B[7m\u001B[1m TEST ')
    expect(scope.isDone()).toBe(true)
  })

  it('shows the environment badge and the id on a terminal', async () => {
    nock(BASE_URL).post('/v1/webhooks/test').reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, [], { env, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(ANSI)
    expect(r.stdout).toContain(' TEST ')
    expect(r.stdout).toContain('Sent a charge.test event:')
    expect(r.stdout).toContain('evt_01J9Z')
  })

  it('prints {"eventId": …} with --json', async () => {
    nock(BASE_URL).post('/v1/webhooks/test').reply(202, { eventId: 'evt_01J9Z' })
    const r = await runCommand(WebhooksTest, ['--json'], { env })
    expect(JSON.parse(r.stdout)).toEqual({ eventId: 'evt_01J9Z' })
  })

  it('exits 4 with a hint to set the URL in the panel when none is configured', async () => {
    nock(BASE_URL)
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
    nock(sandbox).post('/v1/webhooks/test').reply(404, errorBody('webhook_not_configured', 'Nenhuma URL de webhook'))
    const r = await runCommand(WebhooksTest, [], { env: { ...env, SVC_BASE_URL: sandbox } })
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('svc sandbox webhook set URL --env test')
  })

  it('exits 3 on a revoked key, without the set-up hint', async () => {
    nock(BASE_URL).post('/v1/webhooks/test').reply(401, errorBody('revoked_api_key', 'Chave revogada'))
    const r = await runCommand(WebhooksTest, ['--json'], { env })
    expect(r.exitCode).toBe(3)
    expect(JSON.parse(r.stderr)).toEqual(errorBody('revoked_api_key', 'Chave revogada'))
  })
})
