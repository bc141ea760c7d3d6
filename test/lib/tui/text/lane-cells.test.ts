import { describe, expect, it } from 'vitest'
import { plain } from '../../../../src/lib/tui/text/fit.js'
import { LANE_LEGEND, LANE_LEGEND_SHORT, laneCells, laneEndCells, legendSegment } from '../../../../src/lib/tui/text/lane-cells.js'
import type { Lane } from '../../../../src/lib/tui/view-models/lanes.js'

const lane: Lane = {
  chargeId: 'a'.repeat(24),
  current: 'awaiting_payment',
  grossInCents: 1500,
  steps: [
    { status: 'created', at: '2026-11-22T12:00:00Z' },
    { status: 'awaiting_payment', at: '2026-11-22T12:00:01Z' },
  ],
} as Lane

describe('the cells of a lane, without Ink', () => {
  it('are the id, the states (full, short, icons), the amount and the time, each with its narrower forms', () => {
    const [id, states, amount, time] = laneCells(lane, '2026-11-22T12:00:05Z')
    expect(plain(id!.forms[0]!)).toMatch(/^aaaaaa…a{4}$/)
    expect(states!.forms.map((f) => plain(f))).toEqual(['● created ─ ● awaiting_payment ─ ○ paid_pending_settlement ─ ○ settled', '●created ●awaiting ○paid ○settled', '●●○○ awaiting_payment'])
    expect(plain(amount!.forms[0]!)).toBe('R$ 15,00')
    expect(time!.forms.at(-1)).toEqual([])
  })

  it('end in empty columns for a lane with no split and nothing out of order, and the legend shrinks, then goes', () => {
    expect(laneEndCells(lane).map((s) => s.forms)).toEqual([[[]], [[]]])
    expect(legendSegment().forms.map((f) => plain(f))).toEqual([LANE_LEGEND, LANE_LEGEND_SHORT, ''])
  })
})

describe('the lane legend', () => {
  it('says what each mark means', () => {
    for (const mark of ['●', '◌', '↯', '○']) expect(LANE_LEGEND).toContain(mark)
  })
})
