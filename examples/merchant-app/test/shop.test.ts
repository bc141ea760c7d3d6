/**
 * The shop's webhook handler against the real emulator of the service: every delivery signed,
 * retried and logged by the sandbox exactly as production would, on a clock the test controls.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type SandboxHandle, startSandbox } from 'svc-cli/sandbox'
import { Shop } from '../src/shop.ts'

const CPF = '529.982.247-25'
let sandbox: SandboxHandle
let shop: Shop

beforeAll(async () => {
  sandbox = await startSandbox({ clock: { manual: true } })
  shop = new Shop({ apiBaseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, webhookSecret: sandbox.webhookSecret })
  const url = await shop.listen()
  await sandbox.setWebhookUrl(`${url}/webhooks`)
})
afterAll(async () => {
  await shop.close()
  await sandbox.close()
})
beforeEach(() => sandbox.reset())

/** Every delivery of this charge's events answered (2xx) by the shop. */
async function delivered(type: string) {
  return sandbox.waitForDelivery((d) => d.type === type && d.state === 'succeeded')
}

describe('the shop releases an order only when its charge is settled', () => {
  it('paid, then settled: released once', async () => {
    const order = await shop.createOrder(4990, CPF)
    await sandbox.advance(order.chargeId, 'paid_pending_settlement')
    await delivered('charge.paid_pending_settlement')
    expect(order.status).toBe('awaiting_payment')

    await sandbox.advance(order.chargeId, 'settled')
    await delivered('charge.settled')
    expect(order).toMatchObject({ status: 'released', releases: 1 })
  })

  it('a duplicate delivery releases nothing more', async () => {
    const order = await shop.createOrder(1500, CPF)
    await sandbox.advance(order.chargeId, 'settled')
    const settled = await delivered('charge.settled')
    // The sandbox sends the same event again (same id, fresh signature), as a retry would.
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/deliveries/${settled.eventId}/resend`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.testKey}` } })
    expect(res.status).toBe(202)
    await sandbox.waitForDelivery((d) => d.eventId === settled.eventId && d.attempts === 2)
    expect(order.releases).toBe(1)
  })

  it('a forged signature is refused (400) and releases nothing', async () => {
    const order = await shop.createOrder(1500, CPF)
    const forged = JSON.stringify({ id: 'evt_forged', type: 'charge.settled', createdAt: new Date().toISOString(), environment: 'test', data: { charge: { id: order.chargeId, status: 'settled' } } })
    const status = await shop.handleWebhook(Buffer.from(forged), {
      'x-svc-event-id': 'evt_forged',
      'x-svc-event-type': 'charge.settled',
      'x-svc-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-svc-signature': `v1=${'0'.repeat(64)}`,
    })
    expect(status).toBe(400)
    expect(order).toMatchObject({ status: 'awaiting_payment', releases: 0 })
  })

  it('canceled, then paid anyway (the QR stays payable): released when it settles', async () => {
    const order = await shop.createOrder(2500, CPF)
    await shop.cancelOrder(order.id)
    await delivered('charge.canceled')
    expect(order.status).toBe('canceled')
    await sandbox.advance(order.chargeId, 'settled')
    await delivered('charge.settled')
    expect(order).toMatchObject({ status: 'released', releases: 1 })
  })

  it('a refund reverses the order', async () => {
    const order = await shop.createOrder(3000, CPF)
    await sandbox.advance(order.chargeId, 'settled')
    await delivered('charge.settled')
    await sandbox.advance(order.chargeId, 'refunded')
    await delivered('charge.refunded')
    expect(order).toMatchObject({ status: 'refunded', releases: 1 })
  })

  it('an expired QR never releases', async () => {
    const order = await shop.createOrder(1500, CPF)
    await sandbox.clock.advance('2h') // the QR is valid for an hour
    await delivered('charge.expired')
    expect(order).toMatchObject({ status: 'expired', releases: 0 })
  })

  it('an event type the shop does not know is acknowledged and ignored', async () => {
    await sandbox.trigger('withdrawal.paid')
    const d = await delivered('withdrawal.paid')
    expect(d.lastStatus).toBe(200)
  })
})
