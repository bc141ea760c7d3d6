import { describe, expect, it } from 'vitest'
import { deliveryCells } from '../../../../src/lib/tui/text/delivery-cells.js'
import { plain } from '../../../../src/lib/tui/text/fit.js'
import { type FeedDelivery, ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import type { LoggedDelivery } from '../../../../src/lib/webhooks/event-store.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { chargeEvent } from '../../../helpers/webhooks.js'

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

const row = (d: FeedDelivery) => plain(deliveryCells(d, false).flatMap((s) => s.forms[0]!))

describe('a delivery as cells, without Ink', () => {
  it('says what arrived, that it was verified, and what the app answered', () => {
    const d = fed()
    const text = row(d)
    expect(text).toContain('charge.paid_pending_settlement')
    expect(text).toContain('✔ verified')
    expect(text).toContain('→ 200 12ms')
  })

  it('shouts an unverified delivery and names a failed forward with the status the service got', () => {
    expect(row(fed({ verification: 'skipped' }, true))).toContain('⚠ UNVERIFIED')
    expect(row(fed({ verification: 'failed', verifyReason: 'signature_mismatch', outcome: 'rejected', answeredStatus: 400 }))).toContain('✘ signature_mismatch')
    expect(row(fed({ outcome: 'failed', forwardStatus: undefined, answeredStatus: 502 }))).toContain('→ down')
  })
})
