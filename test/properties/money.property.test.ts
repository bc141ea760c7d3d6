/**
 * Money in integer centavos (domain/money.ts): formatting round-trips through parsing for every
 * safe integer, agrees with the library of record's currency format, and the fee arithmetic
 * always balances (net = gross − fee, fee = fixed + percentage).
 */
import { formatCurrency } from '@brazilian-utils/brazilian-utils/format-currency'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { computeAmount, formatBRL, parseBRL } from '../../src/lib/domain/money.js'

const cents = fc.maxSafeInteger()
const amounts = fc.integer({ min: 0, max: 10 ** 12 })

describe('money (properties)', () => {
  it('parseBRL(formatBRL(c)) === c for every safe integer, negative ones too', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(parseBRL(formatBRL(c))).toBe(c === 0 ? 0 : c)
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

  it('parses the spellings it documents: R$ 1.234,56, 1234,56 and 1234.56', () => {
    fc.assert(
      fc.property(amounts, (c) => {
        const reais = Math.floor(c / 100)
        const cc = String(c % 100).padStart(2, '0')
        expect(parseBRL(`${reais},${cc}`)).toBe(c)
        expect(parseBRL(`${reais}.${cc}`)).toBe(c)
        expect(parseBRL(`  R$${formatBRL(c).slice(3)}  `)).toBe(c)
      }),
      { numRuns: 500 },
    )
  })

  it('refuses what is not money instead of guessing', () => {
    for (const text of ['', 'R$', '1,5', '1.5', '1.2345', '12,345', 'R$ 1.23,00', '1e3', 'NaN', '--1,00', '1,00,00', 'R$ 10,00 extra']) {
      expect(parseBRL(text), text).toBeUndefined()
    }
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
