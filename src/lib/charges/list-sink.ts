/**
 * How `charges list` shows charges, for the one list printer (output/list-printer.ts), which
 * writes them one at a time so `--all` streams with flat memory whatever the output: a terminal
 * table, TSV rows, ids, NDJSON lines, CSV, or a JSON array written element by element.
 */
import type { Charge } from '../contract/schemas.js'
import { CHARGE_CSV_COLUMNS } from '../output/charge-csv.js'
import { chargeTable, chargeTsvRow, overdueTsvRow, settledTsvRow } from '../output/charge-list-view.js'
import { painter } from '../output/color.js'
import type { IO } from '../output/io.js'
import type { ListView } from '../output/list-printer.js'
import { overdueTable } from '../output/overdue-view.js'
import type { OverdueCharge } from './operator-lists.js'

/** `table`: the terminal table's zone (--tz) and, for the settled filters, its SETTLED column (piped: a settledAt column at the end). */
export function chargeListView(io: IO, now: () => Date = () => new Date(), table: { timeZone?: string; settled?: boolean } = {}): ListView<Charge> {
  return {
    table: { rows: () => chargeTable(painter(io.color), io.columns, now, table) },
    tsv: table.settled ? settledTsvRow : chargeTsvRow,
    id: (c) => c.id,
    csv: CHARGE_CSV_COLUMNS,
  }
}

/**
 * `charges list --overdue`: on a terminal ESTIMATED and LATE in --tz; piped, the generic row then
 * estimatedAt and how late (ms), appended so `cut -f1-5` scripts keep working; -q, --json,
 * --ndjson and --csv as the charges themselves.
 */
export function overdueListView(io: IO, timeZone?: string): ListView<OverdueCharge> {
  return {
    table: { rows: () => overdueTable(io, timeZone) },
    tsv: (item) => overdueTsvRow(item.charge, item.lateMs),
    id: (item) => item.charge.id,
    json: (item) => item.charge,
    csv: CHARGE_CSV_COLUMNS.map((column) => ({ header: column.header, value: (item: OverdueCharge) => column.value(item.charge) })),
  }
}
