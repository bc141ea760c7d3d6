/** Spec 2.3, 2.7, 4.5 and 4.6: fees from the plan, the account read, and POST /v1/webhooks/test. */
import { AccountSchema, EventSchema } from '../../../../src/lib/contract/schemas.js'
import { describe, expect, it } from 'vitest'
import { errorOf, useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

describe('fees (spec 2.3)', () => {
  it('charges the fixed part plus the percentage of the gross, rounded half up, net = gross − fee', async () => {
    h.sb.admin!.updateSettings({ feeBps: 199, feeFixedInCents: 50 })
    const cases: Array<[number, number]> = [
      [1000, 50 + 20], // 19.9 → 20
      [1500, 50 + 30], // 29.85 → 30
      [2513, 50 + 50], // 50.0087 → 50
      [500_000, 50 + 9950],
    ]
    for (const [gross, fee] of cases) {
      const c = (await h.create({ amountInCents: gross })).body
      expect(c.amount).toEqual({ grossInCents: gross, feeBps: 199, feeFixedInCents: 50, feeInCents: fee, netInCents: gross - fee })
    }
  })

  it('applies a plan change to new charges and to the account read, never to existing charges', async () => {
    h.sb.admin!.updateSettings({ feeBps: 199, feeFixedInCents: 50 })
    const before = (await h.create({ amountInCents: 10_000 })).body
    const accountBefore = (await h.call('GET', '/v1/account')).body
    h.sb.admin!.updateSettings({ feeBps: 350, feeFixedInCents: 0 })
    const after = (await h.create({ amountInCents: 10_000 })).body
    expect(after.amount).toEqual({ grossInCents: 10_000, feeBps: 350, feeFixedInCents: 0, feeInCents: 350, netInCents: 9650 })
    expect((await h.call('GET', `/v1/charges/${before.id}`)).body.amount).toEqual(before.amount)
    const account = (await h.call('GET', '/v1/account')).body
    expect(account.plan.feeBps).toBe(350)
    expect(account.plan.id).not.toBe(accountBefore.plan.id)
    expect(account.feeFixedInCents).toBe(0)
    h.sb.admin!.updateSettings({ feeBps: 199, feeFixedInCents: 50 })
  })
})

describe('account (spec 4.5)', () => {
  it('reads merchant, plan, fee, limits and hold in the environment of the key', async () => {
    h.sb.admin!.updateSettings({ settlementDelayHours: 12 })
    for (const [key, environment] of [
      [h.sb.testKey, 'test'],
      [h.sb.liveKey, 'live'],
    ] as const) {
      const r = await h.call('GET', '/v1/account', { key })
      expect(r.status).toBe(200)
      const account = AccountSchema.parse(r.body)
      expect(account).toMatchObject({
        environment,
        plan: { feeBps: 199, id: expect.any(String), name: expect.any(String) },
        feeFixedInCents: 50,
        limits: { minChargeInCents: 1000, maxChargeInCents: 500_000 },
        settlementDelayHours: 12,
      })
      expect(account.merchantId).toMatch(/^mrc_/)
      expect(account.email).toContain('@')
      expect(account.webhook).toBeUndefined()
    }
    h.sb.admin!.updateSettings({ settlementDelayHours: 24 })
  })

  it('shows the environment webhook {url, active} from the delivery worker', async () => {
    h.deliveries.setEndpoint('live', 'https://shop.example/hooks', false)
    const live = (await h.call('GET', '/v1/account', { key: h.sb.liveKey })).body
    expect(live.webhook).toEqual({ url: 'https://shop.example/hooks', active: false })
    expect((await h.call('GET', '/v1/account')).body.webhook).toBeUndefined()
  })

  it('answers 401 without a key', async () => {
    expect((await h.call('GET', '/v1/account', { key: null })).status).toBe(401)
  })
})

describe('POST /v1/webhooks/test (spec 4.6)', () => {
  it('answers 404 webhook_not_configured when the environment has no URL', async () => {
    const r = await h.call('POST', '/v1/webhooks/test')
    expect(r.status).toBe(404)
    expect(errorOf(r).code).toBe('webhook_not_configured')
  })

  it('answers 202 {eventId} and publishes a charge.test event with that id in that environment', async () => {
    h.deliveries.setEndpoint('test', 'http://127.0.0.1:9/hook')
    const r = await h.call('POST', '/v1/webhooks/test')
    expect(r.status).toBe(202)
    expect(r.body).toEqual({ eventId: expect.stringMatching(/^evt_/) })
    const published = h.deliveries.events.filter((e) => e.id === r.body.eventId)
    expect(published).toHaveLength(1)
    expect(published[0]).toMatchObject({ type: 'charge.test', environment: 'test' })
    const body = EventSchema.parse(JSON.parse(published[0]!.body))
    expect(body).toMatchObject({ id: r.body.eventId, type: 'charge.test', environment: 'test' })
    const again = await h.call('POST', '/v1/webhooks/test')
    expect(again.body.eventId).not.toBe(r.body.eventId)
  })
})
