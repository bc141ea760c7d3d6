import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import nock from 'nock'
import { afterEach, describe, expect, it } from 'vitest'
import Account from '../../src/commands/account.js'
import { account, BASE_URL, errorBody, TEST_KEY } from '../helpers/api-fixtures.js'
import { instantRetries } from '../helpers/instant-retries.js'
import { commandRunner } from '../helpers/run-command.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const env = { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
const ANSI = /\u001B\[/

afterEach(() => {
  sleeps.length = 0
})

describe('svc account', () => {
  it('shows plan, fees, limits, hold and webhook on a terminal', async () => {
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, [], { env, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(ANSI)
    expect(r.stdout).toContain(' TEST ')
    expect(r.stdout).toContain('mch_7Hq2xK9 (loja@example.com.br)')
    expect(r.stdout).toContain('Pro: 1,99% + R$ 0,50 per charge')
    expect(r.stdout).toContain('R$ 10,00 to R$ 5.000,00 per charge')
    expect(r.stdout).toContain('24 h hold after payment')
    expect(r.stdout).toContain('https://loja.example.com.br/webhooks/svc')
    expect(r.stdout).toContain('(active)')
  })

  it('takes the fee from the plan, and says when no webhook is configured', async () => {
    nock(BASE_URL)
      .get('/v1/account')
      .reply(200, account({ plan: { id: 'plan_x', name: 'Enterprise', feeBps: 85 }, feeFixedInCents: 0, webhook: undefined }))
    const r = await runCommand(Account, ['--no-color'], { env, tty: true })
    expect(r.stdout).toContain('Enterprise: 0,85% + R$ 0,00 per charge')
    expect(r.stdout).toContain('not configured')
    expect(r.stdout).not.toMatch(ANSI)
  })

  it('prints key<TAB>value lines without colours when piped', async () => {
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, [], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).not.toMatch(ANSI)
    expect(r.stdout).toBe(
      [
        'merchantId\tmch_7Hq2xK9',
        'email\tloja@example.com.br',
        'environment\ttest',
        'plan.id\tplan_pro',
        'plan.name\tPro',
        'plan.feeBps\t199',
        'feeFixedInCents\t50',
        'limits.minChargeInCents\t1000',
        'limits.maxChargeInCents\t500000',
        'settlementDelayHours\t24',
        'webhook.url\thttps://loja.example.com.br/webhooks/svc',
        'webhook.active\ttrue',
        '',
      ].join('\n'),
    )
  })

  it('prints exactly the Account object with --json, unknown fields included', async () => {
    const body = { ...account(), createdAt: '2026-01-02T03:04:05Z' }
    nock(BASE_URL).get('/v1/account').reply(200, body)
    const r = await runCommand(Account, ['--json'], { env })
    expect(JSON.parse(r.stdout)).toEqual(body)
    expect(r.stderr).toBe('')
  })
})

describe('API errors through a command', () => {
  // Spec part 7: every code with its HTTP status, and the exit code of CLI.md.
  const cases = [
    { status: 400, code: 'invalid_request', exit: 2 },
    { status: 401, code: 'invalid_api_key', exit: 3 },
    { status: 401, code: 'revoked_api_key', exit: 3 },
    { status: 402, code: 'provider_error', exit: 7 },
    { status: 403, code: 'merchant_not_activated', exit: 3 },
    { status: 403, code: 'charge_blocked', exit: 3 },
    { status: 403, code: 'missing_merchant_id', exit: 3 },
    { status: 403, code: 'not_available_in_live', exit: 3 },
    { status: 404, code: 'charge_not_found', exit: 4 },
    { status: 409, code: 'external_id_conflict', exit: 5 },
    { status: 409, code: 'idempotency_key_conflict', exit: 5 },
    { status: 409, code: 'charge_not_cancelable', exit: 5 },
    { status: 409, code: 'invalid_transition', exit: 5 },
    { status: 409, code: 'charge_processing', exit: 5, retried: true },
    { status: 429, code: 'rate_limited', exit: 6, retried: true },
    { status: 503, code: 'provider_unavailable', exit: 7, retried: true },
    { status: 500, code: 'internal_error', exit: 1, retried: true },
  ]

  it.each(cases)('$status $code → exit $exit, `Error [code]: message (requestId …)`', async ({ status, code, exit, retried }) => {
    const details =
      status === 400
        ? [
            { field: 'limit', message: 'deve estar entre 1 e 100' },
            { field: 'status', message: 'inválido' },
          ]
        : undefined
    nock(BASE_URL)
      .get('/v1/account')
      .times(retried ? 4 : 1)
      .reply(status, errorBody(code, 'Mensagem do serviço', { details, requestId: 'req_42' }))
    const r = await runCommand(Account, [], { env })
    expect(r.exitCode).toBe(exit)
    expect(r.stdout).toBe('')
    const lines = r.stderr.split('\n')
    expect(lines[0]).toBe(`Error [${code}]: Mensagem do serviço (requestId req_42)`)
    if (details) expect(lines.slice(1, 3)).toEqual(['  limit: deve estar entre 1 e 100', '  status: inválido'])
    expect(r.stderr).not.toMatch(ANSI)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(sleeps).toHaveLength(retried ? 3 : 0)
  })

  it('prints the API error object on stderr with --json', async () => {
    const body = errorBody('invalid_request', 'Parâmetro inválido', { details: [{ field: 'limit', message: 'máximo 100' }], requestId: 'req_7' })
    nock(BASE_URL).get('/v1/account').reply(400, body)
    const r = await runCommand(Account, ['--json'], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(JSON.parse(r.stderr)).toEqual(body)
  })

  it('waits as Retry-After says, then succeeds', async () => {
    nock(BASE_URL).get('/v1/account').reply(429, errorBody('rate_limited', 'Limite'), { 'Retry-After': '3' }).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, ['--json'], { env })
    expect(r.exitCode).toBe(0)
    expect(sleeps).toEqual([3000])
  })
})

describe('malformed answers and the network', () => {
  it('exits 1 with a clear message when the body is not JSON', async () => {
    nock(BASE_URL).get('/v1/account').reply(200, 'OK', { 'content-type': 'text/plain' })
    const r = await runCommand(Account, [], { env })
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('Error [invalid_response]: The answer to GET /v1/account (HTTP 200) was a body that is not JSON (text/plain): "OK".')
    expect(r.stderr).toContain('Hint: ')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('exits 1 naming the fields when the body violates the schema', async () => {
    nock(BASE_URL)
      .get('/v1/account')
      .reply(200, { ...account(), environment: 'staging', limits: { minChargeInCents: 1000 } })
    const r = await runCommand(Account, [], { env })
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toMatch(/^Error \[invalid_response\]: The answer to GET \/v1\/account \(HTTP 200\) is not a valid Account: bad or missing field\(s\) environment, limits\.maxChargeInCents\.\n/)
    expect(r.stderr).toContain('  environment: ')
    expect(r.stderr).toContain('  limits.maxChargeInCents: ')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it('exits 7 with a sandbox hint when nothing listens on the loopback base URL', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    await new Promise((r) => server.close(r))
    const r = await runCommand(Account, [], { env: { ...env, SVC_BASE_URL: url } })
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toMatch(/^Error \[network_error\]: Could not connect to 127\.0\.0\.1:\d+: connection refused \(4 attempts\)\./)
    expect(r.stderr).toContain('svc sandbox start')
    expect(sleeps).toHaveLength(3)
  })

  it('logs each request and response with SVC_DEBUG=1, never the full key', async () => {
    nock(BASE_URL)
      .get('/v1/account')
      .reply(503, errorBody('provider_unavailable', 'x', { requestId: 'req_1' }))
      .get('/v1/account')
      .reply(200, account())
    const r = await runCommand(Account, ['--json'], { env: { ...env, SVC_DEBUG: '1' } })
    expect(r.exitCode).toBe(0)
    const lines = r.stderr.trim().split('\n')
    expect(lines[0]).toBe('→ GET /v1/account')
    expect(lines[1]).toMatch(/^← 503 GET \/v1\/account \d+ms requestId req_1 \(retrying in 250ms\)$/)
    expect(lines[3]).toMatch(/^← 200 GET \/v1\/account \d+ms$/)
    expect(r.stderr).not.toContain(TEST_KEY)
    expect(r.stderr).not.toContain(TEST_KEY.slice(9, 25))
  })
})
