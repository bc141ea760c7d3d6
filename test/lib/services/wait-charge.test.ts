/** `--wait` below the commands: polls on an injected clock, says on stderr (terminal only) when the state is reached. */
import { describe, expect, it } from 'vitest'
import type { Charge } from '../../../src/lib/contract/schemas.js'
import { runChargeWait, waitError } from '../../../src/lib/services/wait-charge.js'
import { charge as apiCharge } from '../../helpers/api-fixtures.js'
import { testIO } from '../../helpers/test-io.js'

const charge = (status: Charge['status']) => ({ id: '0123456789abcdef01234567', status }) as Charge

/** A clock that moves only when the wait sleeps. */
function fakeClock() {
  let t = 0
  return { now: () => t, sleep: async (ms: number) => void (t += ms) }
}

describe('runChargeWait', () => {
  it('polls until the target state and returns it; on a terminal stderr says so', async () => {
    const states: Charge['status'][] = ['paid_pending_settlement', 'settled']
    const { io, err } = testIO()
    io.isStderrTTY = true
    const outcome = await runChargeWait({
      io,
      getCharge: async () => charge(states.shift() ?? 'settled'),
      wait: { until: 'settled', timeoutMs: 60_000, timeoutText: '1m' },
      id: '0123456789abcdef01234567',
      initial: charge('awaiting_payment'),
      clock: fakeClock(),
    })
    expect(outcome).toEqual({ charge: expect.objectContaining({ status: 'settled' }) })
    expect(err()).toContain('0123456789abcdef01234567 is settled')
  })

  it('ends unreached at another final state, or when the time is up; piped stderr stays quiet', async () => {
    const { io, err } = testIO()
    const wait = { until: 'settled' as const, timeoutMs: 5_000, timeoutText: '5s' }
    const expired = await runChargeWait({ io, getCharge: async () => charge('expired'), wait, id: 'x', clock: fakeClock() })
    expect(expired.charge.status).toBe('expired')
    expect(expired.failure).toMatchObject({ exitCode: 8, code: 'wait_failed' })
    expect(expired.failure?.message).toBe('Charge 0123456789abcdef01234567 is expired: it can no longer become settled.')
    const pending = await runChargeWait({ io, getCharge: async () => charge('awaiting_payment'), wait, id: 'x', clock: fakeClock() })
    expect(pending.charge.status).toBe('awaiting_payment')
    expect(pending.failure).toMatchObject({ exitCode: 8 })
    expect(pending.failure?.message).toContain('Timed out after 5s')
    expect(err()).toBe('')
  })
})

describe('waitError', () => {
  it('exits 8 and names the state reached or the timeout', () => {
    const ended = waitError({ reached: false, reason: 'ended', charge: apiCharge({ status: 'expired' }) }, 'settled', '10m')
    expect(ended.exitCode).toBe(8)
    expect(ended.message).toContain('expired')
    const late = waitError({ reached: false, reason: 'timeout', charge: apiCharge() }, 'settled', '10m')
    expect(late.exitCode).toBe(8)
    expect(late.message).toContain('Timed out after 10m')
  })
})
