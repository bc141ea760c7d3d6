import { Box } from 'ink'
import { describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { FrameRowView } from '../../../../src/lib/tui/components/FrameRow.js'
import type { FrameRow } from '../../../../src/lib/tui/text/fit.js'
import { renderAt } from '../../../helpers/render-at.js'

function draw(rows: FrameRow[], width: number): string {
  const r = renderAt(
    <Box flexDirection="column" width={width}>
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
        <FrameRowView key={i} row={row} width={width} />
      ))}
    </Box>,
    width,
    24,
  )
  const out = stripAnsi(r.lastFrame() ?? '')
  r.unmount()
  return out
}

describe('a frame row drawn with Ink', () => {
  it('is a fitted line, a line of one style cut with … when too wide, an empty line, or room for the view’s own part', () => {
    const rows: FrameRow[] = [
      {
        kind: 'fit',
        segments: [
          { forms: [[{ text: 'watching' }], []], priority: 10 },
          { forms: [[{ text: 'the 10 newest charges' }]], priority: 90 },
        ],
      },
      { kind: 'text', text: 'last poll failed: the service is down for maintenance', style: { color: 'red' } },
      { kind: 'blank' },
      { kind: 'other', id: 'x', height: 2 },
      { kind: 'text', text: 'q quit', style: { dim: true } },
    ]
    expect(draw(rows, 24).split('\n')).toEqual(['the 10 newest charges', 'last poll failed: the s…', '', '', '', 'q quit'])
  })
})
