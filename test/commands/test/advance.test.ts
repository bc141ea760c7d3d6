import nock from 'nock'
import { describe, expect, it } from 'vitest'
import TestAdvance from '../../../src/commands/test/advance.js'
import { commandRunner } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { ANSI, BASE_URL, charge, errorBody, liveEnv, testEnv, trackUnmatched } from '../../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const ID = '65a1f0c2b3d4e5f60718293a'
const paid = charge({ status: 'paid_pending_settlement', settlement: { delayHours: 24, paidAt: '2026-11-20T14:10:00Z', estimatedAt: '2026-11-21T14:10:00Z' } })

describe('svc test advance', () => {
  it('sends the status and, piped, prints the new status and settlement fields as field<TAB>value', async () => {
    nock(BASE_URL).post(`/v1/test/charges/${ID}/advance`, { status: 'paid_pending_settlement' }).reply(200, paid)
    const r = await runCommand(TestAdvance, [ID, '--status', 'paid_pending_settlement'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).not.toMatch(ANSI)
    expect(r.stdout).toContain('status\tpaid_pending_settlement\n')
    expect(r.stdout).toContain('paidAt\t2026-11-20T14:10:00Z\n')
    expect(r.stdout).toContain('estimatedAt\t2026-11-21T14:10:00Z\n')
  })

  it('on a terminal: the new status and when it settles', async () => {
    nock(BASE_URL).post(`/v1/test/charges/${ID}/advance`).reply(200, paid)
    const r = await runCommand(TestAdvance, [ID, '--status', 'paid_pending_settlement'], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('moved to paid_pending_settlement')
    expect(r.stdout).toContain('Settles')
    expect(r.stdout).toContain('24 h hold')
  })

  it('-q prints only the charge id, on a terminal too, for $(…) (issue 29 item 23)', async () => {
    nock(BASE_URL).post(`/v1/test/charges/${ID}/advance`).reply(200, paid)
    const r = await runCommand(TestAdvance, [ID, '--status', 'paid_pending_settlement', '-q'], { env: testEnv, tty: true })
    expect(r).toMatchObject({ exitCode: 0, stdout: `${paid.id}\n` })
    const both = await runCommand(TestAdvance, [ID, '--status', 'settled', '-q', '--json'], { env: testEnv })
    expect(both.exitCode).toBe(2)
  })

  it('--json prints the Charge as returned', async () => {
    nock(BASE_URL).post(`/v1/test/charges/${ID}/advance`).reply(200, paid)
    const r = await runCommand(TestAdvance, [ID, '--status', 'paid_pending_settlement', '--json'], { env: testEnv })
    expect(JSON.parse(r.stdout)).toEqual(paid)
  })

  it('with a live key exits 3 before sending anything, and says why', async () => {
    const tracker = trackUnmatched()
    const r = await runCommand(TestAdvance, [ID, '--status', 'settled'], { env: liveEnv })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('live key')
    expect(r.stderr).toContain('svc_live_…')
    expect(r.stderr).not.toContain(liveEnv.SVC_API_KEY)
  })

  it('409 invalid_transition exits 5 with the states the target is reachable from', async () => {
    nock(BASE_URL).post(`/v1/test/charges/${ID}/advance`).reply(409, errorBody('invalid_transition', 'Transição inválida'))
    const r = await runCommand(TestAdvance, [ID, '--status', 'paid_pending_settlement'], { env: testEnv })
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain('invalid_transition')
    expect(r.stderr).toContain('only from: created, awaiting_payment, canceled')
  })

  it('a 403 not_available_in_live from the server still exits 3', async () => {
    nock(BASE_URL).post(`/v1/test/charges/${ID}/advance`).reply(403, errorBody('not_available_in_live', 'Somente sandbox'))
    const r = await runCommand(TestAdvance, [ID, '--status', 'settled'], { env: testEnv })
    expect(r.exitCode).toBe(3)
  })

  it.each([
    ['an unknown status', [ID, '--status', 'canceled']],
    ['a missing status', [ID]],
    ['a malformed id', ['xyz', '--status', 'settled']],
  ])('%s exits 2 and sends nothing', async (_name, argv) => {
    const tracker = trackUnmatched()
    const r = await runCommand(TestAdvance, argv, { env: testEnv })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/status|ID|charge id/)
  })
})
