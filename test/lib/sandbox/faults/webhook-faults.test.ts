/**
 * Webhook faults over real HTTP (`startSandbox({ webhookFaults, seed })`): a merchant that
 * deduplicates by event id and confirms with GET ends with the right state for every charge
 * whatever is injected, a naive one is caught, the same seed replays the same faults, and
 * fail-first makes the spec's retry schedule run — on a manual sandbox clock, never sleeping.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type SandboxHandle, startSandbox, type StartSandboxOptions } from '../../../../src/public/sandbox.js'
import { createCharge, type Merchant, startMerchant } from './merchant.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
const open: Array<{ close(): Promise<void> }> = []

afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close()
})

async function sandboxWith(opts: StartSandboxOptions, careful = true): Promise<{ sandbox: SandboxHandle; merchant: Merchant }> {
  const sandbox = await startSandbox({ clock: { manual: true, start: T0 }, ...opts })
  open.push(sandbox)
  const merchant = await startMerchant({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, secret: sandbox.webhookSecret, careful })
  open.push(merchant)
  await sandbox.setWebhookUrl(merchant.url)
  return { sandbox, merchant }
}

/** Lets the deliveries in flight finish (the panel's clock advance waits for them), 1 ms of sandbox time. */
const settle = (s: SandboxHandle) => s.clock.advance(1)

/** Orders paid and settled: three events per charge (awaiting_payment, paid_pending_settlement, settled). */
async function settledOrders(sandbox: SandboxHandle, n: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const id = await createCharge(sandbox.baseUrl, sandbox.testKey, `order-${i}`)
    await sandbox.advance(id, 'settled')
    ids.push(id)
  }
  await settle(sandbox)
  return ids
}

/** The injected marks of every delivery, oldest first: [type, marks]. */
async function faultTrail(sandbox: SandboxHandle): Promise<string[]> {
  const list = await sandbox.deliveries()
  return list.reverse().map((d) => `${d.type}:${(d.injected ?? []).join('+')}`)
}

describe('--webhook-faults duplicate', () => {
  it('delivers every event twice, signed afresh; the deduplicating merchant releases each order once, the naive one twice', async () => {
    const careful = await sandboxWith({ webhookFaults: { duplicate: 1 }, seed: 7 })
    const ids = await settledOrders(careful.sandbox, 3)
    expect(careful.merchant.arrivals).toHaveLength(18)
    for (const id of ids) expect(careful.merchant.released.get(id)).toBe(1)
    expect([...careful.merchant.confirmed.values()]).toEqual(['settled', 'settled', 'settled'])
    // The second copy carries the same event id, with its own signature over its own send.
    const copies = new Map<string, number>()
    for (const a of careful.merchant.arrivals) copies.set(a.id, (copies.get(a.id) ?? 0) + 1)
    expect([...copies.values()]).toEqual(Array(9).fill(2))
    const [delivery] = await careful.sandbox.deliveries({ type: 'charge.settled' })
    const [detail] = await careful.sandbox.deliveries({ eventId: delivery!.eventId })
    expect(detail!.injected).toEqual(['duplicate'])
    expect(detail!.attemptLog!.map((a) => [a.status, a.injected])).toEqual([
      [200, undefined],
      [200, ['duplicate']],
    ])

    const naive = await sandboxWith({ webhookFaults: { duplicate: 1 }, seed: 7 }, false)
    const naiveIds = await settledOrders(naive.sandbox, 3)
    // Caught: every order released twice.
    expect(naiveIds.map((id) => naive.merchant.released.get(id))).toEqual([2, 2, 2])
  })
})

describe('--webhook-faults lose', () => {
  it('never sends a lost event, marks it lost in the log, and the merchant that confirms with GET still converges', async () => {
    const { sandbox, merchant } = await sandboxWith({ webhookFaults: { lose: 0.5 }, seed: 1234 })
    const ids = await settledOrders(sandbox, 6)
    const deliveries = await sandbox.deliveries()
    const lost = deliveries.filter((d) => d.injected?.includes('lose'))
    expect(lost.length).toBeGreaterThan(0)
    expect(lost.length).toBeLessThan(deliveries.length)
    expect(merchant.arrivals).toHaveLength(deliveries.length - lost.length)
    for (const d of lost) expect(merchant.arrivals.some((a) => a.id === d.eventId)).toBe(false)
    // Issue 29 item 20: a lost delivery has a state of its own, so `state === 'succeeded'` never means "never sent".
    for (const d of lost) expect(d.state).toBe('lost')
    expect(deliveries.filter((d) => d.state === 'succeeded').every((d) => !d.injected?.includes('lose'))).toBe(true)
    const [detail] = await sandbox.deliveries({ eventId: lost[0]!.eventId })
    expect(detail!.attemptLog).toHaveLength(1)
    expect(detail!.attemptLog![0]).toMatchObject({ injected: ['lose'], response: '(not sent: lost by --webhook-faults)' })
    expect(detail!.attemptLog![0]!.status).toBeUndefined()
    // Spec 6.4 item 10: the reconciliation GETs what the webhooks left open; every order ends right.
    await merchant.reconcile(ids.filter((id) => merchant.confirmed.get(id) !== 'settled'))
    for (const id of ids) {
      expect(merchant.confirmed.get(id)).toBe('settled')
      expect(merchant.released.get(id)).toBe(1)
    }
  })
})

describe('the fault sequence', () => {
  it('is the same for the same seed and the same events, and another seed gives another', async () => {
    const faults = { duplicate: 0.3, lose: 0.3, failFirst: 0.3 }
    const trails: string[][] = []
    for (const seed of [99, 99, 100]) {
      const { sandbox } = await sandboxWith({ webhookFaults: faults, seed })
      await settledOrders(sandbox, 5)
      expect(sandbox.webhookFaultsSeed).toBe(seed)
      trails.push(await faultTrail(sandbox))
      for (const o of open.splice(0).reverse()) await o.close()
    }
    expect(trails[0]).toHaveLength(15)
    expect(trails[0]!.some((t) => !t.endsWith(':'))).toBe(true)
    expect(trails[1]).toEqual(trails[0])
    expect(trails[2]).not.toEqual(trails[0])
  })
})

describe('--webhook-faults fail-first', () => {
  it('fails the first attempt as a network error, and the retry 10 s later on the sandbox clock delivers it', async () => {
    const { sandbox, merchant } = await sandboxWith({ webhookFaults: { failFirst: 1 }, seed: 3 })
    const id = await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-ff')
    await settle(sandbox)
    const [pending] = await sandbox.deliveries()
    expect(pending).toMatchObject({ state: 'pending', attempts: 1, lastError: 'ECONNRESET', injected: ['fail-first'] })
    expect(Date.parse(pending!.nextRetryAt!) - T0).toBe(10_000)
    expect(merchant.arrivals).toHaveLength(0)

    await sandbox.clock.advance('10s')
    const [done] = await sandbox.deliveries({ eventId: pending!.eventId })
    expect(done!.state).toBe('succeeded')
    expect(done!.attemptLog!.map((a) => [a.error ?? a.status, a.injected?.join()])).toEqual([
      ['ECONNRESET', 'fail-first'],
      [200, undefined],
    ])
    expect(merchant.arrivals.map((a) => a.type)).toEqual(['charge.awaiting_payment'])
    expect(merchant.confirmed.get(id)).toBe('awaiting_payment')
  })
})

describe('--webhook-faults reorder and delay', () => {
  it('reorder holds an event back until the next one of its resource went out (a last one at most 60 s)', async () => {
    const { sandbox, merchant } = await sandboxWith({ webhookFaults: { reorder: 1 }, seed: 5 })
    const id = await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-r')
    await sandbox.advance(id, 'settled')
    await settle(sandbox)
    expect(merchant.arrivals.map((a) => a.type)).toEqual(['charge.paid_pending_settlement', 'charge.awaiting_payment'])
    // Issue 29 item 19: the event held back shows in the log as held, not nowhere.
    const [held] = await sandbox.deliveries({ type: 'charge.settled' })
    expect(held).toMatchObject({ state: 'held', attempts: 0, injected: ['reorder'] })
    const [heldDetail] = await sandbox.deliveries({ eventId: held!.eventId })
    expect(heldDetail).toMatchObject({ state: 'held', attemptLog: [] })
    await sandbox.clock.advance('60s')
    expect(merchant.arrivals.map((a) => a.type)).toEqual(['charge.paid_pending_settlement', 'charge.awaiting_payment', 'charge.settled'])
    expect(await faultTrail(sandbox)).toEqual(['charge.paid_pending_settlement:', 'charge.awaiting_payment:reorder', 'charge.settled:reorder'])
    expect(merchant.confirmed.get(id)).toBe('settled')
    const settled = await sandbox.deliveries({ type: 'charge.settled' })
    expect(settled.map((d) => d.state)).toEqual(['succeeded'])
  })

  it('delay postpones every first attempt by the duration on the sandbox clock', async () => {
    const { sandbox, merchant } = await sandboxWith({ webhookFaults: { delay: '2s' }, seed: 5 })
    await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-d')
    await sandbox.clock.advance('1999ms')
    expect(merchant.arrivals).toHaveLength(0)
    expect((await sandbox.deliveries()).map((d) => [d.state, d.injected])).toEqual([['held', ['delay']]])
    await sandbox.clock.advance(1)
    expect(merchant.arrivals.map((a) => a.type)).toEqual(['charge.awaiting_payment'])
    const [d] = await sandbox.deliveries()
    expect(d!.injected).toEqual(['delay'])
  })
})

describe('faults and the live environment (issue 29 item 12)', () => {
  it('leave live alone: every live event delivered once, unmarked, while test events are lost or failed', async () => {
    const lines: string[] = []
    const { sandbox, merchant } = await sandboxWith({ webhookFaults: { lose: 1, failFirst: 1, duplicate: 1, reorder: 1, delay: '2s' }, seed: 11, log: (l) => lines.push(l) })
    await sandbox.setWebhookUrl(merchant.url, 'live')
    const live = await createCharge(sandbox.baseUrl, sandbox.liveKey, 'order-live')
    await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-test')
    await settle(sandbox)
    expect(merchant.arrivals.map((a) => a.type)).toEqual(['charge.awaiting_payment'])
    const [liveDelivery] = await sandbox.deliveries({ env: 'live' })
    expect(liveDelivery).toMatchObject({ state: 'succeeded', attempts: 1 })
    expect(liveDelivery!.injected).toBeUndefined()
    expect(JSON.parse(liveDelivery!.body).data.charge.id).toBe(live)
    await sandbox.clock.advance('2s')
    expect((await sandbox.deliveries({ env: 'test' })).map((d) => d.state)).toEqual(['lost'])
    expect(merchant.arrivals).toHaveLength(1)
    expect(lines.filter((l) => l.includes('webhook fault')).every((l) => !l.includes(liveDelivery!.eventId))).toBe(true)
  })
})

describe('the sandbox log names each injected fault (issue 29 item 19)', () => {
  it('fail-first, lose, duplicate and reorder each get a line naming the fault and the event', async () => {
    const lines: string[] = []
    const log = (l: string) => lines.push(l)
    const ff = await sandboxWith({ webhookFaults: { failFirst: 1 }, seed: 3, log })
    await createCharge(ff.sandbox.baseUrl, ff.sandbox.testKey, 'order-log-ff')
    await settle(ff.sandbox)
    const [d] = await ff.sandbox.deliveries()
    expect(lines).toContainEqual(expect.stringContaining(`webhook fault (injected, --webhook-faults fail-first): ${d!.eventId} charge.awaiting_payment`))
    for (const [faults, name] of [
      [{ lose: 1 }, 'lose'],
      [{ duplicate: 1 }, 'duplicate'],
      [{ reorder: 1 }, 'reorder'],
    ] as const) {
      lines.length = 0
      const { sandbox } = await sandboxWith({ webhookFaults: faults, seed: 3, log })
      const id = await createCharge(sandbox.baseUrl, sandbox.testKey, `order-log-${name}`)
      await sandbox.advance(id, 'paid_pending_settlement')
      await settle(sandbox)
      expect(
        lines.some((l) => l.startsWith(`webhook fault (injected, --webhook-faults ${name}): evt_`)),
        name,
      ).toBe(true)
    }
  })
})

describe('without faults', () => {
  it('installs no layer: each event once, in order, nothing marked (zero shares too)', async () => {
    for (const opts of [{}, { webhookFaults: { duplicate: 0, lose: 0 } }] satisfies StartSandboxOptions[]) {
      const { sandbox, merchant } = await sandboxWith(opts)
      expect(sandbox.webhookFaultsSeed).toBeUndefined()
      const ids = await settledOrders(sandbox, 2)
      expect(merchant.arrivals.map((a) => a.type)).toEqual(['awaiting_payment', 'paid_pending_settlement', 'settled', 'awaiting_payment', 'paid_pending_settlement', 'settled'].map((t) => `charge.${t}`))
      expect((await sandbox.deliveries()).every((d) => d.injected === undefined && d.attempts === 1 && d.state === 'succeeded')).toBe(true)
      for (const id of ids) expect(merchant.released.get(id)).toBe(1)
      for (const o of open.splice(0).reverse()) await o.close()
    }
  })
})
