/** Spec part 3 over real HTTP, driven by the manual clock: every move, its event and its fields. */
import { ChargeSchema, EventSchema } from '../../../../src/lib/contract/schemas.js'
import { describe, expect, it } from 'vitest'
import { errorOf, eventsOf, useHarness } from '../../../helpers/conformance.js'

const HOUR = 3_600_000
const h = useHarness()

const advance = (id: string, status: string) => h.call('POST', `/v1/test/charges/${id}/advance`, { body: { status } })
const get = async (id: string) => (await h.call('GET', `/v1/charges/${id}`)).body

describe('creation', () => {
  it('creates in awaiting_payment with a valid Charge and one charge.awaiting_payment event carrying it', async () => {
    const r = await h.create({ externalId: 'sm-1', description: 'Pedido 1', metadata: { order: '1' }, payerName: 'Maria Silva' })
    expect(r.status).toBe(201)
    const charge = ChargeSchema.parse(r.body)
    expect(charge).toMatchObject({ status: 'awaiting_payment', externalId: 'sm-1', description: 'Pedido 1', metadata: { order: '1' } })
    expect(charge.payer).toEqual({ taxNumber: '***.982.247-**', name: 'Maria Silva' })
    expect(charge.settlement).toEqual({ delayHours: 24 })
    expect(charge.createdAt).toBe(new Date(h.clock.now()).toISOString())
    expect(charge.pix.expiresAt).toBe(new Date(h.clock.now() + HOUR).toISOString())
    const events = eventsOf(h, charge.id)
    expect(events.map((e) => e.type)).toEqual(['charge.awaiting_payment'])
    const event = EventSchema.parse(events[0]!.body)
    expect(event).toMatchObject({ type: 'charge.awaiting_payment', environment: 'test' })
    expect(event.data.charge).toEqual(charge)
  })
})

describe('payment and settlement', () => {
  it('pays (paidAt, estimatedAt = paidAt + hold, bank-reported name) and settles when the hold elapses on the clock', async () => {
    const c = (await h.create({ payerName: 'Maria Silva' })).body
    await h.clock.advance(10 * 60_000)
    const paid = await advance(c.id, 'paid_pending_settlement')
    expect(paid.status).toBe(200)
    const paidAt = h.clock.now()
    expect(paid.body.status).toBe('paid_pending_settlement')
    expect(paid.body.settlement).toEqual({
      delayHours: 24,
      paidAt: new Date(paidAt).toISOString(),
      estimatedAt: new Date(paidAt + 24 * HOUR).toISOString(),
    })
    expect(paid.body.payer.name).toBe('MARIA SILVA')
    expect(paid.body.settlement.blockchainTxId).toBeUndefined()

    await h.clock.advance(24 * HOUR - 1)
    expect((await get(c.id)).status).toBe('paid_pending_settlement')
    await h.clock.advance(1)
    const settled = await get(c.id)
    expect(settled.status).toBe('settled')
    expect(settled.settlement.settledAt).toBe(new Date(paidAt + 24 * HOUR).toISOString())
    expect(settled.settlement.blockchainTxId).toMatch(/^0x[0-9a-f]{64}$/)
    expect(eventsOf(h, c.id).map((e) => e.type)).toEqual(['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled'])
    expect(eventsOf(h, c.id).at(-1)!.body.data.charge.settlement.blockchainTxId).toBe(settled.settlement.blockchainTxId)
  })

  it('settles at the instant the hold ends even when the clock jumps past it (25h)', async () => {
    const c = (await h.create()).body
    await advance(c.id, 'paid_pending_settlement')
    const paidAt = h.clock.now()
    await h.clock.advance(25 * HOUR)
    const s = await get(c.id)
    expect(s.status).toBe('settled')
    expect(s.settlement.settledAt).toBe(new Date(paidAt + 24 * HOUR).toISOString())
  })

  it('settles a charge held past its estimate at the release, never back-dated to the estimate (issue 36.3)', async () => {
    h.sb.admin!.updateSettings({ holdSettlements: true, settlementDelayHours: 2 })
    try {
      const c = (await h.create()).body
      await advance(c.id, 'paid_pending_settlement')
      await h.clock.advance(36 * HOUR)
      expect((await get(c.id)).status).toBe('paid_pending_settlement')
      const releasedAt = new Date(h.clock.now()).toISOString()
      h.sb.admin!.updateSettings({ holdSettlements: false })
      await h.clock.tick()
      const s = await get(c.id)
      expect(s.status).toBe('settled')
      expect(s.settlement.settledAt).toBe(releasedAt)
      expect(s.updatedAt).toBe(releasedAt)
      expect(s.settlement.estimatedAt).toBe(new Date(Date.parse(s.settlement.paidAt) + 2 * HOUR).toISOString())
      const settledEvent = eventsOf(h, c.id).at(-1)!
      expect(settledEvent.type).toBe('charge.settled')
      expect(settledEvent.body.createdAt).toBe(releasedAt)
      expect(settledEvent.body.data.charge.settlement.settledAt).toBe(releasedAt)
    } finally {
      h.sb.admin!.updateSettings({ holdSettlements: false, settlementDelayHours: 24 })
    }
  })

  it('a charge whose estimate is still ahead at the release settles at its estimate', async () => {
    h.sb.admin!.updateSettings({ holdSettlements: true })
    const c = (await h.create()).body
    await advance(c.id, 'paid_pending_settlement')
    const paidAt = h.clock.now()
    h.sb.admin!.updateSettings({ holdSettlements: false })
    await h.clock.advance(25 * HOUR)
    expect((await get(c.id)).settlement.settledAt).toBe(new Date(paidAt + 24 * HOUR).toISOString())
  })

  it('uses the hold in force when the charge was created', async () => {
    h.sb.admin!.updateSettings({ settlementDelayHours: 2 })
    const c = (await h.create()).body
    h.sb.admin!.updateSettings({ settlementDelayHours: 24 })
    expect(c.settlement.delayHours).toBe(2)
    await advance(c.id, 'paid_pending_settlement')
    await h.clock.advance(2 * HOUR)
    expect((await get(c.id)).status).toBe('settled')
  })

  it('walks awaiting_payment → settled by advance with one event per step', async () => {
    const c = (await h.create()).body
    const r = await advance(c.id, 'settled')
    expect(r.body.status).toBe('settled')
    expect(r.body.settlement.blockchainTxId).toMatch(/^0x[0-9a-f]{64}$/)
    expect(eventsOf(h, c.id).map((e) => e.type)).toEqual(['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled'])
    // The settlement timer armed by the payment does not move it again.
    await h.clock.advance(48 * HOUR)
    expect(eventsOf(h, c.id)).toHaveLength(3)
  })
})

describe('expiry', () => {
  it('expires an unpaid charge when pix.expiresAt passes (QR valid 1 hour), with charge.expired', async () => {
    const c = (await h.create()).body
    await h.clock.advance(HOUR - 1)
    expect((await get(c.id)).status).toBe('awaiting_payment')
    await h.clock.advance(1)
    const e = await get(c.id)
    expect(e.status).toBe('expired')
    expect(e.updatedAt).toBe(c.pix.expiresAt)
    expect(eventsOf(h, c.id).map((x) => x.type)).toEqual(['charge.awaiting_payment', 'charge.expired'])
  })

  it('follows AccountSettings.qrValiditySeconds', async () => {
    h.sb.admin!.updateSettings({ qrValiditySeconds: 60 })
    const c = (await h.create()).body
    h.sb.admin!.updateSettings({ qrValiditySeconds: 3600 })
    expect(Date.parse(c.pix.expiresAt) - Date.parse(c.createdAt)).toBe(60_000)
    await h.clock.advance(60_000)
    expect((await get(c.id)).status).toBe('expired')
  })

  it('does not expire a paid charge', async () => {
    const c = (await h.create()).body
    await advance(c.id, 'paid_pending_settlement')
    await h.clock.advance(HOUR)
    expect((await get(c.id)).status).toBe('paid_pending_settlement')
  })

  it('expires by advance too', async () => {
    const c = (await h.create()).body
    expect((await advance(c.id, 'expired')).body.status).toBe('expired')
  })
})

describe('cancel', () => {
  it('cancels an unpaid charge (200, charge.canceled) and the expiry timer leaves it alone', async () => {
    const c = (await h.create()).body
    const r = await h.call('POST', `/v1/charges/${c.id}/cancel`)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('canceled')
    await h.clock.advance(2 * HOUR)
    expect((await get(c.id)).status).toBe('canceled')
    expect(eventsOf(h, c.id).map((x) => x.type)).toEqual(['charge.awaiting_payment', 'charge.canceled'])
  })

  it.each(['paid_pending_settlement', 'settled', 'expired', 'refunded', 'canceled'])('answers 409 charge_not_cancelable for a %s charge', async (state) => {
    const c = (await h.create()).body
    if (state === 'canceled') await h.call('POST', `/v1/charges/${c.id}/cancel`)
    else await advance(c.id, state)
    const r = await h.call('POST', `/v1/charges/${c.id}/cancel`)
    expect(r.status).toBe(409)
    expect(errorOf(r).code).toBe('charge_not_cancelable')
    expect((await get(c.id)).status).toBe(state)
  })

  it('answers 404 charge_not_found for an unknown id', async () => {
    const r = await h.call('POST', '/v1/charges/ffffffffffffffffffffffff/cancel')
    expect(r.status).toBe(404)
    expect(errorOf(r).code).toBe('charge_not_found')
  })

  it('lets a canceled charge be paid anyway, and it proceeds to settled', async () => {
    const c = (await h.create()).body
    await h.call('POST', `/v1/charges/${c.id}/cancel`)
    const paid = await advance(c.id, 'paid_pending_settlement')
    expect(paid.status).toBe(200)
    expect(paid.body.status).toBe('paid_pending_settlement')
    await h.clock.advance(24 * HOUR)
    expect((await get(c.id)).status).toBe('settled')
    expect(eventsOf(h, c.id).map((x) => x.type)).toEqual(['charge.awaiting_payment', 'charge.canceled', 'charge.paid_pending_settlement', 'charge.settled'])
  })
})

describe('refund and invalid moves', () => {
  it.each(['paid_pending_settlement', 'settled'])('refunds a %s charge with charge.refunded', async (from) => {
    const c = (await h.create()).body
    await advance(c.id, from)
    const r = await advance(c.id, 'refunded')
    expect(r.status).toBe(200)
    expect(r.body.status).toBe('refunded')
    expect(eventsOf(h, c.id).at(-1)!.type).toBe('charge.refunded')
    await h.clock.advance(48 * HOUR)
    expect((await get(c.id)).status).toBe('refunded')
  })

  it('walks awaiting_payment → refunded through the payment', async () => {
    const c = (await h.create()).body
    await advance(c.id, 'refunded')
    expect(eventsOf(h, c.id).map((x) => x.type)).toEqual(['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.refunded'])
  })

  it.each([
    ['settled', 'paid_pending_settlement'],
    ['settled', 'settled'],
    ['settled', 'expired'],
    ['paid_pending_settlement', 'expired'],
    ['expired', 'paid_pending_settlement'],
    ['expired', 'settled'],
    ['refunded', 'settled'],
    ['canceled', 'expired'],
  ])('answers 409 invalid_transition for %s → %s and changes nothing', async (from, to) => {
    const c = (await h.create()).body
    if (from === 'canceled') await h.call('POST', `/v1/charges/${c.id}/cancel`)
    else await advance(c.id, from)
    const before = await get(c.id)
    const count = eventsOf(h, c.id).length
    const r = await advance(c.id, to)
    expect(r.status).toBe(409)
    expect(errorOf(r).code).toBe('invalid_transition')
    expect(await get(c.id)).toEqual(before)
    expect(eventsOf(h, c.id)).toHaveLength(count)
  })

  it('answers 404 charge_not_found to an advance of an unknown id', async () => {
    const r = await advance('ffffffffffffffffffffffff', 'settled')
    expect(r.status).toBe(404)
    expect(errorOf(r).code).toBe('charge_not_found')
  })
})

describe('failure (simulated provider)', () => {
  it('moves an unpaid charge of R$ 14,03 to failed one minute after creation, with charge.failed', async () => {
    const c = (await h.create({ amountInCents: 1403 })).body
    expect(c.status).toBe('awaiting_payment')
    await h.clock.advance(59_999)
    expect((await get(c.id)).status).toBe('awaiting_payment')
    await h.clock.advance(1)
    const failed = await get(c.id)
    expect(failed.status).toBe('failed')
    expect(eventsOf(h, c.id).map((e) => e.type)).toEqual(['charge.awaiting_payment', 'charge.failed'])
    const r = await h.call('POST', `/v1/charges/${c.id}/cancel`)
    expect(errorOf(r).code).toBe('charge_not_cancelable')
    expect(errorOf(await advance(c.id, 'paid_pending_settlement')).code).toBe('invalid_transition')
  })

  it('does not fail it once paid', async () => {
    const c = (await h.create({ amountInCents: 1403 })).body
    await advance(c.id, 'paid_pending_settlement')
    await h.clock.advance(2 * 60_000)
    expect((await get(c.id)).status).toBe('paid_pending_settlement')
  })
})

describe('events', () => {
  it('gives every event a unique id and the full Charge as the single read shows it at that moment', async () => {
    const c = (await h.create()).body
    await advance(c.id, 'settled')
    const events = eventsOf(h, c.id)
    expect(new Set(events.map((e) => e.body.id)).size).toBe(events.length)
    const final = await get(c.id)
    expect(events.at(-1)!.body.data.charge).toEqual(final)
    for (const e of events) expect(ChargeSchema.safeParse(e.body.data.charge).success).toBe(true)
  })
})
