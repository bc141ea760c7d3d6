import { afterEach, describe, expect, it } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { DeliveryDetails } from '../../../../src/lib/tui/components/DeliveryDetails.js'
import { type FeedDelivery, ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import type { LoggedDelivery } from '../../../../src/lib/webhooks/event-store.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { renderAt } from '../../../helpers/render-at.js'
import { chargeEvent } from '../../../helpers/webhooks.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

function fed(over: Partial<LoggedDelivery> = {}, skipVerify = false): FeedDelivery {
  const feed = new ListenFeed({})
  const body = Buffer.from(chargeEvent('evt_7', 'charge.settled', 'c'.repeat(24)))
  feed.add(
    heardDelivery(
      { seq: 1, eventId: 'evt_7', type: 'charge.settled', body, headers: { 'content-type': 'application/json', 'x-svc-signature': 't=1,v1=ab', cookie: 'secret' }, forwardStatus: 200, latencyMs: 4, ...over },
      skipVerify,
    ),
  )
  return feed.getSnapshot().deliveries[0]!
}

const draw = (d: FeedDelivery, maxLines?: number) => {
  const app = renderAt(<DeliveryDetails delivery={d} maxLines={maxLines} />, 100, 60)
  mounted.push(app)
  return stripAnsi(app.lastFrame() ?? '')
}

describe('the selected delivery in full', () => {
  it('shows the event, what the app answered, the service’s own headers only, and the body pretty-printed', () => {
    const frame = draw(fed())
    expect(frame).toContain('event evt_7')
    expect(frame).toContain('outcome: forwarded, answered 200')
    expect(frame).toContain('→ 200 in 4 ms')
    expect(frame).toContain('x-svc-signature: t=1,v1=ab')
    expect(frame).not.toContain('cookie')
    expect(frame).toMatch(/"type": "charge\.settled"/)
  })

  it('says plainly when --skip-verify let a delivery through unchecked', () => {
    expect(draw(fed({ verification: 'skipped' }, true))).toContain('--skip-verify is on: this delivery was NOT checked')
  })

  it('fits its rows: the body is cut first, saying how many lines were left out and where to read them', () => {
    const frame = draw(fed(), 14)
    expect(frame.split('\n').length).toBeLessThanOrEqual(14)
    expect(frame).toMatch(/… \d+ more lines \(svc webhooks events --json\)/)
  })
})
