import { describe, expect, it } from 'vitest'
import { deliveryCells } from '../../../../src/lib/tui/text/delivery-cells.js'
import { plain } from '../../../../src/lib/tui/text/fit.js'
import type { FeedDelivery } from '../../../../src/lib/tui/view-models/listen-feed.js'
import { fedDelivery as fed } from '../../../helpers/listen-feed.js'

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
