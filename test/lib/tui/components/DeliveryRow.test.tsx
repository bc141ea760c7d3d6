import { afterEach, describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { DeliveryRow, deliveryCells } from '../../../../src/lib/tui/components/DeliveryRow.js'
import { fedDelivery as fed } from '../../../helpers/listen-feed.js'
import { renderAt } from '../../../helpers/render-at.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

describe('a delivery on one line', () => {
  it('fits a narrow terminal without wrapping, keeping the type and the verification', () => {
    const d = fed()
    const app = renderAt(<DeliveryRow delivery={d} cells={deliveryCells(d, true).flatMap((s) => s.forms.at(-1)!)} width={40} />, 40, 5)
    mounted.push(app)
    const frame = stripAnsi(app.lastFrame() ?? '')
    for (const line of frame.split('\n')) expect([...line].length).toBeLessThanOrEqual(40)
    expect(frame).toContain('charge.paid_pending_settlement')
    expect(frame).toContain('✔')
  })
})
