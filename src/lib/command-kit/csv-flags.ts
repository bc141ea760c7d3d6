/**
 * `--csv`, `--separator` and `--bom`, declared once for every command that writes CSV (charges
 * list, report settlements/charges, webhooks events, sandbox deliveries), and read into the
 * options of the one CSV writer (output/csv.ts).
 */
import { Flags } from '@oclif/core'
import { type CsvOptions, parseSeparator } from '../output/csv.js'

/** What every --csv command's help says of its cells (output/csv.ts), after its columns. */
export const CSV_CELLS_HELP =
  'a text cell whose first character after spaces and control characters is =, +, -, @ (or that begins with a tab, CR or LF) is ' +
  "prefixed with ' so a spreadsheet never runs it; control characters other than tab, CR and LF are written as visible escapes " +
  "(\\x00); a cell holding , ; tab | or a quote is quoted, whatever the separator; --separator ';' (or tab or '|') for " +
  'spreadsheets set to Portuguese; --bom for Excel'

/**
 * "Needs --csv", enforced by the parser as `dependsOn` is (same message), but not drawn by oclif's
 * docopts, which joins a dependent flag to the one it needs and leaves `[--bom ]` behind when two
 * flags need the same one (issue 36.22).
 */
const NEEDS_CSV = [{ type: 'all' as const, flags: ['csv'] }]

/** The three flags; `csv` says what the command's CSV holds and which output flags it excludes. */
export function csvFlags(csv: { description: string; exclusive: string[] }) {
  return {
    csv: Flags.boolean({ description: csv.description, exclusive: csv.exclusive, helpGroup: 'OUTPUT' }),
    separator: Flags.string({
      description: "CSV field separator: ',' (default), ';' (spreadsheets set to Portuguese), tab or '|'.",
      relationships: NEEDS_CSV,
      helpValue: 'CHAR',
      helpGroup: 'OUTPUT',
    }),
    bom: Flags.boolean({ description: 'Begin the CSV with a UTF-8 byte order mark, so Excel shows accents (José, not JosÃ©).', relationships: NEEDS_CSV, helpGroup: 'OUTPUT' }),
  }
}

/** The writer's options from the flags; a separator other than , ; tab | is exit 2 naming --separator. */
export function csvOptions(flags: { separator?: string; bom?: boolean }): CsvOptions {
  return { separator: parseSeparator(flags.separator), bom: flags.bom === true }
}
