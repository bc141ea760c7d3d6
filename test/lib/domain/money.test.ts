import { describe, expect, it } from 'vitest'
import { computeAmount, formatBps, formatBRL, percentagePart } from '../../../src/lib/domain/money.js'

describe('money in centavos (spec 2.3)', () => {
  it('the fee is the fixed part plus the percentage, rounded half up; net = gross − fee', () => {
    expect(computeAmount(1500, { feeBps: 100, feeFixedInCents: 50 })).toEqual({ grossInCents: 1500, feeBps: 100, feeFixedInCents: 50, feeInCents: 65, netInCents: 1435 })
    expect(percentagePart(1050, 100)).toBe(11)
    expect(percentagePart(1049, 100)).toBe(10)
  })

  it('prints reais the Brazilian way', () => {
    expect(formatBRL(123456)).toBe('R$ 1.234,56')
    expect(formatBRL(5)).toBe('R$ 0,05')
    expect(formatBRL(100_000_000)).toBe('R$ 1.000.000,00')
    expect(formatBRL(-1500)).toBe('-R$ 15,00')
    expect(formatBps(199)).toBe('1,99%')
  })
})
