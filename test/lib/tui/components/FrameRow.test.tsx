import { Box } from 'ink'
import { describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { badgeOf, environmentBadge, painter } from '../../../../src/lib/output/color.js'
import { FrameRowView } from '../../../../src/lib/tui/components/FrameRow.js'
import { activityCells, activityTail } from '../../../../src/lib/tui/text/activity-cells.js'
import { deliveryCells, deliveryTail } from '../../../../src/lib/tui/text/delivery-cells.js'
import { type FrameRow, fitLine, type Piece, type Segment } from '../../../../src/lib/tui/text/fit.js'
import { badgePieces } from '../../../../src/lib/tui/text/format.js'
import { laneCells, laneTail } from '../../../../src/lib/tui/text/lane-cells.js'
import type { Lane } from '../../../../src/lib/tui/view-models/lanes.js'
import { fedDelivery as fed, PAID_WITHDRAWAL as paid } from '../../../helpers/listen-feed.js'
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

/** A lane's, an activity's or a delivery's row as the live views build it: its aligned cells, then its free end. */
const fitRow = (cells: Piece[], tail: Segment[]): FrameRow => ({ kind: 'fit', segments: [{ forms: [cells], priority: 1000 }, ...tail] })

const AT = '2026-11-25T16:05:21.000Z'
const lane: Lane = {
  chargeId: '01a2130001fb000000000001',
  current: 'settled',
  grossInCents: 4990,
  steps: [
    { status: 'created', at: AT, outOfOrder: false },
    { status: 'awaiting_payment', at: AT, outOfOrder: false },
    { status: 'paid_pending_settlement', at: AT, outOfOrder: false, inferred: true },
    { status: 'settled', at: AT, outOfOrder: false },
  ],
  verdict: { kind: 'confirmed', api: 'settled', movedOn: false },
  split: { status: 'completed', parts: 2 },
  touched: 1,
}

const laneText = (width: number) => draw([fitRow(fitLine(laneCells(lane), width), laneTail(lane))], width)

describe("one charge's lane, as both live views draw it: states, amount, time and verdict, fitted to the width, never wrapped", () => {
  it('wide: every state by name with its mark, the amount, the split and the verdict', () => {
    const text = laneText(180)
    expect(text).toContain('● created')
    expect(text).toContain('◌ paid_pending_settlement')
    expect(text).toContain('● settled')
    expect(text).toContain('R$ 49,90')
    expect(text).toContain('split ✓ 2 parts')
    expect(text.split('\n')).toHaveLength(1)
  })

  it('narrow: short names, then icons, never more than the width and never wrapped', () => {
    for (const width of [100, 70, 50, 30]) {
      const text = laneText(width)
      expect(text.split('\n'), `width ${width}`).toHaveLength(1)
      expect([...text].length, `width ${width}`).toBeLessThanOrEqual(width)
    }
    expect(laneText(70)).not.toContain('paid_pending_settlement')
  })
})

describe('a withdrawal or product-sale lane', () => {
  it('shows a paid withdrawal’s path, its amount in reais and the end-to-end id that proves the payment', () => {
    const cells = activityCells(paid).map((s) => s.forms[0]!)
    const frame = draw([fitRow(cells.flat(), activityTail(paid))], 120)
    expect(frame).toContain('● processing ─ ● paid')
    expect(frame).toMatch(/R\$\s?1\.234,56/)
    expect(frame).toContain('e2e E20180000202611221200abcdef')
  })

  it('never wraps on a narrow terminal', () => {
    const frame = draw(
      [
        fitRow(
          activityCells(paid).flatMap((s) => s.forms.at(-1)!),
          activityTail(paid),
        ),
      ],
      30,
    )
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(30)
  })
})

describe('a delivery on one line', () => {
  it('fits a narrow terminal without wrapping, keeping the type and the verification', () => {
    const d = fed()
    const frame = draw(
      [
        fitRow(
          deliveryCells(d, true).flatMap((s) => s.forms.at(-1)!),
          deliveryTail(d),
        ),
      ],
      40,
    )
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(40)
    expect(frame).toContain('charge.paid_pending_settlement')
    expect(frame).toContain('✔')
  })
})

/** The live views' TEST / LIVE badge and the printed one are one badge: same label, same colour. */
describe('environment badge', () => {
  it.each([
    ['live', ' LIVE ', 'red', 31],
    ['test', ' TEST ', 'yellow', 33],
  ])('%s: %j in %s, bold and inverse, printed and in the live views', (env, label, color, code) => {
    expect(badgeOf(env)).toEqual({ label, color })
    expect(environmentBadge(painter(true), env)).toBe(`\u001B[${code}m\u001B[7m\u001B[1m${label}\u001B[22m\u001B[27m\u001B[39m`)
    // Ink trims a line's trailing space.
    expect(draw([{ kind: 'fit', segments: [{ forms: [badgePieces(env)], priority: 100 }] }], 40)).toBe(label.trimEnd())
  })
})
