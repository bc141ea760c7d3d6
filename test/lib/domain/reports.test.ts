/**
 * The report builders sum each charge once, in its state as read last: a report scans settled
 * then refunded charges, and one refunded between the scans is read by both (issue 36.1).
 */
import { describe, expect, it } from 'vitest'
import { chargesReportBuilder, type ReportCharge, settlementReportBuilder } from '../../../src/lib/domain/reports.js'

const range = { from: new Date('2026-11-20T00:00:00Z'), to: new Date('2026-11-22T00:00:00Z'), by: 'day' as const, timeZone: 'UTC' }
const amount = { grossInCents: 10_000, feeInCents: 249, netInCents: 9751 }
const settled: ReportCharge = {
  id: 'a'.repeat(24),
  status: 'settled',
  createdAt: '2026-11-19T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
  amount,
  settlement: { settledAt: '2026-11-20T10:00:00Z' },
}
const refunded: ReportCharge = { ...settled, status: 'refunded', updatedAt: '2026-11-21T09:00:00Z' }

describe('settlementReportBuilder', () => {
  it('a charge read as settled, then as refunded, is one settlement and one refund', () => {
    const b = settlementReportBuilder(range)
    b.add(settled)
    b.add(refunded)
    const r = b.result()
    expect(r.total.settled).toEqual({ count: 1, ...amount })
    expect(r.total.refunded).toEqual({ count: 1, grossInCents: 10_000 })
    expect(r.periods.map((p) => [p.settled.count, p.refunded.count])).toEqual([
      [1, 0],
      [0, 1],
    ])
  })

  it('the same reading twice counts once', () => {
    const b = settlementReportBuilder(range)
    b.add(settled)
    b.add(settled)
    expect(b.result().total.settled.count).toBe(1)
  })

  it('an unbalanced reading replaced by a balanced one is summed and no longer listed', () => {
    const b = settlementReportBuilder(range)
    b.add({ ...settled, amount: { ...amount, netInCents: 1 } })
    b.add(settled)
    expect(b.result().unbalanced).toEqual([])
    expect(b.result().total.settled.count).toBe(1)
  })
})

describe('chargesReportBuilder', () => {
  it('a charge read in two states is counted once, in the last one, and the emptied status goes', () => {
    const b = chargesReportBuilder({ ...range, from: new Date('2026-11-19T00:00:00Z') })
    b.add(settled)
    b.add(refunded)
    const r = b.result()
    expect(r.total.count).toBe(1)
    expect(r.total.byStatus).toEqual({ refunded: { count: 1, grossInCents: 10_000 } })
    expect(r.periods[0]!.byStatus).toEqual({ refunded: { count: 1, grossInCents: 10_000 } })
  })
})
