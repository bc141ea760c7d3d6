import { describe, expect, it } from 'vitest'
import { painter, stripAnsi } from '../../../src/lib/output/color.js'
import { fitTable, renderTable, streamingTable, truncate, visibleWidth } from '../../../src/lib/output/table.js'

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

  it('one fitter: shrinks and drops columns in the given order, never below a header; ids are cut in the middle, painted cells keep their colour', () => {
    const columns = [{ header: 'ID', cut: 'middle' as const }, { header: 'STATE' }, { header: 'EXTERNAL ID' }]
    const cells = [['evt_01a23257c0d2b7e4a5f69f3c', colour('green', 'succeeded (injected: duplicate)'), '-']]
    const fitted = fitTable(columns, cells, 40, [
      { index: 0, min: 13 },
      { index: 1, min: 12 },
      { index: 2, min: 1 },
    ])
    const lines = renderTable(fitted.columns, fitted.cells, colour).trimEnd().split('\n')
    for (const l of lines) expect(visibleWidth(l), l).toBeLessThanOrEqual(40)
    // The header of a column whose cells are all short still counts.
    expect(stripAnsi(lines[0]!)).toMatch(/EXTERNAL ID$/)
    expect(stripAnsi(lines[1]!)).toMatch(/^evt_01a2…9f3c {2}succeeded \(…\s+-$/)
    expect(lines[1]).toContain('\u001b[32m')
    expect(lines[1]).toContain('\u001b[39m')
  })
})
