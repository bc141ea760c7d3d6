import { describe, expect, it } from 'vitest'
import { activityCells } from '../../../../src/lib/tui/text/activity-cells.js'
import { plain } from '../../../../src/lib/tui/text/fit.js'
import type { ActivityLane } from '../../../../src/lib/tui/view-models/activity.js'
import { PAID_WITHDRAWAL as paid } from '../../../helpers/listen-feed.js'

describe('a withdrawal or product-sale lane as cells, without Ink', () => {
  it('marks a failed withdrawal with ✗ and a product sale with one paid step', () => {
    const failed: ActivityLane = { ...paid, steps: [paid.steps[0]!, { status: 'failed', at: paid.steps[1]!.at }], current: 'failed', detail: undefined }
    expect(plain(activityCells(failed)[1]!.forms[0]!)).toBe('● processing ─ ✗ failed')
    const sale: ActivityLane = { kind: 'product', id: 'ps_1', steps: [{ status: 'paid', at: paid.steps[0]!.at }], current: 'paid', touched: 2 }
    expect(plain(activityCells(sale)[0]!.forms[0]!)).toBe('product sale')
    expect(plain(activityCells(sale)[1]!.forms[0]!)).toBe('● paid')
  })
})
