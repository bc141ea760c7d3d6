/** What the live view of `webhooks listen` is fed in its tests: a delivery as the feed keeps it, a withdrawal's lane. */
import type { ActivityLane } from '../../src/lib/tui/view-models/activity.js'
import { type FeedDelivery, ListenFeed } from '../../src/lib/tui/view-models/listen-feed.js'
import type { LoggedDelivery } from '../../src/lib/webhooks/event-store.js'
import { heardDelivery } from './event-log.js'
import { chargeEvent } from './webhooks.js'

/** One charge event heard (verified, forwarded → 200 in 12 ms unless `over` says otherwise), as the feed keeps it. */
export function fedDelivery(over: Partial<LoggedDelivery> = {}, skipVerify = false): FeedDelivery {
  const feed = new ListenFeed({})
  feed.add(
    heardDelivery(
      { seq: 1, eventId: 'evt_1', type: 'charge.paid_pending_settlement', body: Buffer.from(chargeEvent('evt_1', 'charge.paid_pending_settlement', 'c'.repeat(24))), forwardStatus: 200, latencyMs: 12, ...over },
      skipVerify,
    ),
  )
  return feed.getSnapshot().deliveries[0]!
}

/** A withdrawal that went from processing to paid, with its amount and end-to-end id. */
export const PAID_WITHDRAWAL: ActivityLane = {
  kind: 'withdrawal',
  id: 'wd_0123456789abcdef01234567',
  steps: [
    { status: 'processing', at: '2026-11-22T12:00:00Z' },
    { status: 'paid', at: '2026-11-22T12:00:05Z' },
  ],
  current: 'paid',
  amountInCents: 123456,
  detail: 'E20180000202611221200abcdef',
  touched: 1,
}
