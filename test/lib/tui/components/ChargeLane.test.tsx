/** One charge's lane, as both live views draw it: states, amount, time and verdict, fitted to the width, never wrapped. */
import { describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { ChargeLane, LANE_LEGEND, laneCells } from '../../../../src/lib/tui/components/ChargeLane.js'
import { FitText } from '../../../../src/lib/tui/components/FitText.js'
import { fitLine } from '../../../../src/lib/tui/text/fit.js'
import type { Lane } from '../../../../src/lib/tui/view-models/lanes.js'
import { renderAt } from '../../../helpers/render-at.js'

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

function draw(width: number, l: Lane = lane): string {
  const cells = fitLine(laneCells(l), width)
  const view = renderAt(<ChargeLane lane={l} cells={cells} width={width} />, width, 3)
  const text = stripAnsi(view.lastFrame() ?? '')
  view.unmount()
  return text
}

describe('ChargeLane', () => {
  it('wide: every state by name with its mark, the amount, the split and the verdict', () => {
    const text = draw(180)
    expect(text).toContain('● created')
    expect(text).toContain('◌ paid_pending_settlement')
    expect(text).toContain('● settled')
    expect(text).toContain('R$ 49,90')
    expect(text).toContain('split ✓ 2 parts')
    expect(text.split('\n')).toHaveLength(1)
  })

  it('narrow: short names, then icons, never more than the width and never wrapped', () => {
    for (const width of [100, 70, 50, 30]) {
      const text = draw(width)
      expect(text.split('\n'), `width ${width}`).toHaveLength(1)
      expect([...text].length, `width ${width}`).toBeLessThanOrEqual(width)
    }
    expect(draw(70)).not.toContain('paid_pending_settlement')
  })

  it('the legend says what each mark means', () => {
    for (const mark of ['●', '◌', '↯', '○']) expect(LANE_LEGEND).toContain(mark)
  })
})

describe('FitText', () => {
  it('drops the lowest-priority segment first and keeps the line within the width', () => {
    const segments = [
      { forms: [[{ text: 'IMPORTANT' }]], priority: 100 },
      { forms: [[{ text: 'a long optional note' }], []], priority: 1 },
    ]
    const wide = renderAt(<FitText segments={segments} width={40} />, 40, 2)
    expect(stripAnsi(wide.lastFrame() ?? '')).toBe('IMPORTANT a long optional note')
    wide.unmount()
    const narrow = renderAt(<FitText segments={segments} width={12} />, 12, 2)
    expect(stripAnsi(narrow.lastFrame() ?? '')).toBe('IMPORTANT')
    narrow.unmount()
  })
})
