/**
 * Outside text (charge fields from the server, the payer's name from the bank, error messages)
 * reaches the terminal with its control characters escaped: it can neither recolour nor rewrite
 * the screen, nor break a piped row. --json stays byte-exact.
 */
import nock from 'nock'
import { describe, expect, it } from 'vitest'
import Account from '../../src/commands/account.js'
import Api from '../../src/commands/api.js'
import ChargesCancel from '../../src/commands/charges/cancel.js'
import ChargesGet from '../../src/commands/charges/get.js'
import ChargesList from '../../src/commands/charges/list.js'
import { account, BASE_URL, charge, errorBody } from '../helpers/api-fixtures.js'
import { instantRetries } from '../helpers/instant-retries.js'
import { commandRunner } from '../helpers/run-command.js'
import { testEnv } from '../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const ESC = '\u001b'
const RED = `${ESC}[31mRED${ESC}[0m`
const CLEAR = `${ESC}[2J${ESC}[H`
const ID = '65a1f0c2b3d4e5f60718293a'
const hostile = charge({
  description: `hi${RED}`,
  externalId: `order\t1\nx`,
  payer: { taxNumber: '***.456.789-**', name: `Maria${CLEAR}` },
  metadata: { [`k${ESC}[8m`]: `v${ESC}]0;pwned${ESC}\\` },
})

describe('outside text is shown escaped, never obeyed', () => {
  it('charges get on a terminal: description, payer name and metadata are escaped', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, hostile)
    const r = await runCommand(ChargesGet, [ID], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    for (const raw of [RED, CLEAR, `${ESC}[8m`, `${ESC}]0;`]) expect(r.stdout).not.toContain(raw)
    expect(r.stdout).toContain('hi\\x1b[31mRED\\x1b[0m')
    expect(r.stdout).toContain('Maria\\x1b[2J\\x1b[H')
    expect(r.stdout).toContain('order\\t1\\nx')
  })

  it('charges get piped: one field<TAB>value line per field, a tab or newline in a value escaped', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, hostile)
    const r = await runCommand(ChargesGet, [ID], { env: testEnv })
    expect(r.stdout).not.toContain(ESC)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.every((l) => l.split('\t').length === 2)).toBe(true)
    expect(lines).toContain('externalId\torder\\t1\\nx')
    expect(lines).toContain('description\thi\\x1b[31mRED\\x1b[0m')
  })

  it('--json stays exactly the API object', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, hostile)
    const r = await runCommand(ChargesGet, [ID, '--json'], { env: testEnv })
    expect(JSON.parse(r.stdout)).toEqual(hostile)
  })

  it('charges list: a TSV row stays one row of five fields; the table escapes the order id', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .twice()
      .reply(200, { data: [hostile], hasMore: false })
    const piped = await runCommand(ChargesList, [], { env: testEnv })
    expect(piped.stdout).toBe(`${ID}\tawaiting_payment\t1500\torder\\t1\\nx\t2026-11-20T14:00:00Z\n`)
    const tty = await runCommand(ChargesList, [], { env: testEnv, tty: true, columns: 160 })
    expect(tty.stdout).toContain('order\\t1\\nx')
    expect(tty.stdout.trimEnd().split('\n')).toHaveLength(2)
  })

  it('an error message and details from the server are escaped on stderr; --json keeps them exact', async () => {
    const body = errorBody('charge_not_found', `Não encontrada${CLEAR}`, { details: [{ field: `id${ESC}[5m`, message: `bad${RED}` }], requestId: 'req_1' })
    nock(BASE_URL).get(`/v1/charges/${ID}`).twice().reply(404, body)
    const r = await runCommand(ChargesGet, [ID], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(4)
    for (const raw of [CLEAR, RED, `${ESC}[5m`]) expect(r.stderr).not.toContain(raw)
    expect(r.stderr).toContain('Não encontrada\\x1b[2J\\x1b[H')
    expect(r.stderr).toContain('bad\\x1b[31mRED\\x1b[0m')
    const json = await runCommand(ChargesGet, [ID, '--json'], { env: testEnv })
    expect(JSON.parse(json.stderr)).toEqual(body)
  })

  it('charges cancel: the per-id error line escapes the server message', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${ID}/cancel`)
      .reply(409, errorBody('charge_not_cancelable', `já paga${CLEAR}`))
    const r = await runCommand(ChargesCancel, [ID], { env: testEnv })
    expect(r.exitCode).toBe(5)
    expect(r.stderr).not.toContain(ESC)
    expect(r.stderr).toContain('já paga\\x1b[2J\\x1b[H')
  })

  it('account: merchant texts from the server are escaped, on a terminal and piped', async () => {
    const hostileAccount = account({ plan: { id: 'p', name: `Pro${RED}`, feeBps: 199 }, webhook: { url: `https://x.example/${CLEAR}`, active: true } })
    nock(BASE_URL).get('/v1/account').twice().reply(200, hostileAccount)
    const tty = await runCommand(Account, [], { env: testEnv, tty: true })
    for (const raw of [RED, CLEAR]) expect(tty.stdout).not.toContain(raw)
    expect(tty.stdout).toContain('Pro\\x1b[31mRED\\x1b[0m')
    const piped = await runCommand(Account, [], { env: testEnv })
    expect(piped.stdout).not.toContain(ESC)
  })

  it('api on a terminal: a body that is not JSON is shown escaped; piped it is passed through exactly (plus the final newline)', async () => {
    nock(BASE_URL).get('/v1/thing').twice().reply(200, `plain ${CLEAR}text\u009b2J`, { 'content-type': 'text/plain' })
    const tty = await runCommand(Api, ['GET', '/v1/thing'], { env: testEnv, tty: true })
    expect(tty.stdout).toContain('plain \\x1b[2J\\x1b[Htext\\x9b2J')
    expect(tty.stdout).not.toContain(CLEAR)
    const piped = await runCommand(Api, ['GET', '/v1/thing'], { env: testEnv })
    expect(piped.stdout).toBe(`plain ${CLEAR}text\u009b2J\n`)
  })
})
