/**
 * Money in integer centavos (domain/money.ts): formatting agrees with the library of record's
 * currency format, and the fee arithmetic always balances (net = gross − fee, fee = fixed + percentage).
 */
import { formatCurrency } from '@brazilian-utils/brazilian-utils/format-currency'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeAmount, formatBRL } from '../../src/lib/domain/money.js'

const cents = fc.maxSafeInteger()
const amounts = fc.integer({ min: 0, max: 10 ** 12 })

describe('money (properties)', () => {
  it('formats every safe integer, negative ones too, as [-]R$ with grouped reais and two centavos', () => {
    fc.assert(
      fc.property(cents, (c) => {
        const text = formatBRL(c)
        expect(text).toMatch(/^-?R\$ \d{1,3}(\.\d{3})*,\d{2}$/)
        expect(
          Number(
            text
              .replace(/^-?R\$ /, '')
              .replaceAll('.', '')
              .replace(',', ''),
          ) * (text.startsWith('-') ? -1 : 1),
        ).toBe(c === 0 ? 0 : c)
      }),
      { numRuns: 2000 },
    )
  })

  it('formats like @brazilian-utils formatCurrency with the R$ symbol', () => {
    fc.assert(
      fc.property(amounts, (c) => {
        expect(formatBRL(c)).toBe(formatCurrency(c / 100, { symbol: true }).replace(/\u00a0/g, ' '))
      }),
      { numRuns: 1000 },
    )
  })

  it('the fee always balances: fee = fixed + percentage part, net = gross − fee', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 500_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 1000 }), (gross, feeBps, feeFixedInCents) => {
        const a = computeAmount(gross, { feeBps, feeFixedInCents })
        expect(Number.isInteger(a.feeInCents) && Number.isInteger(a.netInCents)).toBe(true)
        expect(a.grossInCents).toBe(gross)
        expect(a.netInCents).toBe(gross - a.feeInCents)
        const pct = a.feeInCents - feeFixedInCents
        // Half up to the nearest centavo: within half a centavo of the exact percentage.
        expect(Math.abs(pct - (gross * feeBps) / 10_000)).toBeLessThanOrEqual(0.5)
      }),
      { numRuns: 1000 },
    )
  })
})
