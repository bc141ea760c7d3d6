import { afterEach, describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { FitText } from '../../../../src/lib/tui/components/FitText.js'
import { renderAt } from '../../../helpers/render-at.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

const line = [
  { forms: [[{ text: 'charge.settled' }]], priority: 100 },
  { forms: [[{ text: '12:00:01' }], []], priority: 20 },
  { forms: [[{ text: '✔ confirmed (now settled)' }], [{ text: '✔' }]], priority: 80 },
]

describe('FitText: one line of a live view', () => {
  it('draws the whole line when it fits, and the shorter forms on one line when it does not', () => {
    const wide = renderAt(<FitText segments={line} width={80} />, 80, 5)
    mounted.push(wide)
    expect(stripAnsi(wide.lastFrame() ?? '')).toBe('charge.settled 12:00:01 ✔ confirmed (now settled)')
    const narrow = renderAt(<FitText segments={line} width={20} />, 20, 5)
    mounted.push(narrow)
    expect(stripAnsi(narrow.lastFrame() ?? '')).toBe('charge.settled ✔')
  })
})

describe('FitText', () => {
  it('drops the lowest-priority segment first and keeps the line within the width', () => {
    const segments = [
      { forms: [[{ text: 'IMPORTANT' }]], priority: 100 },
      { forms: [[{ text: 'a long optional note' }], []], priority: 1 },
    ]
    const wide = renderAt(<FitText segments={segments} width={40} />, 40, 2)
    mounted.push(wide)
    expect(stripAnsi(wide.lastFrame() ?? '')).toBe('IMPORTANT a long optional note')
    const narrow = renderAt(<FitText segments={segments} width={12} />, 12, 2)
    mounted.push(narrow)
    expect(stripAnsi(narrow.lastFrame() ?? '')).toBe('IMPORTANT')
  })
})
