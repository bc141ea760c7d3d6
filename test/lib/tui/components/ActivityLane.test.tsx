import { afterEach, describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { ActivityRow, activityCells } from '../../../../src/lib/tui/components/ActivityLane.js'
import { PAID_WITHDRAWAL as paid } from '../../../helpers/listen-feed.js'
import { renderAt } from '../../../helpers/render-at.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

describe('a withdrawal or product-sale lane', () => {
  it('shows a paid withdrawal’s path, its amount in reais and the end-to-end id that proves the payment', () => {
    const cells = activityCells(paid).map((s) => s.forms[0]!)
    const app = renderAt(<ActivityRow lane={paid} cells={cells.flat()} width={120} />, 120, 10)
    mounted.push(app)
    const frame = stripAnsi(app.lastFrame() ?? '')
    expect(frame).toContain('● processing ─ ● paid')
    expect(frame).toMatch(/R\$\s?1\.234,56/)
    expect(frame).toContain('e2e E20180000202611221200abcdef')
  })

  it('never wraps on a narrow terminal', () => {
    const app = renderAt(<ActivityRow lane={paid} cells={activityCells(paid).flatMap((s) => s.forms.at(-1)!)} width={30} />, 30, 10)
    mounted.push(app)
    for (const line of stripAnsi(app.lastFrame() ?? '').split('\n')) expect([...line].length).toBeLessThanOrEqual(30)
  })
})
