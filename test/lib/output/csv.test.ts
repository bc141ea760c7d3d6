import { describe, expect, it } from 'vitest'
import { csvCell, csvRecord, csvWriter, parseSeparator } from '../../../src/lib/output/csv.js'

describe('csv writer (RFC 4180)', () => {
  it("neutralises formulas: a text cell beginning with =, +, -, @, tab or CR gets a leading '", () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`).replace(/^"/, '').startsWith(`'${start}`)).toBe(true)
    expect(csvCell('a=b')).toBe('a=b')
    expect(csvCell(-5)).toBe('-5')
  })

  it('quotes fields holding the separator, a quote or a line end, doubling quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('a;b', ';')).toBe('"a;b"')
    expect(csvCell('a;b')).toBe('a;b')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell(undefined)).toBe('')
    expect(csvRecord(['a', 1, undefined])).toBe('a,1,\r\n')
  })

  it('writes the header once, even with no rows', () => {
    let out = ''
    const w = csvWriter<{ n: number }>((t) => (out += t), [{ header: 'n', value: (r) => r.n }])
    w.end()
    expect(out).toBe('n\r\n')
    out = ''
    const w2 = csvWriter<{ n: number }>((t) => (out += t), [{ header: 'n', value: (r) => r.n }], ';')
    w2.row({ n: 1 })
    w2.row({ n: 2 })
    w2.end()
    expect(out).toBe('n\r\n1\r\n2\r\n')
  })

  it('--separator takes one character, not a quote or a line end', () => {
    expect(parseSeparator(undefined)).toBe(',')
    expect(parseSeparator(';')).toBe(';')
    expect(parseSeparator('tab')).toBe('\t')
    expect(() => parseSeparator('"')).toThrow(/--separator/)
    expect(() => parseSeparator(';;')).toThrow(/--separator/)
  })
})
