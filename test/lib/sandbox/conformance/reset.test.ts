/** POST /_sandbox/reset: the data goes, and so do its pending timers; keys, secret, plan and webhook URL stay. */
import { describe, expect, it } from 'vitest'
import { useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

describe('reset', () => {
  it('empties charges, events and withdrawals and forgets their timers; keys and settings stay', async () => {
    h.sb.admin!.updateSettings({ feeBps: 333 })
    const charge = (await h.create()).body
    await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 1000, pixKey: 'k' } })
    const secret = h.sb.webhookSecret
    const before = h.deliveries.events.length

    expect((await h.call('POST', '/_sandbox/reset', { body: {} })).status).toBe(200)
    expect((await h.call('GET', `/v1/charges/${charge.id}`)).status).toBe(404)
    expect((await h.call('GET', '/v1/charges')).body.data).toEqual([])
    expect((await h.call('GET', '/_sandbox/events?afterSeq=0')).body.data).toEqual([])

    // The expiry and the withdrawal's end were forgotten: moving the clock emits nothing.
    await h.clock.advance(3 * 3_600_000)
    expect(h.deliveries.events.length).toBe(before)

    expect((await h.call('GET', '/v1/account')).body.plan.feeBps).toBe(333)
    expect(h.sb.webhookSecret).toBe(secret)
    expect((await h.create()).status).toBe(201)
  })
})

describe('removing a webhook URL', () => {
  it("DELETE /_sandbox/webhook removes the environment's URL: later events are not delivered; a second delete is 404", async () => {
    expect((await h.call('PUT', '/_sandbox/webhook', { body: { url: 'http://127.0.0.1:9/x', env: 'live' } })).status).toBe(200)
    const removed = await h.call('DELETE', '/_sandbox/webhook?env=live')
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ environment: 'live', removed: true })
    expect((await h.call('GET', '/_sandbox/webhook?env=live')).status).toBe(404)
    const again = await h.call('DELETE', '/_sandbox/webhook?env=live')
    expect(again.status).toBe(404)
    expect(again.body.error.code).toBe('webhook_not_configured')
  })
})
