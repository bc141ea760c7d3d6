import { describe, expect, it } from 'vitest'
import { divideShares } from '../../../src/lib/domain/split.js'

describe('divideShares: the parts of a split charge (spec 6.3)', () => {
  it('gives each destination its share of the net, in basis points', () => {
    expect(
      divideShares(10_000, [
        { wallet: 'a', shareBps: 7000 },
        { wallet: 'b', shareBps: 3000 },
      ]),
    ).toEqual([
      { wallet: 'a', shareBps: 7000, amountInCents: 7000 },
      { wallet: 'b', shareBps: 3000, amountInCents: 3000 },
    ])
  })

  it('rounds each share down and gives the centavos left to the first destination, so the parts add up to the net', () => {
    const parts = divideShares(1435, [
      { wallet: 'a', shareBps: 3333 },
      { wallet: 'b', shareBps: 3333 },
      { wallet: 'c', shareBps: 3334 },
    ])
    expect(parts.map((p) => p.amountInCents)).toEqual([478 + 1, 478, 478])
    expect(parts.reduce((s, p) => s + p.amountInCents, 0)).toBe(1435)
  })

  it('has no parts without destinations', () => {
    expect(divideShares(1000, [])).toEqual([])
  })
})
