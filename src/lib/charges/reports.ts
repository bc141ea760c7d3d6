/**
 * `svc report` as use-cases over the paginated iterator `charges list --all` uses: every page is
 * streamed into the domain's report builders (one page in memory at a time). Beside the page,
 * the builders keep one small entry per charge summed (about 20 MB per 100 000 charges in the
 * range) so a charge read twice is summed once, as read last.
 */
import type { PeriodUnit } from '../domain/calendar.js'
import { type ChargesReport, chargesReportBuilder, type SettlementReport, settlementReportBuilder } from '../domain/reports.js'
import { serviceBound } from '../domain/time.js'
import { type ChargePages, settledScanQueries } from './operator-lists.js'

export interface ReportOptions {
  from: Date
  to: Date
  by: PeriodUnit
  timeZone: string
}

/**
 * Settlements in `[from, to)`: scans status=settled and status=refunded, created from `from −
 * lookback` to `to` (a charge settles after it is created), and sums each by settledAt (and
 * refunded ones by updatedAt). `onPage` is told how many charges were read so far (progress).
 * The settled scan runs to its end before the refunded one starts: a charge refunded meanwhile is
 * then read by one scan or both, never by neither; read by both, it is summed once, as refunded.
 */
export async function settlementReport(pages: ChargePages, opts: ReportOptions & { lookbackMs: number }, onRead?: (n: number) => void): Promise<SettlementReport> {
  const builder = settlementReportBuilder(opts)
  let read = 0
  for (const query of settledScanQueries({ after: opts.from, before: opts.to, lookbackMs: opts.lookbackMs })) {
    for await (const charge of pages.paginateCharges(query)) {
      builder.add(charge)
      if (++read % 1000 === 0) onRead?.(read)
    }
  }
  return builder.result()
}

/** Charges created in `[from, to)` (the API filters by creation): count and gross per period and status. */
export async function chargesReport(pages: ChargePages, opts: ReportOptions, onRead?: (n: number) => void): Promise<ChargesReport> {
  const builder = chargesReportBuilder(opts)
  let read = 0
  for await (const charge of pages.paginateCharges({ createdAfter: serviceBound(opts.from.getTime() - 1), createdBefore: serviceBound(opts.to.getTime()) })) {
    builder.add(charge)
    if (++read % 1000 === 0) onRead?.(read)
  }
  return builder.result()
}
