/**
 * Views of `svc report`: on a terminal a table per period with a total row (R$ for people);
 * piped, tab-separated rows with raw centavos and RFC 3339 bounds, then a last row whose first
 * field is `total` (its end field empty); `--csv` the documented columns, declared here once
 * beside the JSON the report prints. Terminal tables are fitted to the terminal's width (never a
 * wrapped row): period labels shorten first (`24/11–30/11`, the year dropped when every period
 * shares it), then columns that are all zero go, then the less important ones, last first;
 * amounts are never cut.
 */
import { CHARGE_STATUSES } from '../domain/charge-states.js'
import { formatBRL } from '../domain/money.js'
import type { ChargesPeriod, ChargesReport, SettlementPeriod, SettlementReport } from '../domain/reports.js'
import type { Paint } from './color.js'
import type { CsvColumn } from './csv.js'
import { type Column, type FitStep, fitTable, renderTable, visibleWidth } from './table.js'

/** `2026-11-03`, `2026-11-02 → 2026-11-08`, `2026-11`: a period as the operator names it (its local days). */
export function periodLabel(p: { start: string; end: string }, by: string): string {
  const first = p.start.slice(0, 10)
  if (by === 'day') return first
  // The last day is the one before `end` (its local date): bounds carry the zone's offset.
  const last = new Date(Date.parse(`${p.end.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  if (by === 'month' && first.endsWith('-01') && last.slice(0, 7) === first.slice(0, 7)) return first.slice(0, 7)
  return first === last ? first : `${first} → ${last}`
}

/** The last local day of a period (the day before `end`, by its local date: bounds carry the zone's offset). */
function lastDay(p: { end: string }): string {
  return new Date(Date.parse(`${p.end.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
}

/** `03/11`, `24/11–30/11`, `11/2026`: a period's short label; the year stays (`03/11/26`) unless `sameYear`. */
export function shortPeriodLabel(p: { start: string; end: string }, by: string, sameYear: boolean): string {
  const first = p.start.slice(0, 10)
  const last = by === 'day' ? first : lastDay(p)
  const dm = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}${sameYear ? '' : `/${d.slice(2, 4)}`}`
  if (by === 'month' && first.endsWith('-01') && last.slice(0, 7) === first.slice(0, 7)) return `${first.slice(5, 7)}/${first.slice(0, 4)}`
  return first === last ? dm(first) : `${dm(first)}–${dm(last)}`
}

/** Labels for every period: the long ones when the table fits with them, else the short ones. */
function labelsFitting(periods: Array<{ start: string; end: string }>, by: string, widthWithout: number, total: number): string[] {
  const long = periods.map((p) => periodLabel(p, by))
  const widest = Math.max('PERIOD'.length, 'Total'.length, ...long.map(visibleWidth))
  if (widthWithout + widest <= total) return long
  const years = new Set(periods.flatMap((p) => [p.start.slice(0, 4), lastDay(p).slice(0, 4)]))
  return periods.map((p) => shortPeriodLabel(p, by, years.size <= 1))
}

/** Width of a table's columns other than the first (the period), gaps included. */
function restWidth(columns: Column[], rows: string[][]): number {
  return columns.slice(1).reduce((sum, _, j) => sum + 2 + Math.max(visibleWidth(columns[j + 1]!.header), ...rows.map((r) => visibleWidth(r[j + 1] ?? ''))), 0)
}

/** Drop steps: first the columns (of `optional`) whose cells are all zero, then `optional` in order. */
function dropSteps(rows: string[][], optional: number[], isZero: (cell: string) => boolean): FitStep[] {
  const empty = optional.filter((i) => rows.every((r) => isZero(r[i] ?? '')))
  return [...empty, ...optional].map((index) => ({ index, drop: true as const }))
}

export const SETTLEMENT_CSV_COLUMNS: readonly CsvColumn<SettlementPeriod>[] = [
  { header: 'start', value: (p) => p.start },
  { header: 'end', value: (p) => p.end },
  { header: 'settledCount', value: (p) => p.settled.count },
  { header: 'grossInCents', value: (p) => p.settled.grossInCents },
  { header: 'feeInCents', value: (p) => p.settled.feeInCents },
  { header: 'netInCents', value: (p) => p.settled.netInCents },
  { header: 'refundedCount', value: (p) => p.refunded.count },
  { header: 'refundedGrossInCents', value: (p) => p.refunded.grossInCents },
]

/** Statuses a created charge can be in, as report columns (`created` and `failed` are passing or rare; still columns). */
const STATUSES = CHARGE_STATUSES.filter((s) => s !== 'created')

export const CHARGES_CSV_COLUMNS: readonly CsvColumn<ChargesPeriod>[] = [
  { header: 'start', value: (p) => p.start },
  { header: 'end', value: (p) => p.end },
  { header: 'count', value: (p) => p.count },
  { header: 'grossInCents', value: (p) => p.grossInCents },
  ...STATUSES.flatMap((s): CsvColumn<ChargesPeriod>[] => [
    { header: `${s}Count`, value: (p) => p.byStatus[s]?.count ?? 0 },
    { header: `${s}GrossInCents`, value: (p) => p.byStatus[s]?.grossInCents ?? 0 },
  ]),
]

/** On a terminal, fitted to `width`: refunds go first when there were none, then refunded gross, refunded count, fee, settled count. */
export function settlementTable(r: SettlementReport, paint: Paint, width = 120): string {
  const body = (p: Pick<SettlementPeriod, 'settled' | 'refunded'>) => [
    String(p.settled.count),
    formatBRL(p.settled.grossInCents),
    formatBRL(p.settled.feeInCents),
    formatBRL(p.settled.netInCents),
    String(p.refunded.count),
    formatBRL(p.refunded.grossInCents),
  ]
  const right = { align: 'right' as const }
  const columns: Column[] = [
    { header: 'PERIOD' },
    { header: 'SETTLED', ...right },
    { header: 'GROSS', ...right },
    { header: 'FEE', ...right },
    { header: 'NET', ...right },
    { header: 'REFUNDED', ...right },
    { header: 'REFUNDED GROSS', ...right },
  ]
  const plain = [...r.periods.map((p) => ['', ...body(p)]), ['Total', ...body(r.total)]]
  const labels = labelsFitting(r.periods, r.by, restWidth(columns, plain), width)
  const rows = plain.map((row, i) => (i < labels.length ? [labels[i]!, ...row.slice(1)] : row.map((c) => paint('bold', c))))
  const zero = (c: string) => c === '0' || c === formatBRL(0)
  const fitted = fitTable(columns, rows, width, dropSteps(plain, [6, 5, 3, 1], zero))
  return renderTable(fitted.columns, fitted.cells, paint)
}

/** Piped: one row per period in the CSV's columns, then `total` (start), an empty end, and the sums. */
export function settlementTsv(r: SettlementReport): string {
  const totalRow = { start: 'total', end: '', ...r.total }
  return [...r.periods, totalRow].map((p) => `${SETTLEMENT_CSV_COLUMNS.map((c) => String(c.value(p))).join('\t')}\n`).join('')
}

const SHORT: Record<string, string> = {
  awaiting_payment: 'WAITING',
  paid_pending_settlement: 'PAID',
  settled: 'SETTLED',
  refunded: 'REFUNDED',
  expired: 'EXPIRED',
  canceled: 'CANCELED',
  failed: 'FAILED',
}

/** On a terminal, fitted to `width`: status columns that are all zero go first, then failed, refunded, waiting, canceled, expired, settled, paid. */
export function chargesTable(r: ChargesReport, paint: Paint, width = 120): string {
  const body = (p: Pick<ChargesPeriod, 'count' | 'grossInCents' | 'byStatus'>) => [String(p.count), formatBRL(p.grossInCents), ...STATUSES.map((s) => String(p.byStatus[s]?.count ?? 0))]
  const right = { align: 'right' as const }
  const columns: Column[] = [{ header: 'PERIOD' }, { header: 'CHARGES', ...right }, { header: 'GROSS', ...right }, ...STATUSES.map((s) => ({ header: SHORT[s] ?? s, ...right }))]
  const plain = [...r.periods.map((p) => ['', ...body(p)]), ['Total', ...body(r.total)]]
  const labels = labelsFitting(r.periods, r.by, restWidth(columns, plain), width)
  const rows = plain.map((row, i) => (i < labels.length ? [labels[i]!, ...row.slice(1)] : row.map((c) => paint('bold', c))))
  const at = (s: string) => 3 + STATUSES.indexOf(s as (typeof STATUSES)[number])
  const order = ['failed', 'refunded', 'awaiting_payment', 'canceled', 'expired', 'settled', 'paid_pending_settlement'].map(at).filter((i) => i >= 3)
  const fitted = fitTable(
    columns,
    rows,
    width,
    dropSteps(plain, order, (c) => c === '0'),
  )
  return renderTable(fitted.columns, fitted.cells, paint)
}

/** Piped: one row per period in the CSV's columns, then `total` (start), an empty end, and the sums. */
export function chargesTsv(r: ChargesReport): string {
  const totalRow = { start: 'total', end: '', ...r.total }
  return [...r.periods, totalRow].map((p) => `${CHARGES_CSV_COLUMNS.map((c) => String(c.value(p))).join('\t')}\n`).join('')
}
