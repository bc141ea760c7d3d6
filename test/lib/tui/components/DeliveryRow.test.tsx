import { afterEach, describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { DeliveryRow, deliveryCells } from '../../../../src/lib/tui/components/DeliveryRow.js'
import { type FeedDelivery, ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import type { LoggedDelivery } from '../../../../src/lib/webhooks/event-store.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { renderAt } from '../../../helpers/render-at.js'
import { chargeEvent } from '../../../helpers/webhooks.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

const CHARGE = 'c'.repeat(24)

function fed(over: Partial<LoggedDelivery> = {}, skipVerify = false): FeedDelivery {
  const feed = new ListenFeed({})
  feed.add(
    heardDelivery(
      { seq: 1, eventId: 'evt_1', type: 'charge.paid_pending_settlement', body: Buffer.from(chargeEvent('evt_1', 'charge.paid_pending_settlement', CHARGE)), forwardStatus: 200, latencyMs: 12, ...over },
      skipVerify,
    ),
  )
  return feed.getSnapshot().deliveries[0]!
}

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
