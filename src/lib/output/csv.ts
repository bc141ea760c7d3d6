/**
 * The one CSV writer (RFC 4180) for every command that offers `--csv`: a header row, fixed
 * columns declared once per resource, CRLF line ends, numbers written as numbers (centavos are
 * integers, never formulas). Text cells, after OWASP's "CSV injection" guidance:
 * - the formula guard judges the first character after any whitespace and control characters:
 *   `=`, `+`, `-`, `@`, or a leading tab, CR or LF, and the cell gets a leading `'`, so a
 *   spreadsheet shows it and never runs it (LibreOffice skips a NUL and runs `\0=1+1`);
 * - no control character is written bare: tab, CR and LF stay (quoted: they are data, a
 *   multi-line description), every other one (C0, DEL, C1, bidi overrides) becomes the visible
 *   escape the terminal views use (`\x00`, `\u202e`);
 * - a cell is quoted when it holds any character the separator may be (`,` `;` tab `|`), a
 *   quote, CR or LF, whatever the separator in use, so a file read with another separator
 *   than the one it was written with still keeps its cells whole.
 */
import { UsageError } from '../errors.js'

export type CsvValue = string | number | boolean | undefined | null

/** One column: its header and how to read its cell from a row. */
export interface CsvColumn<T> {
  header: string
  value: (row: T) => CsvValue
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked past
const FORMULA_START = /^[\s\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*[=+\-@]|^[\t\r\n]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
/** The separators `--separator` accepts (issue 36.10): none of them can stand inside a number. */
export const CSV_SEPARATORS = [',', ';', '\t', '|'] as const
const NEEDS_QUOTES = /[,;\t|"\r\n]/

function visible(ch: string): string {
  const cp = ch.codePointAt(0)!
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`
}

/** One field, guarded, escaped and quoted as needed (whatever the separator: see above). */
export function csvCell(value: CsvValue): string {
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') return String(value)
  const guarded = FORMULA_START.test(value) ? `'${value}` : value
  const text = guarded.replace(CONTROL, visible)
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One record, CRLF-terminated. */
export function csvRecord(values: readonly CsvValue[], separator = ','): string {
  return `${values.map((v) => csvCell(v)).join(separator)}\r\n`
}

/** UTF-8's byte order mark: how Excel tells a UTF-8 file from one in the system's code page. */
export const UTF8_BOM = '\uFEFF'

export interface CsvOptions {
  /** One of CSV_SEPARATORS (parseSeparator). */
  separator?: string
  /** Begin the output with a UTF-8 BOM (`--bom`), so Excel keeps accents (JOSÉ, not JOSÃ‰). */
  bom?: boolean
}

/** Writes rows as they come (streaming: nothing held): the BOM (--bom) and the header first, once, even when no row follows. */
export function csvWriter<T>(write: (text: string) => void, columns: readonly CsvColumn<T>[], options: CsvOptions | string = {}) {
  const { separator = ',', bom = false } = typeof options === 'string' ? { separator: options } : options
  let started = false
  const header = () => {
    if (!started)
      write(
        (bom ? UTF8_BOM : '') +
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

/**
 * `--separator`: `,` (the default), `;` (spreadsheets set to Portuguese), tab (`tab` or `\t`) or
 * `|`. Nothing else: a digit, letter, `.`, `-`, `+` or `:` would run into the numbers and dates
 * it separates (`--separator 0` made `1500` unreadable).
 */
export function parseSeparator(raw: string | undefined): string {
  if (raw === undefined) return ','
  const sep = raw === '\\t' || raw === 'tab' ? '\t' : raw
  if (!(CSV_SEPARATORS as readonly string[]).includes(sep)) {
    throw new UsageError('Invalid --separator; nothing was sent.', {
      details: [{ field: '--separator', message: `must be one of , ; tab | (not ${JSON.stringify(raw.slice(0, 20))})` }],
      hint: "Use --separator ';' for spreadsheets set to Portuguese, or --separator tab.",
    })
  }
  return sep
}
