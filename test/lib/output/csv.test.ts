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
    // Whatever the separator in use: a file read with another one still keeps its cells whole (issue 36.10).
    expect(csvCell('a;b')).toBe('"a;b"')
    expect(csvCell('a|b')).toBe('"a|b"')
    expect(csvCell('a\tb')).toBe('"a\tb"')
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

  it('--separator takes , ; tab or | only: nothing that can stand inside a number or a date (issue 36.10)', () => {
    expect(parseSeparator(undefined)).toBe(',')
    expect(parseSeparator(';')).toBe(';')
    expect(parseSeparator('|')).toBe('|')
    expect(parseSeparator('tab')).toBe('\t')
    expect(parseSeparator('\\t')).toBe('\t')
    expect(parseSeparator('\t')).toBe('\t')
    for (const bad of ['"', ';;', '0', 'x', '.', '-', '+', ':', ' ', '']) expect(() => parseSeparator(bad), bad).toThrow(/--separator/)
  })

  it('judges the formula guard after whitespace and control characters, and writes no control character bare (issue 36.9)', () => {
    expect(csvCell('\u0000=1+1')).toBe("'\\x00=1+1")
    expect(csvCell(' =1+1')).toBe("' =1+1")
    expect(csvCell('\u001b\u0007@x')).toBe("'\\x1b\\x07@x")
    expect(csvCell('\u202e=1')).toBe("'\\u202e=1")
    expect(csvCell('ok\u0000')).toBe('ok\\x00')
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"')
    expect(csvCell('a - b')).toBe('a - b')
  })

  it('--bom: a UTF-8 BOM before the header, once', () => {
    let out = ''
    const w = csvWriter<{ n: string }>((t) => (out += t), [{ header: 'nome', value: (r) => r.n }], { separator: ';', bom: true })
    w.row({ n: 'JOSÉ' })
    w.end()
    expect(out).toBe('\uFEFFnome\r\nJOSÉ\r\n')
  })
})
