import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import nock from 'nock'
import { afterEach, describe, expect, it } from 'vitest'
import Api from '../../src/commands/api.js'
import { BASE_URL, charge, errorBody, TEST_KEY } from '../helpers/api-fixtures.js'
import { instantRetries } from '../helpers/instant-retries.js'
import { commandRunner } from '../helpers/run-command.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const env = { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
const ANSI = /\u001B\[/
const withdrawal = '{"id":"wd_8c1f","status":"paid","pix":{"endToEndId":"E123"}}'

afterEach(() => {
  sleeps.length = 0
})

describe('svc api', () => {
  it('prints the raw body when piped (GET /v1/withdrawals/{id}, which the spec only names)', async () => {
    nock(BASE_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
      .get('/v1/withdrawals/wd_8c1f')
      .reply(200, withdrawal, { 'content-type': 'application/json' })
    const r = await runCommand(Api, ['GET', '/v1/withdrawals/wd_8c1f'], { env })
    expect(r.exitCode).toBe(0)
    // Ending with a newline (issue 16 item 21), the body's bytes otherwise as received.
    expect(r.stdout).toBe(`${withdrawal}\n`)
    expect(r.stderr).toBe('')
  })

  it('piped: a body that already ends with a newline gets no second one; an empty body prints nothing', async () => {
    nock(BASE_URL).get('/v1/withdrawals/wd_8c1f').reply(200, `${withdrawal}\n`).head('/v1/account').reply(200, '')
    expect((await runCommand(Api, ['GET', '/v1/withdrawals/wd_8c1f'], { env })).stdout).toBe(`${withdrawal}\n`)
    expect((await runCommand(Api, ['HEAD', '/v1/account'], { env })).stdout).toBe('')
  })

  for (const tty of [false, true]) {
    it(`-i prints the status line and headers before the body (${tty ? 'terminal' : 'piped'}) (issue 16 item 21)`, async () => {
      nock(BASE_URL).get('/v1/withdrawals/wd_8c1f').reply(200, withdrawal, { 'content-type': 'application/json', 'x-request-id': 'req_42' })
      const r = await runCommand(Api, ['-i', 'GET', '/v1/withdrawals/wd_8c1f'], { env, tty })
      expect(r.exitCode).toBe(0)
      const [head, body] = r.stdout.split('\n\n')
      expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK')
      expect(head).toContain('content-type: application/json')
      expect(head).toContain('x-request-id: req_42')
      expect(JSON.parse(body!)).toEqual(JSON.parse(withdrawal))
    })
  }

  it('-i on an error status still shows the head, and the exit code follows the status', async () => {
    nock(BASE_URL).get('/v1/withdrawals/nope').reply(404, errorBody('withdrawal_not_found', 'Saque não encontrado'))
    const r = await runCommand(Api, ['--include', 'GET', '/v1/withdrawals/nope'], { env })
    expect(r.exitCode).toBe(4)
    expect(r.stdout.startsWith('HTTP/1.1 404 Not Found\n')).toBe(true)
  })

  it('pretty-prints JSON on a terminal and notes the status on stderr', async () => {
    nock(BASE_URL).get('/v1/withdrawals/wd_8c1f').reply(200, withdrawal)
    const r = await runCommand(Api, ['get', '/v1/withdrawals/wd_8c1f'], { env, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(withdrawal), null, 2)}\n`)
    expect(r.stderr).toContain('HTTP 200')
    expect(r.stderr).toMatch(ANSI)
  })

  it('sends a body from a file and extra headers (POST /v1/split-charges)', async () => {
    const file = join(process.env.SVC_CONFIG_DIR!, 'split.json')
    const body = { amountInCents: 5000, destinations: [{ wallet: 'w1', amountInCents: 5000 }] }
    writeFileSync(file, JSON.stringify(body))
    nock(BASE_URL, { reqheaders: { 'idempotency-key': 'order-42', 'content-type': 'application/json' } })
      .post('/v1/split-charges', body)
      .reply(201, { id: 'split_1' })
    const r = await runCommand(Api, ['POST', '/v1/split-charges', '-d', `@${file}`, '-H', 'Idempotency-Key: order-42'], { env })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({ id: 'split_1' })
  })

  it('reads the body from stdin with -d @-', async () => {
    nock(BASE_URL)
      .post('/v1/test/charges/65a1f0c2b3d4e5f60718293a/advance', { status: 'settled' })
      .reply(200, charge({ status: 'settled' }))
    const r = await runCommand(Api, ['POST', '/v1/test/charges/65a1f0c2b3d4e5f60718293a/advance', '-d', '@-'], { env, stdin: '{"status":"settled"}' })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).status).toBe('settled')
  })

  it.each([
    { status: 404, code: 'charge_not_found', exit: 4 },
    { status: 409, code: 'invalid_transition', exit: 5 },
    { status: 403, code: 'not_available_in_live', exit: 3 },
    { status: 400, code: 'invalid_request', exit: 2 },
  ])('prints the error body and exits $exit on $status $code', async ({ status, code, exit }) => {
    nock(BASE_URL).get('/v1/charges/nope').reply(status, errorBody(code, 'Recusado'))
    const r = await runCommand(Api, ['GET', '/v1/charges/nope'], { env })
    expect(r.exitCode).toBe(exit)
    expect(JSON.parse(r.stdout)).toEqual(errorBody(code, 'Recusado'))
  })

  it('retries a 429 like every command, then exits 6', async () => {
    nock(BASE_URL).get('/v1/account').times(4).reply(429, errorBody('rate_limited', 'Limite'), { 'Retry-After': '1' })
    const r = await runCommand(Api, ['GET', '/v1/account'], { env })
    expect(r.exitCode).toBe(6)
    expect(sleeps).toEqual([1000, 1000, 1000])
  })

  it.each([
    { argv: ['FETCH', '/v1/account'], field: 'METHOD' },
    { argv: ['GET', 'v1/account'], field: 'PATH' },
    { argv: ['GET', 'https://evil.example/v1/account'], field: 'PATH' },
    { argv: ['GET', '/v1/charges?externalId=order 1'], field: 'PATH' },
    { argv: ['GET', '/v1/account', '-H', 'X-Trace: a\r\nX-Evil: 1'], field: 'control characters' },
    { argv: ['POST', '/v1/split-charges', '-d', '{amount: 1}'], field: 'not valid JSON' },
    { argv: ['POST', '/v1/split-charges', '-d', '@/nonexistent/body.json'], field: 'cannot read -d @/nonexistent/body.json: no such file' },
    { argv: ['GET', '/v1/account', '-H', 'no colon'], field: "'Name: value'" },
    { argv: ['GET', '/v1/account', '-H', 'Authorization: Bearer svc_live_other'], field: 'Authorization' },
  ])('rejects $argv locally with exit 2, sending nothing', async ({ argv, field }) => {
    const r = await runCommand(Api, argv, { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(field)
    expect(r.stdout).toBe('')
  })

  it('--help shows withdrawal ids of the shape the service hands out, and says withdrawals have their own command (issue 24 item 12)', () => {
    const ids = (Api.examples as string[]).flatMap((e) => [...(/\/v1\/withdrawals\/(\S+)/.exec(e)?.slice(1) ?? [])])
    expect(ids.length).toBeGreaterThan(0)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/)
    expect(Api.description).toContain('svc withdrawals get')
  })
})
