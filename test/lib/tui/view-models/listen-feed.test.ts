import { describe, expect, it, vi } from 'vitest'
import type { Charge } from '../../../../src/lib/contract/schemas.js'
import { everyFrame, FRAME_MS, ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import { ChargeConfirmer } from '../../../../src/lib/webhooks/confirm.js'
import type { LoggedDelivery } from '../../../../src/lib/webhooks/event-store.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { chargeEvent } from '../../../helpers/webhooks.js'

const A = 'a'.repeat(24)
let seq = 0
const heard = (type: string, over: Partial<LoggedDelivery> = {}) => heardDelivery({ seq: ++seq, eventId: `evt_${seq}`, type, body: Buffer.from(chargeEvent(`evt_${seq}`, type, A)), forwardStatus: 200, ...over })

describe('ListenFeed: what the listener view shows', () => {
  it('lists deliveries newest first, at most maxDeliveries, and counts them by outcome with replays apart', () => {
    const feed = new ListenFeed({ maxDeliveries: 2 })
    feed.add(heard('charge.awaiting_payment'))
    feed.add(heard('charge.paid_pending_settlement', { outcome: 'failed', forwardStatus: undefined }))
    feed.add(heard('charge.settled', { source: 'replay' }))
    const s = feed.getSnapshot()
    expect(s.deliveries.map((d) => d.type)).toEqual(['charge.settled', 'charge.paid_pending_settlement'])
    expect(s.counts).toMatchObject({ total: 2, forwarded: 1, failed: 1, replays: 1 })
  })

  it('moves a charge’s lane on trusted events only: a delivery that failed verification moves nothing', () => {
    const feed = new ListenFeed()
    feed.add(heard('charge.awaiting_payment'))
    feed.add(heard('charge.refunded', { verification: 'failed', outcome: 'rejected', answeredStatus: 400 }))
    expect(feed.getSnapshot().lanes.map((l) => l.current)).toEqual(['awaiting_payment'])
  })

  it('asks the API about each trusted charge event and shows its verdict, but not for a charge of the other environment', async () => {
    const getCharge = vi.fn(async (id: string) => ({ id, status: 'settled', environment: 'test' }) as unknown as Charge)
    const feed = new ListenFeed({ confirmer: new ChargeConfirmer(getCharge), confirmEnvironment: 'test' })
    feed.add(heard('charge.paid_pending_settlement'))
    expect(feed.getSnapshot().deliveries[0]!.verdict).toEqual({ kind: 'pending' })
    await feed.settled()
    expect(feed.getSnapshot().deliveries[0]!.verdict).toMatchObject({ kind: 'confirmed', api: 'settled', movedOn: true })
    const live = new ListenFeed({ confirmer: new ChargeConfirmer(getCharge), confirmEnvironment: 'live' })
    live.add(heard('charge.paid_pending_settlement'))
    expect(live.getSnapshot().deliveries[0]!.verdict).toBeUndefined()
    expect(getCharge).toHaveBeenCalledTimes(1)
  })

  it('keeps the last four notices, and tells the view of every change', () => {
    const feed = new ListenFeed()
    const changed = vi.fn()
    feed.subscribe(changed)
    for (let i = 1; i <= 6; i++) feed.notice(`notice ${i}`)
    expect(feed.getSnapshot().notices).toEqual(['notice 3', 'notice 4', 'notice 5', 'notice 6'])
    expect(changed).toHaveBeenCalledTimes(6)
  })

  it('on a schedule, tells the view once for all the changes made until the flush, and shows them all', () => {
    const flushes: Array<() => void> = []
    const feed = new ListenFeed({ schedule: (flush) => flushes.push(flush) })
    const changed = vi.fn()
    feed.subscribe(changed)
    for (let i = 0; i < 50; i++) feed.add(heard('charge.awaiting_payment'))
    feed.notice('replaying evt_1…')
    expect(changed).not.toHaveBeenCalled()
    expect(flushes).toHaveLength(1)
    flushes[0]!()
    expect(changed).toHaveBeenCalledTimes(1)
    const s = feed.getSnapshot()
    expect(s.counts.total).toBe(50)
    expect(s.deliveries).toHaveLength(50)
    expect(s.notices).toEqual(['replaying evt_1…'])
    // The next change asks for the next flush.
    feed.add(heard('charge.settled'))
    expect(flushes).toHaveLength(2)
  })

  it('keeps each snapshot as it was made: the same object until a change, untouched by the changes after it', () => {
    const feed = new ListenFeed({ maxDeliveries: 2 })
    feed.add(heard('charge.awaiting_payment'))
    const before = feed.getSnapshot()
    expect(feed.getSnapshot()).toBe(before)
    feed.add(heard('charge.paid_pending_settlement'))
    feed.add(heard('charge.settled'))
    const after = feed.getSnapshot()
    expect(after).not.toBe(before)
    expect(before.deliveries.map((d) => d.type)).toEqual(['charge.awaiting_payment'])
    expect(before.counts.total).toBe(1)
    expect(after.deliveries.map((d) => d.type)).toEqual(['charge.settled', 'charge.paid_pending_settlement'])
    expect(after.counts.total).toBe(3)
  })

  it('everyFrame: the flush comes one frame (FRAME_MS) after the first change, not before', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    try {
      const feed = new ListenFeed({ schedule: everyFrame() })
      const changed = vi.fn()
      feed.subscribe(changed)
      feed.add(heard('charge.awaiting_payment'))
      vi.advanceTimersByTime(FRAME_MS - 1)
      feed.add(heard('charge.settled'))
      expect(changed).not.toHaveBeenCalled()
      vi.advanceTimersByTime(1)
      expect(changed).toHaveBeenCalledTimes(1)
      expect(feed.getSnapshot().deliveries).toHaveLength(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
