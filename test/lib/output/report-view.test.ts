/**
 * The views of `svc report` (CLI.md 0.4; README "never a wrapped row"): terminal tables fitted to
 * the terminal's width (period labels shorten, empty then less important columns go, amounts are
 * never cut), and piped rows ending with a `total` row in the same columns.
 */
import { describe, expect, it } from 'vitest'
import type { ChargesReport, SettlementReport } from '../../../src/lib/domain/reports.js'
import { painter } from '../../../src/lib/output/color.js'
import { chargesTable, chargesTsv, settlementTable, settlementTsv } from '../../../src/lib/output/report-view.js'

const paint = painter(false)
const weeks = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30'].map((d, i, all) => ({ start: `${d}T00:00:00-03:00`, end: `${all[i + 1] ?? '2026-12-07'}T00:00:00-03:00` }))
const money = (n: number) => ({ count: n, grossInCents: n * 1_234_567, feeInCents: n * 24_618, netInCents: n * 1_209_949 })

const settlements: SettlementReport = {
  from: weeks[0]!.start,
  to: weeks.at(-1)!.end,
  tz: 'America/Sao_Paulo',
  by: 'week',
  periods: weeks.map((w, i) => ({ ...w, settled: money(i + 1), refunded: { count: i, grossInCents: i * 150_000 } })),
  total: { settled: money(15), refunded: { count: 10, grossInCents: 1_500_000 } },
  unbalanced: [],
}

const byStatus = (n: number) => ({
  awaiting_payment: { count: n, grossInCents: n * 1000 },
  paid_pending_settlement: { count: 2 * n, grossInCents: 0 },
  settled: { count: 30 * n, grossInCents: 0 },
  expired: { count: n, grossInCents: 0 },
  canceled: { count: 1, grossInCents: 0 },
  refunded: { count: 1, grossInCents: 0 },
})
const charges: ChargesReport = {
  from: weeks[0]!.start,
  to: weeks.at(-1)!.end,
  tz: 'America/Sao_Paulo',
  by: 'week',
  periods: weeks.map((w, i) => ({ ...w, count: 100 * (i + 1), grossInCents: 12_345_678 * (i + 1), byStatus: byStatus(i + 1) })),
  total: { count: 1500, grossInCents: 185_185_170, byStatus: byStatus(15) },
  unbalanced: [],
} as ChargesReport

const widest = (text: string) =>
  Math.max(
    ...text
      .trimEnd()
      .split('\n')
      .map((l) => [...l].length),
  )

describe('settlementTable', () => {
  it('wide enough: the full labels and every column', () => {
    const t = settlementTable(settlements, paint, 140)
    expect(t.split('\n')[0]).toMatch(/^PERIOD\s+SETTLED\s+GROSS\s+FEE\s+NET\s+REFUNDED\s+REFUNDED GROSS$/)
    expect(t).toContain('2026-11-02 → 2026-11-08')
  })

  it.each([120, 100, 80, 60, 50])('at %i columns no row is wider than the terminal, amounts whole', (width) => {
    const t = settlementTable(settlements, paint, width)
    expect(widest(t)).toBeLessThanOrEqual(width)
    expect(t).toContain('R$ 185.185,05') // the total gross, never cut
    expect(t).not.toContain('…')
    expect(t).toMatch(/^Total\s/m)
  })

  it('at 80: weeks as 23/11–29/11 (one year), refunds kept', () => {
    const t = settlementTable(settlements, paint, 80)
    expect(t).toMatch(/^23\/11–29\/11\s/m)
    expect(t.split('\n')[0]).toMatch(/REFUNDED/)
  })

  it('periods across a new year keep it in short labels', () => {
    const r = { ...settlements, periods: [{ ...settlements.periods[0]!, start: '2026-12-28T00:00:00-03:00', end: '2027-01-04T00:00:00-03:00' }] }
    expect(settlementTable(r, paint, 70)).toContain('28/12/26–03/01/27')
  })

  it('no refunds: those columns go before any other', () => {
    const r = { ...settlements, periods: settlements.periods.map((p) => ({ ...p, refunded: { count: 0, grossInCents: 0 } })), total: { ...settlements.total, refunded: { count: 0, grossInCents: 0 } } }
    const head = settlementTable(r, paint, 70).split('\n')[0]!
    expect(head).toMatch(/^PERIOD\s+SETTLED\s+GROSS\s+FEE\s+NET$/)
  })
})

describe('chargesTable', () => {
  it.each([140, 120, 100, 80, 60, 40])('at %i columns no row is wider than the terminal, amounts whole', (width) => {
    const t = chargesTable(charges, paint, width)
    expect(widest(t)).toBeLessThanOrEqual(width)
    expect(t).toContain('R$ 1.851.851,70')
    expect(t).not.toContain('…')
  })

  it('at 60: all-zero FAILED goes first, then the less important statuses; PAID and SETTLED stay', () => {
    const head = chargesTable(charges, paint, 60).split('\n')[0]!
    expect(head).not.toContain('FAILED')
    expect(head).toMatch(/^PERIOD\s+CHARGES\s+GROSS\s.*PAID\s+SETTLED/)
  })
})

describe('piped rows', () => {
  it('settlements: a period per row, then total in the same columns (end empty)', () => {
    const lines = settlementTsv(settlements).trimEnd().split('\n')
    expect(lines).toHaveLength(6)
    expect(lines[0]).toBe('2026-11-02T00:00:00-03:00\t2026-11-09T00:00:00-03:00\t1\t1234567\t24618\t1209949\t0\t0')
    expect(lines[5]).toBe('total\t\t15\t18518505\t369270\t18149235\t10\t1500000')
  })

  it('charges: a period per row, then total in the same columns', () => {
    const lines = chargesTsv(charges).trimEnd().split('\n')
    expect(lines).toHaveLength(6)
    expect(lines[5]!.split('\t').slice(0, 6)).toEqual(['total', '', '1500', '185185170', '15', '15000'])
    expect(lines[5]!.split('\t')).toHaveLength(lines[0]!.split('\t').length)
  })
})
