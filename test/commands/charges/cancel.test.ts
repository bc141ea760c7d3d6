import nock from 'nock'
import { describe, expect, it } from 'vitest'
import ChargesCancel from '../../../src/commands/charges/cancel.js'
import { commandRunner } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { ANSI, BASE_URL, chargeN, errorBody, idOf, testEnv, trackUnmatched } from '../../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const canceled = (n: number) => chargeN(n, { status: 'canceled' })

describe('svc charges cancel', () => {
  it('piped: one id<TAB>status line per canceled charge, no ANSI, no reminder', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${idOf(1)}/cancel`)
      .reply(200, canceled(1))
      .post(`/v1/charges/${idOf(2)}/cancel`)
      .reply(200, canceled(2))
    const r = await runCommand(ChargesCancel, [idOf(1), idOf(2)], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`${idOf(1)}\tcanceled\n${idOf(2)}\tcanceled\n`)
    expect(r.stdout).not.toMatch(ANSI)
    expect(r.stderr).toBe('')
  })

  it('reads ids from stdin with `-` (the list -q pipeline), skipping blanks and repeats', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${idOf(1)}/cancel`)
      .reply(200, canceled(1))
      .post(`/v1/charges/${idOf(2)}/cancel`)
      .reply(200, canceled(2))
    const r = await runCommand(ChargesCancel, ['-'], { env: testEnv, stdin: `${idOf(1)}\n\n${idOf(2)}\r\n${idOf(1)}\n` })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`${idOf(1)}\tcanceled\n${idOf(2)}\tcanceled\n`)
  })

  it('exits with the worst result: one canceled, one already paid (5), one not found (4) → 5', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${idOf(1)}/cancel`)
      .reply(200, canceled(1))
      .post(`/v1/charges/${idOf(2)}/cancel`)
      .reply(409, errorBody('charge_not_cancelable', 'Cobrança já paga', { requestId: 'req_2' }))
      .post(`/v1/charges/${idOf(3)}/cancel`)
      .reply(404, errorBody('charge_not_found', 'Cobrança não encontrada'))
    const r = await runCommand(ChargesCancel, [idOf(1), idOf(2), idOf(3)], { env: testEnv })
    expect(r.exitCode).toBe(5)
    expect(r.stdout).toBe(`${idOf(1)}\tcanceled\n`)
    expect(r.stderr).toContain(`${idOf(2)}\tError [charge_not_cancelable]: Cobrança já paga (requestId req_2)`)
    expect(r.stderr).toContain(`${idOf(3)}\tError [charge_not_found]`)
  })

  it('only not-found errors → exit 4', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${idOf(3)}/cancel`)
      .reply(404, errorBody('charge_not_found', 'Cobrança não encontrada'))
    const r = await runCommand(ChargesCancel, [idOf(3)], { env: testEnv })
    expect(r.exitCode).toBe(4)
  })

  it('--json: NDJSON charges on stdout, errors as {"error":…} lines on stderr', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${idOf(1)}/cancel`)
      .reply(200, canceled(1))
      .post(`/v1/charges/${idOf(2)}/cancel`)
      .reply(409, errorBody('charge_not_cancelable', 'Cobrança já paga'))
    const r = await runCommand(ChargesCancel, [idOf(1), idOf(2), '--json'], { env: testEnv })
    expect(r.exitCode).toBe(5)
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([canceled(1)])
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'charge_not_cancelable', message: 'Cobrança já paga' }, id: idOf(2) })
  })

  it('on a terminal: coloured status and the reminder that the QR stays payable', async () => {
    nock(BASE_URL)
      .post(`/v1/charges/${idOf(1)}/cancel`)
      .reply(200, canceled(1))
    const r = await runCommand(ChargesCancel, [idOf(1)], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain(idOf(1))
    expect(r.stdout).toMatch(ANSI)
    expect(r.stderr).toContain('TEST')
    expect(r.stderr).toContain('stays payable')
    expect(r.stderr).toContain("payer's view")
  })
})

describe('svc charges cancel - with nothing on stdin', () => {
  it('exits 0 with a note and sends nothing, like xargs -r, so a set -e pipeline that found no charges goes on', async () => {
    const tracker = trackUnmatched()
    const r = await runCommand(ChargesCancel, ['-'], { env: testEnv, stdin: '\n\n' })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('no charge ids on stdin; nothing to cancel\n')
    expect((await runCommand(ChargesCancel, ['-'], { env: testEnv, stdin: '' })).exitCode).toBe(0)
  })
})

describe('svc charges cancel: usage (exit 2, nothing sent)', () => {
  const cases: Array<[string, string[], string | undefined, string]> = [
    ['no ids at all', [], undefined, 'No charge ids'],
    ['a malformed id among good ones', [idOf(1), 'not-an-id'], undefined, '"not-an-id" is not 24 hexadecimal characters'],
    ['a malformed id on stdin', ['-'], `${idOf(1)}\nXYZ\n`, '"XYZ"'],
    ['`-` mixed with ids', ['-', idOf(1)], '', 'not both'],
  ]
  it.each(cases)('%s', async (_name, argv, stdin, expected) => {
    const tracker = trackUnmatched()
    const r = await runCommand(ChargesCancel, argv, { env: testEnv, ...(stdin === undefined ? {} : { stdin }) })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(expected)
  })

  describe('bad input lines are cut and escaped, never echoed in full (issue 16 item 15)', () => {
    const garbage = `\u001b[2J\u001b]0;pwned\u0007${'\uFFFD'.repeat(3)}${'x'.repeat(5000)}`
    const stdin = `${garbage}\n${Array.from({ length: 14 }, (_, i) => `bad-${i}`).join('\n')}\n`
    for (const tty of [false, true]) {
      it(tty ? 'on a terminal' : 'piped', async () => {
        const sent = trackUnmatched()
        const r = await runCommand(ChargesCancel, ['-'], { env: { ...testEnv, NO_COLOR: '1' }, stdin, tty })
        expect(r.exitCode).toBe(2)
        expect(sent.sent()).toEqual([])
        expect(r.stderr).not.toContain('\u001b')
        expect(r.stderr).not.toContain('\u0007')
        expect(r.stderr).toContain('"\\x1b[2J\\x1b]0;pwned\\x07\\ufffd')
        expect(r.stderr).toContain('…" (5017 characters) is not 24 hexadecimal characters')
        expect(r.stderr.length).toBeLessThan(1500)
        expect(r.stderr).toContain('"bad-8" is not')
        expect(r.stderr).not.toContain('"bad-9"')
        expect(r.stderr).toContain('and 5 more')
      })
    }
  })
})
