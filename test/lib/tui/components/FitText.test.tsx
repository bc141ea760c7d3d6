import { afterEach, describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { FitText } from '../../../../src/lib/tui/components/FitText.js'
import { renderAt } from '../../../helpers/render-at.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

/** The line FitText draws for these segments at this width (on a terminal that wide). */
function drawn(segments: Parameters<typeof FitText>[0]['segments'], width: number, rows: number): string {
  const view = renderAt(<FitText segments={segments} width={width} />, width, rows)
  mounted.push(view)
  return stripAnsi(view.lastFrame() ?? '')
}

const line = [
  { forms: [[{ text: 'charge.settled' }]], priority: 100 },
  { forms: [[{ text: '12:00:01' }], []], priority: 20 },
  { forms: [[{ text: '✔ confirmed (now settled)' }], [{ text: '✔' }]], priority: 80 },
]

describe('FitText: one line of a live view', () => {
  it('draws the whole line when it fits, and the shorter forms on one line when it does not', () => {
    expect(drawn(line, 80, 5)).toBe('charge.settled 12:00:01 ✔ confirmed (now settled)')
    expect(drawn(line, 20, 5)).toBe('charge.settled ✔')
  })
})

describe('FitText', () => {
  it('drops the lowest-priority segment first and keeps the line within the width', () => {
    const segments = [
      { forms: [[{ text: 'IMPORTANT' }]], priority: 100 },
      { forms: [[{ text: 'a long optional note' }], []], priority: 1 },
    ]
    expect(drawn(segments, 40, 2)).toBe('IMPORTANT a long optional note')
    expect(drawn(segments, 12, 2)).toBe('IMPORTANT')
  })
})
