import { describe, expect, it } from 'vitest'
import type { Charge } from '../../../../src/lib/contract/schemas.js'
import type { Transition } from '../../../../src/lib/domain/charge-states.js'
import { ChargeTimers, PROVIDER_FAILS_AFTER_MS, PROVIDER_FAILS_AMOUNT } from '../../../../src/lib/sandbox/engine/charge-timers.js'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { SPLIT_RUNS_AFTER_MS } from '../../../../src/lib/sandbox/engine/split-division.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')

function charge(over: Partial<Charge> & Record<string, unknown> = {}): Charge {
  return {
    id: 'c1',
    status: 'awaiting_payment',
    environment: 'test',
    amount: { grossInCents: 1500, feeBps: 0, feeFixedInCents: 0, feeInCents: 0, netInCents: 1500 },
    pix: { qrCode: 'x', expiresAt: new Date(T0 + 1_000).toISOString() },
    settlement: { delayHours: 1 },
    payer: { taxNumber: '***' },
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    ...over,
  } as Charge
}

/** Timers over one saved charge; `move`/`divide` save what they are given, as the engine does. */
function harness(saved: Charge, opts: { held?: boolean } = {}) {
  const clock = new SandboxClock({ manual: true, start: T0 })
  const moves: Array<{ from: string; to: string; at: number }> = []
  const divisions: number[] = []
  const state = { saved, held: opts.held ?? false }
  const timers = new ChargeTimers({
    clock,
    log: () => {},
    find: (env, id) => (state.saved.environment === env && state.saved.id === id ? state.saved : undefined),
    settlementsHeld: () => state.held,
    waiting: () => [state.saved],
    move: (c: Charge, t: Transition, at: number) => {
      moves.push({ from: t.from, to: t.to, at })
      state.saved = { ...c, status: t.to }
    },
    divide: (_c: Charge, at: number) => {
      divisions.push(at)
    },
  })
  return { clock, timers, moves, divisions, state }
}

describe('ChargeTimers', () => {
  it('expires an unpaid charge at its QR expiry instant, on the sandbox clock', async () => {
    const h = harness(charge())
    h.timers.arm(h.state.saved)
    await h.clock.advance(999)
    expect(h.moves).toEqual([])
    await h.clock.advance(1)
    expect(h.moves).toEqual([{ from: 'awaiting_payment', to: 'expired', at: T0 + 1_000 }])
  })

  it('does nothing when the saved charge has moved on since it was armed', async () => {
    const h = harness(charge())
    h.timers.arm(h.state.saved)
    h.state.saved = charge({ status: 'canceled' })
    await h.clock.advance(5_000)
    expect(h.moves).toEqual([])
  })

  it('fails an unpaid charge of the failing amount one minute after its creation', async () => {
    const h = harness(
      charge({
        amount: { grossInCents: PROVIDER_FAILS_AMOUNT, feeBps: 0, feeFixedInCents: 0, feeInCents: 0, netInCents: PROVIDER_FAILS_AMOUNT },
        pix: { qrCode: 'x', expiresAt: new Date(T0 + 3_600_000).toISOString() },
      }),
    )
    h.timers.arm(h.state.saved)
    await h.clock.advance(PROVIDER_FAILS_AFTER_MS)
    expect(h.moves).toEqual([{ from: 'awaiting_payment', to: 'failed', at: T0 + PROVIDER_FAILS_AFTER_MS }])
  })

  it('holds a due settlement while settlements are held; the release settles it at the release instant, not back-dated', async () => {
    const paid = charge({ status: 'paid_pending_settlement', settlement: { delayHours: 1, estimatedAt: new Date(T0 + 10_000).toISOString() } })
    const h = harness(paid, { held: true })
    h.timers.arm(paid)
    await h.clock.advance(20_000)
    expect(h.moves).toEqual([])
    expect(h.timers.size).toBe(0)
    h.state.held = false
    h.timers.release()
    await h.clock.tick()
    expect(h.moves).toEqual([{ from: 'paid_pending_settlement', to: 'settled', at: T0 + 20_000 }])
  })

  it('runs the division of a settled split charge after SPLIT_RUNS_AFTER_MS, never for a refunded one', async () => {
    const split = { status: 'pending', destinations: [] }
    const settled = charge({ status: 'settled', split, settlement: { delayHours: 1, settledAt: new Date(T0).toISOString() } })
    const h = harness(settled)
    h.timers.arm(settled)
    await h.clock.advance(SPLIT_RUNS_AFTER_MS)
    expect(h.divisions).toEqual([T0 + SPLIT_RUNS_AFTER_MS])

    const r = harness(settled)
    r.timers.arm(settled)
    r.state.saved = { ...settled, status: 'refunded' }
    await r.clock.advance(SPLIT_RUNS_AFTER_MS)
    expect(r.divisions).toEqual([])
  })

  it('after reset or stop, nothing falls due', async () => {
    const h = harness(charge())
    h.timers.arm(h.state.saved)
    h.timers.reset()
    await h.clock.advance(5_000)
    h.timers.stop()
    h.timers.arm(h.state.saved)
    await h.clock.advance(5_000)
    expect(h.moves).toEqual([])
    expect(h.clock.pendingTimers()).toBe(0)
  })
})
