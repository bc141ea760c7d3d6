/**
 * The settlement report's arithmetic: what settled in a range (by settledAt, whatever the status
 * now), what was refunded in it (by updatedAt), and the charges that do not balance, listed and
 * never summed.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addToSettlementTotals, emptySettlementTotals, type SettlementCharge, type SettlementTotals } from '../../../src/lib/domain/settlement-sum.js'

const range = { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-11-02T00:00:00Z') }

function charge(over: Partial<SettlementCharge> & { gross?: number; fee?: number; net?: number } = {}): SettlementCharge {
  const gross = over.gross ?? 1500
  const fee = over.fee ?? 80
  return {
    id: over.id ?? 'a'.repeat(24),
    status: over.status ?? 'settled',
    updatedAt: over.updatedAt ?? '2026-11-01T12:00:00Z',
    amount: { grossInCents: gross, feeInCents: fee, netInCents: over.net ?? gross - fee },
    settlement: over.settlement ?? { settledAt: '2026-11-01T12:00:00Z' },
  }
}

const fold = (charges: SettlementCharge[]): SettlementTotals => charges.reduce((t, c) => addToSettlementTotals(t, c, range), emptySettlementTotals())

describe('addToSettlementTotals', () => {
  it('counts a charge settled in the range, the start included and the end excluded', () => {
    const t = fold([charge({ id: '1', settlement: { settledAt: '2026-11-01T00:00:00Z' } }), charge({ id: '2', settlement: { settledAt: '2026-11-02T00:00:00Z' } }), charge({ id: '3', settlement: {} })])
    expect(t.settled).toEqual({ count: 1, grossInCents: 1500, feeInCents: 80, netInCents: 1420 })
  })

  it('counts a refunded charge as settled (by settledAt) and as refunded (by updatedAt)', () => {
    const t = fold([charge({ status: 'refunded', updatedAt: '2026-11-01T20:00:00Z' }), charge({ id: 'b', status: 'refunded', updatedAt: '2026-11-03T00:00:00Z', settlement: { settledAt: '2026-10-30T00:00:00Z' } })])
    expect(t.settled.count).toBe(1)
    expect(t.refunded).toEqual({ count: 1, grossInCents: 1500 })
  })

  it('lists a charge whose fee and net do not add up to its gross, once, and leaves it out of the sums', () => {
    const bad = charge({ id: 'bad', net: 1000 })
    const t = fold([bad, bad, charge()])
    expect(t.unbalanced).toEqual(['bad'])
    expect(t.settled.count).toBe(1)
  })

  it('leaves the totals it was given as they were', () => {
    const t = emptySettlementTotals()
    addToSettlementTotals(t, charge(), range)
    expect(t).toEqual(emptySettlementTotals())
  })

  it('sums balanced charges so that fee + net = gross, in any order', () => {
    const arb = fc.array(
      fc.record({
        gross: fc.integer({ min: 1000, max: 500_000 }),
        fee: fc.integer({ min: 0, max: 999 }),
        at: fc.integer({ min: range.from - 86_400_000, max: range.to + 86_400_000 }),
        status: fc.constantFrom('settled', 'refunded'),
      }),
      { maxLength: 40 },
    )
    fc.assert(
      fc.property(arb, (rows) => {
        const charges = rows.map((r, i) => charge({ id: String(i), gross: r.gross, fee: r.fee, status: r.status, updatedAt: new Date(r.at).toISOString(), settlement: { settledAt: new Date(r.at).toISOString() } }))
        const t = fold(charges)
        expect(t.settled.feeInCents + t.settled.netInCents).toBe(t.settled.grossInCents)
        expect(fold([...charges].reverse())).toEqual(t)
        expect(t.settled.count).toBe(rows.filter((r) => r.at >= range.from && r.at < range.to).length)
      }),
    )
  })
})
