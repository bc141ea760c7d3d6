/**
 * The one list printer (issue 40.3): every command that lists (charges list, webhooks events,
 * sandbox deliveries) hands it an iterable of rows and the resource's `ListView`, and it writes
 * them in the format the output flags chose once: a terminal table, TSV rows when piped, the ids
 * (-q), NDJSON, CSV (output/csv.ts), or a JSON array streamed element by element and closed only
 * when the iterable ends (a failure midway never looks like a complete array).
 *
 * It reads one row (or one page) at a time and keeps none: `--all` over a million rows holds one
 * page. The base command drives it (command-kit/base.ts `printList`), as it prints one result.
 */
import { type CsvColumn, type CsvOptions, csvWriter } from './csv.js'
import type { IO } from './io.js'

export type ListFormat = 'table' | 'tsv' | 'quiet' | 'ndjson' | 'json' | 'csv'

/** The output flags every list shares (command-kit/list-flags.ts); they exclude one another. */
export interface ListFormatFlags {
  json?: boolean
  ndjson?: boolean
  quiet?: boolean
  csv?: boolean
}

/** The format, chosen once: an output flag, else a table on a terminal and TSV rows piped. */
export function listFormat(flags: ListFormatFlags, io: Pick<IO, 'isStdoutTTY'>): ListFormat {
  if (flags.json) return 'json'
  if (flags.csv) return 'csv'
  if (flags.ndjson) return 'ndjson'
  if (flags.quiet) return 'quiet'
  return io.isStdoutTTY ? 'table' : 'tsv'
}

/**
 * How one resource shows as a list, declared once beside its views. The terminal table is either
 * written row by row at fixed widths (`rows`: a header before the first row) or fitted to each
 * page's content (`page`: needs a paged source, see `pages`).
 */
export interface ListView<T> {
  table: { rows: () => { header(): string; row(item: T): string } } | { page: (items: readonly T[]) => string | Promise<string> }
  /** One piped line, newline included. */
  tsv: (item: T) => string
  /** What -q prints, one per line. */
  id: (item: T) => string | undefined
  /** The object --json and --ndjson print (the row itself when absent). */
  json?: (item: T) => unknown
  csv: readonly CsvColumn<T>[]
  /** --json wraps the array in an object under this key (`{"data":[…]}`); absent, a bare array. */
  jsonKey?: string
}

/**
 * A list that only its CSV prints row by row (a report's periods: its table, TSV and JSON show the
 * whole report, totals included, through the command's own view).
 */
export function csvList<T>(csv: readonly CsvColumn<T>[]): ListView<T> {
  const csvOnly = () => {
    throw new TypeError('this list is printed only as CSV')
  }
  return { table: { rows: csvOnly }, tsv: csvOnly, id: csvOnly, csv }
}

export interface ListOutput {
  format: ListFormat
  csv?: CsvOptions
}

type Rows<T> = AsyncIterable<T> | Iterable<T>

/** A source read page by page (a page-fitted table is fitted to each page, and each page is one write). */
export interface Paged<T> {
  pages: Rows<readonly T[]>
}

export type ListSource<T> = Rows<T> | Paged<T>

export function pages<T>(source: Rows<readonly T[]>): Paged<T> {
  return { pages: source }
}

function isPaged<T>(source: ListSource<T>): source is Paged<T> {
  return typeof source === 'object' && source !== null && 'pages' in source && !(Symbol.iterator in source) && !(Symbol.asyncIterator in source)
}

/** Every row as a page of one, read lazily: an item source is written row by row. */
async function* pagesOf<T>(source: ListSource<T>): AsyncGenerator<readonly T[]> {
  if (isPaged(source)) {
    for await (const page of source.pages) yield page
    return
  }
  for await (const item of source) yield [item]
}

/** Writes the source in `output.format` as it is read; returns how many rows were written. */
export async function printList<T>(io: Pick<IO, 'out'>, source: ListSource<T>, view: ListView<T>, output: ListOutput): Promise<number> {
  const { format } = output
  const json = view.json ?? ((item: T) => item)
  const table = view.table
  if (format === 'table' && 'page' in table && !isPaged(source)) throw new TypeError('a table fitted to each page needs a paged source (pages())')
  const csv = format === 'csv' ? csvWriter((t) => io.out(t), view.csv, output.csv) : undefined
  const rows = format === 'table' && 'rows' in table ? table.rows() : undefined
  const open = view.jsonKey === undefined ? '[' : `{${JSON.stringify(view.jsonKey)}:[`
  const close = view.jsonKey === undefined ? ']' : ']}'
  let count = 0
  for await (const page of pagesOf(source)) {
    if (csv) for (const item of page) csv.row(item)
    else if (format === 'table' && 'page' in table) {
      // An empty page has no table to fit (a header alone says nothing).
      if (page.length > 0) io.out(await table.page(page))
    } else {
      const line: (item: T, i: number) => string = {
        table: (item: T, i: number) => `${count + i === 0 ? rows!.header() : ''}${rows!.row(item)}`,
        tsv: view.tsv,
        quiet: (item: T) => `${view.id(item)}\n`,
        ndjson: (item: T) => `${JSON.stringify(json(item))}\n`,
        json: (item: T, i: number) => `${count + i === 0 ? `${open}\n` : ',\n'}${JSON.stringify(json(item))}`,
      }[format as Exclude<ListFormat, 'csv'>]
      const text = page.map((item, i) => line(item, i)).join('')
      if (text) io.out(text)
    }
    count += page.length
  }
  csv?.end()
  if (format === 'json') io.out(count === 0 ? `${open}${close}\n` : `\n${close}\n`)
  return count
}
