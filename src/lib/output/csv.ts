/**
 * The one CSV writer (RFC 4180) for every command that offers `--csv`: a header row, fixed
 * columns declared once per resource, CRLF line ends, a field quoted when it holds the
 * separator, a quote, CR or LF. Formula guard (OWASP "CSV injection"): a text cell that begins
 * with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'`, so a spreadsheet shows it and never
 * runs it. Numbers are written as numbers (centavos are integers, never formulas).
 */
import { UsageError } from '../errors.js'

export type CsvValue = string | number | boolean | undefined | null

/** One column: its header and how to read its cell from a row. */
export interface CsvColumn<T> {
  header: string
  value: (row: T) => CsvValue
}

const FORMULA_START = /^[=+\-@\t\r]/

/** One field, guarded and quoted as needed. */
export function csvCell(value: CsvValue, separator = ','): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') return String(value)
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One record, CRLF-terminated. */
export function csvRecord(values: readonly CsvValue[], separator = ','): string {
  return `${values.map((v) => csvCell(v, separator)).join(separator)}\r\n`
}

/** Writes rows as they come (streaming: nothing held): the header first, once, even when no row follows. */
export function csvWriter<T>(write: (text: string) => void, columns: readonly CsvColumn<T>[], separator = ',') {
  let started = false
  const header = () => {
    if (!started)
      write(
        csvRecord(
          columns.map((c) => c.header),
          separator,
        ),
      )
    started = true
  }
  return {
    row(row: T): void {
      header()
      write(
        csvRecord(
          columns.map((c) => c.value(row)),
          separator,
        ),
      )
    },
    end(): void {
      header()
    },
  }
}

/** `--separator`: one character that cannot be confused with a quote or a line end (`;` for spreadsheets set to Portuguese). */
export function parseSeparator(raw: string | undefined): string {
  if (raw === undefined) return ','
  const sep = raw === '\\t' || raw === 'tab' ? '\t' : raw
  if ([...sep].length !== 1 || /["\r\n]/.test(sep)) {
    throw new UsageError('Invalid --separator; nothing was sent.', {
      details: [{ field: '--separator', message: `must be one character other than a quote or a line end (e.g. ';'), not ${JSON.stringify(raw)}` }],
      hint: "Use --separator ';' for spreadsheets set to Portuguese.",
    })
  }
  return sep
}
