import { describe, expect, it } from 'vitest'
import { painter } from '../../../src/lib/output/color.js'
import { safeText } from '../../../src/lib/output/safe-text.js'
import { renderTable } from '../../../src/lib/output/table.js'

const ESC = '\u001b'

describe('safeText: outside text never drives the terminal', () => {
  it('shows ESC, other C0 controls, DEL, C1 controls and bidi overrides as visible escapes', () => {
    expect(safeText(`hi${ESC}[31mRED${ESC}[0m`)).toBe('hi\\x1b[31mRED\\x1b[0m')
    expect(safeText('a\u0007b\u007fc\u009b2Jd\u202eevil')).toBe('a\\x07b\\x7fc\\x9b2Jd\\u202eevil')
    expect(safeText(`${ESC}]8;;https://evil.example${ESC}\\link`)).not.toContain(ESC)
  })

  it('one line: tab, CR and LF are escaped so a value cannot add or overwrite lines', () => {
    expect(safeText('a\tb\r\nc')).toBe('a\\tb\\r\\nc')
  })

  it('multiline: keeps LF and tab, turns CRLF into LF and escapes a lone CR', () => {
    expect(safeText('line 1\r\n\tline 2\rgotcha', 'multiline')).toBe('line 1\n\tline 2\\rgotcha')
  })

  it('tsv: escapes tab, newline and the backslash itself, so the value can be restored exactly', () => {
    expect(safeText('a\tb\nc\\d', 'tsv')).toBe('a\\tb\\nc\\\\d')
  })

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(safeText('Pedido nº 42 — São Paulo ✓ 🎉')).toBe('Pedido nº 42 — São Paulo ✓ 🎉')
  })

  it('painted: keeps colour sequences but escapes every other control', () => {
    const red = painter(true)('red', 'paid')
    expect(safeText(`${red}${ESC}[2J\n`, 'painted')).toBe(`${red}\\x1b[2J\\n`)
  })

  it('a table cell cannot clear the screen or break its row, even when its renderer forgot to clean it', () => {
    const out = renderTable([{ header: 'TYPE' }, { header: 'ID' }], [[`charge.paid${ESC}[2J${ESC}[H`, 'a\nb']], painter(false))
    expect(out).not.toContain(ESC)
    expect(out.trimEnd().split('\n')).toHaveLength(2)
  })
})
