/**
 * `svc report` arithmetic (domain/reports.ts): for random sets of charges, the report's sums
 * equal sums computed independently (a filter over the whole list, days keyed by Intl's own
 * local date), charges that do not balance are listed and never summed, and periods start on
 * local midnights of a zone with daylight-saving history.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { startOfDay } from '../../src/lib/domain/calendar.js'
import { chargesReportBuilder, type ReportCharge, settlementReportBuilder } from '../../src/lib/domain/reports.js'
import { localTimeOfDay } from '../helpers/time-of-day.js'

const SP = 'America/Sao_Paulo'
const FROM = startOfDay({ year: 2018, month: 10, day: 1 }, SP)
const TO = startOfDay({ year: 2018, month: 12, day: 1 }, SP)
const SPAN = TO.getTime() - FROM.getTime()
const dayKey = new Intl.DateTimeFormat('en-CA', { timeZone: SP, year: 'numeric', month: '2-digit', day: '2-digit' })

const instant = fc.integer({ min: -5 * 86_400_000, max: SPAN + 5 * 86_400_000 }).map((ms) => new Date(FROM.getTime() + ms).toISOString())
const charge = fc
  .record({
    n: fc.nat(),
    status: fc.constantFrom('settled', 'refunded', 'paid_pending_settlement', 'expired', 'canceled'),
    gross: fc.integer({ min: 1000, max: 10_000_000 }),
    fee: fc.integer({ min: 0, max: 100_000 }),
    skew: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 0, 1, -1),
    createdAt: instant,
    settledAt: instant,
    updatedAt: instant,
  })
  .map(
    (r): ReportCharge => ({
      id: `c${r.n}`,
      status: r.status,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      amount: { grossInCents: r.gross, feeInCents: r.fee, netInCents: r.gross - r.fee + r.skew },
      settlement: r.status === 'settled' || r.status === 'refunded' ? { settledAt: r.settledAt } : {},
    }),
  )
const charges = fc.uniqueArray(charge, { selector: (c) => c.id, maxLength: 200 })

const inside = (iso: string | undefined) => iso !== undefined && new Date(iso) >= FROM && new Date(iso) < TO
const balanced = (c: ReportCharge) => c.amount.feeInCents + c.amount.netInCents === c.amount.grossInCents
const sum = (cs: ReportCharge[], f: (c: ReportCharge) => number) => cs.reduce((a, c) => a + f(c), 0)

describe('reports (properties)', () => {
  it('settlements: totals and per-day sums equal an independent computation; unbalanced charges listed, not summed', () => {
    fc.assert(
      fc.property(charges, (cs) => {
        const b = settlementReportBuilder({ from: FROM, to: TO, by: 'day', timeZone: SP })
        for (const c of cs) b.add(c)
        const r = b.result()
        const settled = cs.filter((c) => inside(c.settlement.settledAt))
        const refunded = cs.filter((c) => c.status === 'refunded' && inside(c.updatedAt))
        const counted = (list: ReportCharge[]) => list.filter(balanced)
        expect(r.total.settled).toEqual({
          count: counted(settled).length,
          grossInCents: sum(counted(settled), (c) => c.amount.grossInCents),
          feeInCents: sum(counted(settled), (c) => c.amount.feeInCents),
          netInCents: sum(counted(settled), (c) => c.amount.netInCents),
        })
        expect(r.total.refunded).toEqual({ count: counted(refunded).length, grossInCents: sum(counted(refunded), (c) => c.amount.grossInCents) })
        expect(new Set(r.unbalanced)).toEqual(new Set([...settled, ...refunded].filter((c) => !balanced(c)).map((c) => c.id)))
        for (const p of r.periods) {
          const key = dayKey.format(new Date(p.start))
          const mine = counted(settled).filter((c) => dayKey.format(new Date(c.settlement.settledAt!)) === key)
          expect(p.settled.netInCents).toBe(sum(mine, (c) => c.amount.netInCents))
          expect(p.settled.count).toBe(mine.length)
          expect(localTimeOfDay(new Date(p.start), SP) === '00:00:00' || key === '2018-11-04').toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })

  it('charges: count and gross by status per month equal an independent computation', () => {
    fc.assert(
      fc.property(charges, (cs) => {
        const b = chargesReportBuilder({ from: FROM, to: TO, by: 'month', timeZone: SP })
        for (const c of cs) b.add(c)
        const r = b.result()
        const created = cs.filter((c) => inside(c.createdAt) && balanced(c))
        expect(r.total.count).toBe(created.length)
        expect(r.total.grossInCents).toBe(sum(created, (c) => c.amount.grossInCents))
        expect(r.periods.map((p) => p.start)).toEqual(['2018-10-01T00:00:00-03:00', '2018-11-01T00:00:00-03:00'])
        for (const p of r.periods) {
          const month = p.start.slice(0, 7)
          for (const [status, t] of Object.entries(p.byStatus)) {
            const mine = created.filter((c) => c.status === status && dayKey.format(new Date(c.createdAt)).slice(0, 7) === month)
            expect(t).toEqual({ count: mine.length, grossInCents: sum(mine, (c) => c.amount.grossInCents) })
          }
        }
      }),
      { numRuns: 150 },
    )
  })
})
