/**
 * The one list printer (issue 40.3): each format's exact bytes, the JSON array closed only at the
 * end, and memory kept flat: it writes each row (or page) before it reads the next, never
 * collecting the iterable.
 */
import { describe, expect, it } from 'vitest'
import { csvList, type ListFormat, type ListView, listFormat, pages, printList } from '../../../src/lib/output/list-printer.js'

interface Row {
  id: string
  n: number
}

const view: ListView<Row> = {
  table: { rows: () => ({ header: () => 'ID  N\n', row: (r) => `${r.id}  ${r.n}\n` }) },
  tsv: (r) => `${r.id}\t${r.n}\n`,
  id: (r) => r.id,
  csv: [
    { header: 'id', value: (r) => r.id },
    { header: 'n', value: (r) => r.n },
  ],
}
const rows: Row[] = [
  { id: 'a', n: 1 },
  { id: '=b', n: 2 },
]

function sink() {
  const writes: string[] = []
  return { io: { out: (t: string) => void writes.push(t) }, writes, text: () => writes.join('') }
}

async function print(format: ListFormat, source: Iterable<Row> | AsyncIterable<Row> = rows, v: ListView<Row> = view) {
  const s = sink()
  const count = await printList(s.io, source, v, { format, csv: { separator: ';', bom: true } })
  return { text: s.text(), count }
}

describe('listFormat', () => {
  it('an output flag wins; else a table on a terminal and TSV rows piped', () => {
    expect(listFormat({ json: true }, { isStdoutTTY: true })).toBe('json')
    expect(listFormat({ csv: true }, { isStdoutTTY: true })).toBe('csv')
    expect(listFormat({ ndjson: true }, { isStdoutTTY: false })).toBe('ndjson')
    expect(listFormat({ quiet: true }, { isStdoutTTY: true })).toBe('quiet')
    expect(listFormat({}, { isStdoutTTY: true })).toBe('table')
    expect(listFormat({}, { isStdoutTTY: false })).toBe('tsv')
  })
})

describe('printList', () => {
  it('writes each format as the commands always have, and counts the rows', async () => {
    expect(await print('table')).toEqual({ text: 'ID  N\na  1\n=b  2\n', count: 2 })
    expect((await print('tsv')).text).toBe('a\t1\n=b\t2\n')
    expect((await print('quiet')).text).toBe('a\n=b\n')
    expect((await print('ndjson')).text).toBe('{"id":"a","n":1}\n{"id":"=b","n":2}\n')
    expect((await print('json')).text).toBe('[\n{"id":"a","n":1},\n{"id":"=b","n":2}\n]\n')
    // The one CSV writer: BOM, header, the separator, the formula guard.
    expect((await print('csv')).text).toBe("\uFEFFid;n\r\na;1\r\n'=b;2\r\n")
  })

  it('with no row: an empty JSON array, a CSV header alone, and no table header', async () => {
    expect(await print('json', [])).toEqual({ text: '[]\n', count: 0 })
    expect((await print('csv', [])).text).toBe('\uFEFFid;n\r\n')
    expect((await print('table', [])).text).toBe('')
    expect((await print('tsv', [])).text).toBe('')
  })

  it("--json in the API's list object when the view names its key, and the view's own JSON per row", async () => {
    const wrapped: ListView<Row> = { ...view, jsonKey: 'data', json: (r) => ({ ref: r.id }) }
    expect((await print('json', rows, wrapped)).text).toBe('{"data":[\n{"ref":"a"},\n{"ref":"=b"}\n]}\n')
    expect((await print('json', [], wrapped)).text).toBe('{"data":[]}\n')
    expect((await print('ndjson', rows, wrapped)).text).toBe('{"ref":"a"}\n{"ref":"=b"}\n')
  })

  it('a page-fitted table: one table per page, one write per page, empty pages skipped; it needs a paged source', async () => {
    const paged: ListView<Row> = { ...view, table: { page: async (items) => `[${items.map((r) => r.id).join(',')}]\n` } }
    const s = sink()
    const count = await printList(s.io, pages([rows, [], [{ id: 'c', n: 3 }]]), paged, { format: 'table' })
    expect(s.writes).toEqual(['[a,=b]\n', '[c]\n'])
    expect(count).toBe(3)
    await expect(printList(s.io, rows, paged, { format: 'table' })).rejects.toThrow(/paged source/)
  })

  it('a JSON array broken midway is never closed: a failed read never looks complete', async () => {
    async function* failing() {
      yield rows[0]!
      throw new Error('page 2 failed')
    }
    const s = sink()
    await expect(printList(s.io, failing(), view, { format: 'json' })).rejects.toThrow('page 2 failed')
    expect(s.text()).toBe('[\n{"id":"a","n":1}')
  })

  it.each(['table', 'tsv', 'quiet', 'ndjson', 'json', 'csv'] as const)('%s: keeps memory flat, each row written before the next is read', async (format) => {
    const s = sink()
    let read = 0
    let maxAhead = 0
    async function* many() {
      for (let i = 0; i < 50_000; i++) {
        // How many rows were read but not yet written when the printer asks for another.
        maxAhead = Math.max(maxAhead, read - s.writes.length)
        read++
        yield { id: `r${i}`, n: i }
      }
    }
    // Count writes of rows only: the CSV header and the JSON close are one write each, before and after.
    const count = await printList(s.io, many(), view, { format })
    expect(count).toBe(50_000)
    expect(maxAhead).toBeLessThanOrEqual(0)
  })

  it('a paged source: one page read ahead at most', async () => {
    const paged: ListView<Row> = { ...view, table: { page: (items) => `${items.length}\n` } }
    const s = sink()
    let read = 0
    let maxAhead = 0
    function* pageList() {
      for (let p = 0; p < 1000; p++) {
        maxAhead = Math.max(maxAhead, read - s.writes.length)
        read++
        yield Array.from({ length: 100 }, (_, i) => ({ id: `p${p}r${i}`, n: i }))
      }
    }
    expect(await printList(s.io, pages(pageList()), paged, { format: 'table' })).toBe(100_000)
    expect(maxAhead).toBeLessThanOrEqual(0)
    expect(s.writes).toHaveLength(1000)
  })
})

describe('csvList', () => {
  it("prints a report's rows as CSV, and refuses any other format (its other views show the whole report)", async () => {
    const s = sink()
    await printList(s.io, rows, csvList(view.csv), { format: 'csv' })
    expect(s.text()).toBe("id,n\r\na,1\r\n'=b,2\r\n")
    await expect(printList(s.io, rows, csvList(view.csv), { format: 'tsv' })).rejects.toThrow(/only as CSV/)
  })
})
