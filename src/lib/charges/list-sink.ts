/**
 * Where `charges list` writes each charge, one at a time, so `--all` streams with flat memory
 * whatever the output: a terminal table, TSV rows, ids, NDJSON lines, or a JSON array written
 * element by element (closed only when every page was read, so a failure never looks complete).
 */
import type { Charge } from '../contract/schemas.js'
import { CHARGE_CSV_COLUMNS } from '../output/charge-csv.js'
import { chargeTable, chargeTsvRow, settledTsvRow } from '../output/charge-list-view.js'
import { type CsvOptions, csvWriter } from '../output/csv.js'
import { painter } from '../output/color.js'
import type { IO } from '../output/io.js'

export type ListMode = 'table' | 'tsv' | 'quiet' | 'ndjson' | 'json-array' | 'csv'

export interface ChargeSink {
  write(charge: Charge): void
  /** Closes the output; returns how many charges were written. */
  end(): number
}

export function listMode(flags: { json?: boolean; ndjson?: boolean; quiet?: boolean; csv?: boolean }, io: IO): ListMode {
  if (flags.json) return 'json-array'
  if (flags.csv) return 'csv'
  if (flags.ndjson) return 'ndjson'
  if (flags.quiet) return 'quiet'
  return io.isStdoutTTY ? 'table' : 'tsv'
}

/** `table`: the terminal table's zone (--tz) and, for the settled filters, its SETTLED column (piped: a settledAt column at the end). */
export function chargeSink(io: IO, mode: ListMode, now: () => Date = () => new Date(), csvOptions: CsvOptions | string = ',', table: { timeZone?: string; settled?: boolean } = {}): ChargeSink {
  let count = 0
  if (mode === 'csv') {
    const csv = csvWriter((t) => io.out(t), CHARGE_CSV_COLUMNS, csvOptions)
    return {
      write(charge) {
        csv.row(charge)
        count++
      },
      end() {
        csv.end()
        return count
      },
    }
  }
  const rows = mode === 'table' ? chargeTable(painter(io.color), io.columns, now, table) : undefined
  const line: (c: Charge) => string = {
    table: (c: Charge) => `${count === 0 ? rows!.header() : ''}${rows!.row(c)}`,
    tsv: table.settled ? settledTsvRow : chargeTsvRow,
    quiet: (c: Charge) => `${c.id}\n`,
    ndjson: (c: Charge) => `${JSON.stringify(c)}\n`,
    'json-array': (c: Charge) => `${count === 0 ? '[\n' : ',\n'}${JSON.stringify(c)}`,
  }[mode]
  return {
    write(charge) {
      io.out(line(charge))
      count++
    },
    end() {
      if (mode === 'json-array') io.out(count === 0 ? '[]\n' : '\n]\n')
      return count
    },
  }
}
