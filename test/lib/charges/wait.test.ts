import { describe, expect, it } from 'vitest'
import { waitForStatus, type WaitClock } from '../../../src/lib/charges/wait.js'
import type { Charge } from '../../../src/lib/contract/schemas.js'
import type { ChargeStatus } from '../../../src/lib/domain/charge-states.js'
import { charge } from '../../helpers/api-fixtures.js'

function manualClock(): WaitClock & { sleeps: number[] } {
  let t = 0
  const sleeps: number[] = []
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms)
      t += ms
    },
    sleeps,
  }
}

/** A fake client that answers the scripted statuses in turn, then repeats the last one. */
function scripted(statuses: ChargeStatus[]) {
  const calls: string[] = []
  let i = 0
  return {
    calls,
    getCharge: async (id: string): Promise<Charge> => {
      calls.push(id)
      return charge({ status: statuses[Math.min(i++, statuses.length - 1)]! })
    },
  }
}

describe('waitForStatus', () => {
  it('polls once a second until the target state', async () => {
    const clock = manualClock()
    const api = scripted(['awaiting_payment', 'paid_pending_settlement', 'settled'])
    const seen: string[] = []
    const out = await waitForStatus({ getCharge: api.getCharge, id: 'x', until: 'settled', timeoutMs: 60_000, clock, onPoll: (c) => seen.push(c.status) })
    expect(out).toMatchObject({ reached: true, charge: { status: 'settled' } })
    expect(clock.sleeps).toEqual([1000, 1000])
    expect(seen).toEqual(['awaiting_payment', 'paid_pending_settlement', 'settled'])
  })

  it('uses a charge already in hand before polling', async () => {
    const clock = manualClock()
    const api = scripted(['settled'])
    const out = await waitForStatus({ getCharge: api.getCharge, id: 'x', until: 'awaiting_payment', timeoutMs: 1000, clock, initial: charge() })
    expect(out.reached).toBe(true)
    expect(api.calls).toEqual([])
  })

  it('stops at once in a state that rules the target out', async () => {
    const clock = manualClock()
    const out = await waitForStatus({ getCharge: scripted(['awaiting_payment', 'expired']).getCharge, id: 'x', until: 'settled', timeoutMs: 60_000, clock })
    expect(out).toMatchObject({ reached: false, reason: 'ended', charge: { status: 'expired' } })
    expect(clock.sleeps).toEqual([1000])
  })

  it('times out on the injected clock, the last sleep cut to the time left', async () => {
    const clock = manualClock()
    const out = await waitForStatus({ getCharge: scripted(['awaiting_payment']).getCharge, id: 'x', until: 'settled', timeoutMs: 2500, clock })
    expect(out).toMatchObject({ reached: false, reason: 'timeout' })
    expect(clock.sleeps).toEqual([1000, 1000, 500])
  })

  it('passes API errors through (the command maps them to their exit code)', async () => {
    const failing = async () => {
      throw new Error('boom')
    }
    await expect(waitForStatus({ getCharge: failing, id: 'x', until: 'settled', timeoutMs: 1000, clock: manualClock() })).rejects.toThrow('boom')
  })
})
