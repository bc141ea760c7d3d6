/**
 * Renders the check report as rows appear: an aligned table with coloured ✓/✗ on a terminal,
 * tab-separated rows (stable column order, no ANSI) when piped. The summary goes to stderr.
 */
import { painter } from '../../output/color.js'
import type { IO } from '../../output/io.js'
import { safeText } from '../../output/safe-text.js'
import type { CheckReport, CheckRow } from './report.js'

type RowHead = Pick<CheckRow, 'id' | 'name' | 'expected'>

export interface ReportPrinter {
  start(rows: readonly RowHead[]): void
  row(row: CheckRow): void
  end(report: CheckReport): void
}

/** One line per row: result, id, name, expected, observed, ms, note — tab-separated. */
export function plainRow(row: CheckRow): string {
  const cell = (v: string) => safeText(v, 'tsv')
  return [row.pass ? 'pass' : 'fail', row.id, row.name, row.expected, row.observed, row.ms === null ? '-' : String(row.ms), row.note ?? ''].map(cell).join('\t')
}

function timeText(ms: number | null): string {
  return ms === null ? '-' : `${ms} ms`
}

export function createReportPrinter(io: IO): ReportPrinter {
  const paint = painter(io.color)
  const paintErr = painter(io.colorErr)
  let nameWidth = 0
  let expectedWidth = 0
  return {
    start(rows) {
      if (!io.isStdoutTTY) return
      nameWidth = Math.max('DELIVERY'.length, ...rows.map((r) => r.name.length))
      expectedWidth = Math.max('EXPECTED'.length, ...rows.map((r) => r.expected.length))
      io.out(`${paint('bold', `   ${'DELIVERY'.padEnd(nameWidth)}  ${'EXPECTED'.padEnd(expectedWidth)}  ${'TIME'.padStart(8)}  OBSERVED`)}\n`)
    },
    row(row) {
      if (!io.isStdoutTTY) {
        io.out(`${plainRow(row)}\n`)
        return
      }
      const mark = row.pass ? paint('green', '✓') : paint(['bold', 'red'], '✗')
      const observed = row.pass ? safeText(row.observed) : paint('red', safeText(row.observed))
      io.out(` ${mark} ${row.name.padEnd(nameWidth)}  ${row.expected.padEnd(expectedWidth)}  ${timeText(row.ms).padStart(8)}  ${observed}\n`)
      if (row.note) io.out(`${paint('dim', `     ${safeText(row.note)}`)}\n`)
    },
    end(report) {
      const total = report.rows.length
      if (report.failed === 0) {
        io.err(`${paintErr('green', `All ${total} checks passed:`)} ${report.url} handles deliveries as spec part 6 requires.\n`)
      } else {
        io.err(`${paintErr(['bold', 'red'], `${report.failed} of ${total} checks failed`)} for ${report.url} (${report.passed} passed).\n`)
      }
    },
  }
}
