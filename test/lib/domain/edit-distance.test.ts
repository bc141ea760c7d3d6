import { describe, expect, it } from 'vitest'
import { editDistance } from '../../../src/lib/domain/edit-distance.js'

describe('editDistance: how far a mistyped name is from a known one ("did you mean …?")', () => {
  it('is 0 for the same name and the length of the other for an empty one', () => {
    expect(editDistance('charge.paid', 'charge.paid')).toBe(0)
    expect(editDistance('', 'paid')).toBe(4)
    expect(editDistance('paid', '')).toBe(4)
  })

  it('counts one for each typo: a swapped letter, a missing one, an extra one', () => {
    expect(editDistance('charge.piad', 'charge.paid')).toBe(2)
    expect(editDistance('charge.pid', 'charge.paid')).toBe(1)
    expect(editDistance('charge.paidd', 'charge.paid')).toBe(1)
    expect(editDistance('charge.expired', 'charge.expirer')).toBe(1)
  })

  it('is symmetric, so the suggestion does not depend on which side the typo is', () => {
    expect(editDistance('withdrawal.paid', 'charge.paid')).toBe(editDistance('charge.paid', 'withdrawal.paid'))
  })
})
