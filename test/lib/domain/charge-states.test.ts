import { describe, expect, it } from 'vitest'
import { advancePath, canReach, statesBefore } from '../../../src/lib/domain/charge-states.js'

// The one reachability answer behind `--wait` (does waiting still make sense?), the listener's
// verdicts (an event the API has moved past is confirmed, not a mismatch) and the lanes.
describe('canReach', () => {
  it.each([
    ['awaiting_payment', 'settled', true],
    ['expired', 'settled', false],
    ['failed', 'paid_pending_settlement', false],
    ['refunded', 'settled', false],
    ['settled', 'refunded', true],
    ['settled', 'paid_pending_settlement', false],
    // A canceled QR stays payable: a late payment moves the charge on (spec 4.4).
    ['canceled', 'settled', true],
    ['settled', 'settled', true],
  ] as const)('%s → %s: %s', (from, to, expected) => {
    expect(canReach(from, to)).toBe(expected)
  })
})

describe('statesBefore', () => {
  it('lists the states on the shortest way from creation', () => {
    expect(statesBefore('refunded')).toEqual(['created', 'awaiting_payment', 'paid_pending_settlement'])
    expect(statesBefore('failed')).toEqual(['created', 'awaiting_payment'])
    expect(statesBefore('created')).toEqual([])
  })
})

describe('advancePath', () => {
  it('walks forward one real transition at a time, never through cancel or fail', () => {
    expect(advancePath('awaiting_payment', 'settled')?.map((t) => t.to)).toEqual(['paid_pending_settlement', 'settled'])
    expect(advancePath('canceled', 'refunded')?.map((t) => t.to)).toEqual(['paid_pending_settlement', 'refunded'])
    expect(advancePath('settled', 'paid_pending_settlement')).toBeUndefined()
    expect(advancePath('settled', 'settled')).toBeUndefined()
  })
})
