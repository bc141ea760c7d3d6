/**
 * The arithmetic of `svc report` (CLI.md 0.4): charges go in one at a time (a stream, never the
 * whole list), each checked (fee + net = gross) before it is summed into its period; one that
 * does not balance is listed in `unbalanced`, never summed. Periods are the calendar's, in a zone.
 *
 * One charge, one row: the API lists a charge once per scan, but a report may scan twice
 * (settled, then refunded) and a charge can move between the scans (refunded while the second
 * page is read). Each builder remembers what every charge it summed contributed, keyed by id,
 * and when an id comes again it takes the earlier contribution back and sums the charge as read
 * last. That memory is a few numbers per charge that landed in the range, in typed arrays
 * (charge-contributions.ts: about 50 bytes per charge, none of it objects for the collector);
 * charges outside the range cost nothing.
 */
import { formatInZone, type Period, type PeriodUnit, periodIndex, periodsBetween } from './calendar.js'
import { ChargeContributions } from './charge-contributions.js'
import { addAmount, type AmountParts, emptyTotals, isBalanced, type MoneyTotals } from './money-totals.js'

/** What a report reads of a charge (the API's Charge has these fields). */
export interface ReportCharge {
  id: string
  status: string
  createdAt: string
  updatedAt: string
  amount: AmountParts
  settlement: { settledAt?: string }
}

export interface ReportRange {
  from: Date
  to: Date
  by: PeriodUnit
  timeZone: string
}

export interface GrossTotals {
  count: number
  grossInCents: number
}

export interface SettlementPeriod {
  start: string
  end: string
  settled: MoneyTotals
  refunded: GrossTotals
}

export interface SettlementReport {
  from: string
  to: string
  tz: string
  by: PeriodUnit
  periods: SettlementPeriod[]
  total: { settled: MoneyTotals; refunded: GrossTotals }
  unbalanced: string[]
}

const inRange = (iso: string | undefined, range: ReportRange) => {
  if (!iso) return undefined
  const d = new Date(iso)
  return d.getTime() >= range.from.getTime() && d.getTime() < range.to.getTime() ? d : undefined
}

/**
 * Settlements per period: settled count, gross, fee and net by `settledAt` (a refunded charge
 * was settled first, so it counts there too); refunded count and gross by the refunded charge's
 * `updatedAt` (the moment it became refunded).
 */
export function settlementReportBuilder(range: ReportRange) {
  const periods = periodsBetween(range.from, range.to, range.by, range.timeZone)
  const settled = periods.map(() => emptyTotals())
  const refunded = periods.map(() => ({ count: 0, grossInCents: 0 }))
  const unbalanced = new Set<string>()
  // id → [settled period or -1, refunded period or -1, gross, fee, net]: what the charge added, to take back.
  const summed = new ChargeContributions(5)
  const apply = ([s = -1, r = -1, grossInCents = 0, feeInCents = 0, netInCents = 0]: number[], sign: 1 | -1) => {
    if (s >= 0) {
      const t = settled[s]!
      t.count += sign
      t.grossInCents += sign * grossInCents
      t.feeInCents += sign * feeInCents
      t.netInCents += sign * netInCents
    }
    if (r >= 0) {
      refunded[r]!.count += sign
      refunded[r]!.grossInCents += sign * grossInCents
    }
  }
  return {
    /** Sums the charge; a charge already summed (the same id) is replaced by this reading of it. */
    add(charge: ReportCharge): void {
      const before = summed.get(charge.id)
      if (before) {
        apply(before, -1)
        summed.delete(charge.id)
      }
      unbalanced.delete(charge.id)
      const settledAt = inRange(charge.settlement.settledAt, range)
      const refundedAt = charge.status === 'refunded' ? inRange(charge.updatedAt, range) : undefined
      if (!settledAt && !refundedAt) return
      if (!isBalanced(charge.amount)) {
        unbalanced.add(charge.id)
        return
      }
      if (settledAt) addAmount(settled[periodIndex(periods, settledAt)]!, charge.amount)
      if (refundedAt) {
        const r = refunded[periodIndex(periods, refundedAt)]!
        r.count += 1
        r.grossInCents += charge.amount.grossInCents
      }
      const { grossInCents, feeInCents, netInCents } = charge.amount
      summed.set(charge.id, [settledAt ? periodIndex(periods, settledAt) : -1, refundedAt ? periodIndex(periods, refundedAt) : -1, grossInCents, feeInCents, netInCents])
    },
    result(): SettlementReport {
      const total = { settled: emptyTotals(), refunded: { count: 0, grossInCents: 0 } }
      for (const s of settled) {
        total.settled.count += s.count
        total.settled.grossInCents += s.grossInCents
        total.settled.feeInCents += s.feeInCents
        total.settled.netInCents += s.netInCents
      }
      for (const r of refunded) {
        total.refunded.count += r.count
        total.refunded.grossInCents += r.grossInCents
      }
      return {
        ...header(range),
        periods: periods.map((p, i) => ({ ...bounds(p, range), settled: settled[i]!, refunded: refunded[i]! })),
        total,
        unbalanced: [...unbalanced],
      }
    },
  }
}

export interface ChargesPeriod {
  start: string
  end: string
  count: number
  grossInCents: number
  byStatus: Record<string, GrossTotals>
}

export interface ChargesReport {
  from: string
  to: string
  tz: string
  by: PeriodUnit
  periods: ChargesPeriod[]
  total: { count: number; grossInCents: number; byStatus: Record<string, GrossTotals> }
  unbalanced: string[]
}

/** Charges created per period: count and gross, overall and by status as they are now (paid, expired, canceled…). */
export function chargesReportBuilder(range: ReportRange) {
  const periods = periodsBetween(range.from, range.to, range.by, range.timeZone)
  const rows = periods.map(() => ({ count: 0, grossInCents: 0, byStatus: {} as Record<string, GrossTotals> }))
  const unbalanced = new Set<string>()
  // id → [period, status (its index in `statuses`), gross]: what the charge added, to take back if the same id comes again.
  const summed = new ChargeContributions(3)
  const statuses: string[] = []
  const statusCode = (status: string) => {
    const known = statuses.indexOf(status)
    return known >= 0 ? known : statuses.push(status) - 1
  }
  const apply = (index: number, status: string, grossInCents: number, sign: 1 | -1) => {
    const row = rows[index]!
    row.count += sign
    row.grossInCents += sign * grossInCents
    const s = (row.byStatus[status] ??= { count: 0, grossInCents: 0 })
    s.count += sign
    s.grossInCents += sign * grossInCents
  }
  return {
    /** Sums the charge; a charge already summed (the same id) is replaced by this reading of it. */
    add(charge: ReportCharge): void {
      const before = summed.get(charge.id)
      if (before) {
        const [index = 0, status = 0, grossInCents = 0] = before
        apply(index, statuses[status]!, grossInCents, -1)
        summed.delete(charge.id)
      }
      unbalanced.delete(charge.id)
      const createdAt = inRange(charge.createdAt, range)
      if (!createdAt) return
      if (!isBalanced(charge.amount)) {
        unbalanced.add(charge.id)
        return
      }
      const index = periodIndex(periods, createdAt)
      apply(index, charge.status, charge.amount.grossInCents, 1)
      summed.set(charge.id, [index, statusCode(charge.status), charge.amount.grossInCents])
    },
    result(): ChargesReport {
      const total = { count: 0, grossInCents: 0, byStatus: {} as Record<string, GrossTotals> }
      // A status whose only charge was read again in another status is left with nothing: drop it.
      for (const row of rows) for (const [status, t] of Object.entries(row.byStatus)) if (t.count === 0) delete row.byStatus[status]
      for (const row of rows) {
        total.count += row.count
        total.grossInCents += row.grossInCents
        for (const [status, t] of Object.entries(row.byStatus)) {
          const s = (total.byStatus[status] ??= { count: 0, grossInCents: 0 })
          s.count += t.count
          s.grossInCents += t.grossInCents
        }
      }
      return { ...header(range), periods: periods.map((p, i) => ({ ...bounds(p, range), ...rows[i]! })), total, unbalanced: [...unbalanced] }
    },
  }
}

function header(range: ReportRange) {
  return { from: formatInZone(range.from, range.timeZone), to: formatInZone(range.to, range.timeZone), tz: range.timeZone, by: range.by }
}

function bounds(p: Period, range: ReportRange) {
  return { start: formatInZone(p.start, range.timeZone), end: formatInZone(p.end, range.timeZone) }
}
