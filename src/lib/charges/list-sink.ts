/**
 * How `charges list` shows charges, for the one list printer (output/list-printer.ts), which
 * writes them one at a time so `--all` streams with flat memory whatever the output: a terminal
 * table, TSV rows, ids, NDJSON lines, CSV, or a JSON array written element by element.
 */
import type { Charge } from '../contract/schemas.js'
import { CHARGE_CSV_COLUMNS } from '../output/charge-csv.js'
import { chargeTable, chargeTsvRow, settledTsvRow } from '../output/charge-list-view.js'
import { painter } from '../output/color.js'
import type { IO } from '../output/io.js'
import type { ListView } from '../output/list-printer.js'

/** `table`: the terminal table's zone (--tz) and, for the settled filters, its SETTLED column (piped: a settledAt column at the end). */
export function chargeListView(io: IO, now: () => Date = () => new Date(), table: { timeZone?: string; settled?: boolean } = {}): ListView<Charge> {
  return {
    table: { rows: () => chargeTable(painter(io.color), io.columns, now, table) },
    tsv: table.settled ? settledTsvRow : chargeTsvRow,
    id: (c) => c.id,
    csv: CHARGE_CSV_COLUMNS,
  }
}
