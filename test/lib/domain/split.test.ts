import { describe, expect, it } from 'vitest'
import { divideShares } from '../../../src/lib/domain/split.js'

describe('divideShares', () => {
  it('gives each destination its share of the net, rounded down, the rest to the first, adding up to the net', () => {
    const parts = divideShares(1001, [
      { wallet: 'a', shareBps: 3333 },
      { wallet: 'b', shareBps: 6667 },
    ])
    expect(parts.map((p) => p.amountInCents)).toEqual([334, 667])
    expect(parts.reduce((s, p) => s + p.amountInCents, 0)).toBe(1001)
  })
})
