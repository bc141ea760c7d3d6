/**
 * Views of `svc report`: on a terminal a table per period with a total row (R$ for people);
 * piped, tab-separated rows with raw centavos and RFC 3339 bounds; `--csv` the documented
 * columns, declared here once beside the JSON the report prints.
 */
import { CHARGE_STATUSES } from '../domain/charge-states.js'
import { formatBRL } from '../domain/money.js'
import type { ChargesPeriod, ChargesReport, SettlementPeriod, SettlementReport } from '../domain/reports.js'
import type { Paint } from './color.js'
import type { CsvColumn } from './csv.js'
import { renderTable } from './table.js'

/** `2026-11-03`, `2026-11-02 → 2026-11-08`, `2026-11`: a period as the operator names it (its local days). */
export function periodLabel(p: { start: string; end: string }, by: string): string {
  const first = p.start.slice(0, 10)
  if (by === 'day') return first
  // The last day is the one before `end` (its local date): bounds carry the zone's offset.
  const last = new Date(Date.parse(`${p.end.slice(0, 10)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
  if (by === 'month' && first.endsWith('-01') && last.slice(0, 7) === first.slice(0, 7)) return first.slice(0, 7)
  return first === last ? first : `${first} → ${last}`
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

export function settlementTable(r: SettlementReport, paint: Paint): string {
  const rows = r.periods.map((p) => [
    periodLabel(p, r.by),
    String(p.settled.count),
    formatBRL(p.settled.grossInCents),
    formatBRL(p.settled.feeInCents),
    formatBRL(p.settled.netInCents),
    String(p.refunded.count),
    formatBRL(p.refunded.grossInCents),
  ])
  const t = r.total
  rows.push(
    ['Total', String(t.settled.count), formatBRL(t.settled.grossInCents), formatBRL(t.settled.feeInCents), formatBRL(t.settled.netInCents), String(t.refunded.count), formatBRL(t.refunded.grossInCents)].map((c) =>
      paint('bold', c),
    ),
  )
  const right = { align: 'right' as const }
  return renderTable(
    [
      { header: 'PERIOD' },
      { header: 'SETTLED', ...right },
      { header: 'GROSS', ...right },
      { header: 'FEE', ...right },
      { header: 'NET', ...right },
      { header: 'REFUNDED', ...right },
      { header: 'REFUNDED GROSS', ...right },
    ],
    rows,
    paint,
  )
}

export function settlementTsv(r: SettlementReport): string {
  return r.periods.map((p) => `${SETTLEMENT_CSV_COLUMNS.map((c) => String(c.value(p))).join('\t')}\n`).join('')
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

export function chargesTable(r: ChargesReport, paint: Paint): string {
  const cells = (p: Pick<ChargesPeriod, 'count' | 'grossInCents' | 'byStatus'>) => [String(p.count), formatBRL(p.grossInCents), ...STATUSES.map((s) => String(p.byStatus[s]?.count ?? 0))]
  const rows = r.periods.map((p) => [periodLabel(p, r.by), ...cells(p)])
  rows.push(['Total', ...cells(r.total)].map((c) => paint('bold', c)))
  const right = { align: 'right' as const }
  return renderTable([{ header: 'PERIOD' }, { header: 'CHARGES', ...right }, { header: 'GROSS', ...right }, ...STATUSES.map((s) => ({ header: SHORT[s] ?? s, ...right }))], rows, paint)
}

export function chargesTsv(r: ChargesReport): string {
  return r.periods.map((p) => `${CHARGES_CSV_COLUMNS.map((c) => String(c.value(p))).join('\t')}\n`).join('')
}
