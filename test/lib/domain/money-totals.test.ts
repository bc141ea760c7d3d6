import { describe, expect, it } from 'vitest'
import { addAmount, emptyTotals, isBalanced } from '../../../src/lib/domain/money-totals.js'

describe('sums of money in centavos (spec 2.3)', () => {
  it('sums balanced amounts and counts them', () => {
    const t = emptyTotals()
    addAmount(t, { grossInCents: 1500, feeInCents: 65, netInCents: 1435 })
    addAmount(t, { grossInCents: 2000, feeInCents: 70, netInCents: 1930 })
    expect(t).toEqual({ count: 2, grossInCents: 3500, feeInCents: 135, netInCents: 3365 })
  })

  it('calls an amount balanced only when fee + net = gross in whole centavos', () => {
    expect(isBalanced({ grossInCents: 1500, feeInCents: 65, netInCents: 1435 })).toBe(true)
    expect(isBalanced({ grossInCents: 1500, feeInCents: 65, netInCents: 1434 })).toBe(false)
    expect(isBalanced({ grossInCents: 1500.5, feeInCents: 65.5, netInCents: 1435 })).toBe(false)
  })

  it('throws rather than round a sum past the exact integer range', () => {
    const t = emptyTotals()
    addAmount(t, { grossInCents: Number.MAX_SAFE_INTEGER, feeInCents: 0, netInCents: Number.MAX_SAFE_INTEGER })
    expect(() => addAmount(t, { grossInCents: 2, feeInCents: 1, netInCents: 1 })).toThrow(RangeError)
  })
})
