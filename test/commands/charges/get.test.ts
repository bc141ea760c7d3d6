import nock from 'nock'
import { describe, expect, it } from 'vitest'
import ChargesGet from '../../../src/commands/charges/get.js'
import { commandRunner } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { ANSI, BASE_URL, charge, errorBody, fakeWaitClock, testEnv, trackUnmatched } from '../../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const ID = '65a1f0c2b3d4e5f60718293a'
const settled = charge({
  status: 'settled',
  settlement: { delayHours: 24, paidAt: '2026-11-20T14:10:00Z', estimatedAt: '2026-11-21T14:10:00Z', settledAt: '2026-11-21T14:10:05Z', blockchainTxId: '0xabc123' },
})

describe('svc charges get', () => {
  it('piped: field<TAB>value lines with the raw API values and no ANSI', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, settled)
    const r = await runCommand(ChargesGet, [ID], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).not.toMatch(ANSI)
    const fields = Object.fromEntries(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')),
    )
    expect(fields).toMatchObject({ id: ID, status: 'settled', grossInCents: '1500', netInCents: '1420', settledAt: '2026-11-21T14:10:05Z', blockchainTxId: '0xabc123' })
  })

  it('on a terminal: the human view with the settlement fields; no QR once paid', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, settled)
    const r = await runCommand(ChargesGet, [ID], { env: testEnv, tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('R$ 14,20')
    expect(r.stdout).toContain('0xabc123')
    expect(r.stdout).toContain('Settled')
    expect(r.stdout).not.toContain('copy-and-paste')
  })

  it('on a terminal, a charge awaiting payment shows its QR', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, charge())
    const r = await runCommand(ChargesGet, [ID], { env: testEnv, tty: true })
    expect(r.stdout).toContain('copy-and-paste')
    expect(r.stdout).toContain(charge().pix.qrCode)
  })

  it('--json prints the Charge exactly as returned', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, settled)
    const r = await runCommand(ChargesGet, [ID, '--json'], { env: testEnv })
    expect(JSON.parse(r.stdout)).toEqual(settled)
  })

  it('404 exits 4 with the API code; --json puts the error object on stderr', async () => {
    nock(BASE_URL)
      .get(`/v1/charges/${ID}`)
      .reply(404, errorBody('charge_not_found', 'Cobrança não encontrada', { requestId: 'req_9' }))
    const r = await runCommand(ChargesGet, [ID, '--json'], { env: testEnv })
    expect(r.exitCode).toBe(4)
    expect(r.stdout).toBe('')
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'charge_not_found', requestId: 'req_9' } })
  })

  it('rejects an id that is not 24 hex characters with exit 2, sending nothing', async () => {
    const tracker = trackUnmatched()
    const r = await runCommand(ChargesGet, ['../account'], { env: testEnv })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('not a charge id')
  })
})

describe('svc charges get --wait', () => {
  it('returns the charge once it reaches the state', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .get(`/v1/charges/${ID}`)
      .reply(200, charge({ status: 'paid_pending_settlement' }))
      .get(`/v1/charges/${ID}`)
      .reply(200, settled)
    const r = await runCommand(ChargesGet, [ID, '--wait', 'settled', '--json'], { factory: clock.factory, env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).status).toBe('settled')
    expect(clock.sleeps).toEqual([1000])
  })

  it('exits 8 at once when the state reached rules out the one awaited (refunded while waiting for settled)', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .get(`/v1/charges/${ID}`)
      .reply(200, charge({ status: 'refunded' }))
    const r = await runCommand(ChargesGet, [ID, '--wait', 'settled'], { factory: clock.factory, env: testEnv })
    expect(r.exitCode).toBe(8)
    expect(clock.sleeps).toEqual([])
    expect(r.stdout).toContain('status\trefunded')
    expect(r.stderr).toContain('can no longer become settled')
  })

  it('keeps waiting on a canceled charge (a late payment prevails) until the timeout, then exits 8', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .get(`/v1/charges/${ID}`)
      .times(4)
      .reply(200, charge({ status: 'canceled' }))
    const r = await runCommand(ChargesGet, [ID, '--wait', 'settled', '--wait-timeout', '3s', '--json'], { factory: clock.factory, env: testEnv })
    expect(r.exitCode).toBe(8)
    expect(JSON.parse(r.stdout).status).toBe('canceled')
    expect(JSON.parse(r.stderr)).toMatchObject({ error: { code: 'wait_failed' } })
  })

  it('on a terminal the spinner stays on stderr', async () => {
    const clock = fakeWaitClock()
    nock(BASE_URL)
      .get(`/v1/charges/${ID}`)
      .reply(200, charge())
      .get(`/v1/charges/${ID}`)
      .reply(200, charge({ status: 'expired' }))
    const r = await runCommand(ChargesGet, [ID, '--wait', 'paid_pending_settlement'], { factory: clock.factory, env: testEnv, tty: true })
    expect(r.exitCode).toBe(8)
    expect(r.stderr).toContain('Waiting for')
    expect(r.stdout).not.toContain('Waiting for')
    expect(r.stdout).toContain('expired')
  })
})
