import { describe, expect, it } from 'vitest'
import { painter, stripAnsi } from '../../../src/lib/output/color.js'
import { renderTable, streamingTable, truncate, visibleWidth } from '../../../src/lib/output/table.js'

const plain = painter(false)
const colour = painter(true)

describe('tables', () => {
  it('aligns coloured cells by their visible width', () => {
    const out = renderTable(
      [{ header: 'ID' }, { header: 'STATUS' }, { header: 'AMOUNT', align: 'right' }],
      [
        ['a', colour('green', 'settled'), 'R$ 15,00'],
        ['bbbb', colour('yellow', 'awaiting_payment'), 'R$ 1.500,00'],
      ],
      colour,
    )
    const lines = stripAnsi(out).trimEnd().split('\n')
    expect(lines).toEqual(['ID    STATUS                 AMOUNT', 'a     settled              R$ 15,00', 'bbbb  awaiting_payment  R$ 1.500,00'])
  })

  it('leaves no trailing spaces on a left-aligned last column', () => {
    const out = renderTable([{ header: 'A' }, { header: 'LONG HEADER' }], [['x', 'y']], plain)
    for (const line of out.trimEnd().split('\n')) expect(line).toBe(line.trimEnd())
  })

  it('a streaming table keeps fixed widths and cuts long plain cells with …', () => {
    const t = streamingTable([{ header: 'ID', width: 4 }, { header: 'NAME', width: 6 }, { header: 'END' }], plain)
    expect(t.header()).toBe('ID    NAME    END\n')
    expect(t.row(['1', 'abcdefghij', 'z'])).toBe('1     abcde…  z\n')
  })

  it('counts characters, not bytes or escape codes', () => {
    expect(visibleWidth(colour('red', 'ação'))).toBe(4)
    expect(truncate('ação-longa', 5)).toBe('ação…')
  })
})
