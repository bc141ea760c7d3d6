/**
 * Per-charge order of first attempts: an event of a charge goes out only once the previous event
 * of the same charge got its answer (or failed), while other charges' events go out at once.
 */
import { openDatabase } from '../../../../src/lib/sandbox/store/db.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { type DeliveryResponse, type OutgoingDelivery, WebhookDeliveries } from '../../../../src/lib/sandbox/deliveries/worker.js'
import { startSandboxServer } from '../../../../src/lib/sandbox/sandbox.js'
import type { StoredEvent } from '../../../../src/lib/sandbox/types.js'
import { CPF, send } from '../../../helpers/conformance.js'
import { startTarget, type Target } from '../../../helpers/delivery-target.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
const SECRET = 'whsec_0123456789abcdef0123456789abcdef'

let target: Target
let clock: SandboxClock
let worker: WebhookDeliveries | undefined

function make(opts: ConstructorParameters<typeof WebhookDeliveries>[1] = {}): WebhookDeliveries {
  worker = new WebhookDeliveries({ db: openDatabase({ inMemory: true }), clock, log: () => {}, webhookSecret: SECRET }, opts)
  worker.setEndpoint('test', target.url)
  return worker
}

function event(id: string, chargeId: string | undefined, type = 'charge.paid_pending_settlement'): StoredEvent {
  return { id, type, environment: 'test', createdAt: new Date(T0).toISOString(), body: `{"id":"${id}","type":"${type}"}`, ...(chargeId ? { resourceKey: `charge:${chargeId}` } : {}) }
}

const gates: Array<() => void> = []

/** An answer held back until the test opens it (all are opened after each test, even a failed one). */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((r) => (open = r))
  gates.push(open)
  return { promise, open }
}

const ids = (t: Target) => t.received.map((r) => r.headers['x-svc-event-id'])

beforeEach(async () => {
  target = await startTarget()
  clock = new SandboxClock({ manual: true, start: T0 })
})

afterEach(async () => {
  for (const open of gates.splice(0)) open()
  await worker?.close()
  worker = undefined
  await target.close()
  clock.stop()
})

describe('first attempts of one charge', () => {
  it('wait for the previous event of the charge to be answered; another charge does not wait', async () => {
    const held = gate()
    target.answers = [{ status: 200, after: held.promise }, { status: 200 }]
    const w = make()
    w.publish(event('evt_a1', 'a'))
    w.publish(event('evt_a2', 'a'))
    w.publish(event('evt_b1', 'b'))
    await target.arrived(2)
    // a1 is held by the receiver: b1 went out anyway, a2 has not.
    expect(new Set(ids(target))).toEqual(new Set(['evt_a1', 'evt_b1']))
    expect(w.list({ eventId: 'evt_a2' })[0]).toMatchObject({ state: 'pending', attempts: 0 })
    held.open()
    await w.flush()
    expect(ids(target)).toHaveLength(3)
    const a2 = target.received.find((r) => r.headers['x-svc-event-id'] === 'evt_a2')!
    const a1Index = ids(target).indexOf('evt_a1')
    expect(ids(target).indexOf('evt_a2')).toBeGreaterThan(a1Index)
    expect(a2.answeredBefore).toBe(2) // a1 (and b1) had their answers before a2 arrived
    expect(w.list().map((d) => d.state)).toEqual(['succeeded', 'succeeded', 'succeeded'])
  })

  it('a failed first attempt releases the next event (retries are not waited for)', async () => {
    const held = gate()
    target.answers = [{ status: 500, after: held.promise }, { status: 200 }]
    const w = make()
    w.publish(event('evt_a1', 'a'))
    w.publish(event('evt_a2', 'a'))
    await target.arrived(1)
    held.open()
    await w.flush()
    expect(ids(target)).toEqual(['evt_a1', 'evt_a2'])
    expect(w.list({ eventId: 'evt_a1' })[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 })
    expect(w.list({ eventId: 'evt_a2' })[0]).toMatchObject({ state: 'succeeded', attempts: 1 })
  })

  it('3000 events of 1000 charges: every charge starts at once, and each charge is delivered in order', async () => {
    const started: string[] = []
    const held = gate()
    let holding = true
    const sendStub = async (d: OutgoingDelivery): Promise<DeliveryResponse> => {
      started.push(d.headers['x-svc-event-id']!)
      if (holding) await held.promise
      return { status: 200, body: '' }
    }
    const w = make({ send: sendStub })
    for (let step = 0; step < 3; step++) for (let c = 0; c < 1000; c++) w.publish(event(`evt_${c}_${step}`, `ch_${c}`))
    // Synchronously after publishing: the first event of each of the 1000 charges is on its way.
    expect(started).toHaveLength(1000)
    expect(started.every((id) => id.endsWith('_0'))).toBe(true)
    holding = false
    held.open()
    await w.flush()
    expect(started).toHaveLength(3000)
    for (let c = 0; c < 1000; c += 97) {
      const mine = started.filter((id) => id.startsWith(`evt_${c}_`))
      expect(mine).toEqual([`evt_${c}_0`, `evt_${c}_1`, `evt_${c}_2`])
    }
  })

  it('an event still queued when the sandbox stops goes out, in order, after the restart', async () => {
    const db = openDatabase({ inMemory: true })
    const held = gate()
    target.answers = [{ status: 200, after: held.promise }, { status: 200 }]
    const first = new WebhookDeliveries({ db, clock, log: () => {}, webhookSecret: SECRET })
    first.setEndpoint('test', target.url)
    first.publish(event('evt_a1', 'a'))
    first.publish(event('evt_a2', 'a'))
    await target.arrived(1)
    const closing = first.close()
    held.open()
    await closing
    expect(ids(target)).toEqual(['evt_a1'])
    const second = (worker = new WebhookDeliveries({ db, clock, log: () => {}, webhookSecret: SECRET }))
    second.restore()
    await second.flush()
    expect(ids(target)).toEqual(['evt_a1', 'evt_a2'])
  })

  it('events with no charge (charge.test) are not ordered', async () => {
    const started: string[] = []
    const held = gate()
    const w = make({ send: async (d) => (started.push(d.headers['x-svc-event-id']!), await held.promise, { status: 200, body: '' }) })
    w.publish(event('evt_t1', undefined, 'charge.test'))
    w.publish(event('evt_t2', undefined, 'charge.test'))
    expect(started).toEqual(['evt_t1', 'evt_t2'])
    held.open()
  })
})

it('an advance to settled from awaiting_payment: paid_pending_settlement is answered before settled goes out', async () => {
  const started: string[] = []
  const held = gate()
  let hold = false
  const stub = async (d: OutgoingDelivery): Promise<DeliveryResponse> => {
    started.push(d.headers['x-svc-event-type']!)
    if (hold) {
      hold = false
      await held.promise
    }
    return { status: 200, body: '' }
  }
  const sb = await startSandboxServer({ port: 0, inMemory: true, clock, deliveries: (ctx) => (worker = new WebhookDeliveries(ctx, { send: stub })) })
  try {
    const auth = { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' }
    expect((await send(`${sb.baseUrl}/_sandbox/webhook`, 'PUT', auth, JSON.stringify({ url: target.url }))).status).toBe(200)
    const created = await send(`${sb.baseUrl}/v1/charges`, 'POST', auth, JSON.stringify({ amountInCents: 1500, payerTaxNumber: CPF }))
    expect(created.status).toBe(201)
    await worker!.flush()
    started.length = 0
    hold = true // the receiver is slow to answer the first event of the advance
    const advanced = await send(`${sb.baseUrl}/v1/test/charges/${created.body.id}/advance`, 'POST', auth, JSON.stringify({ status: 'settled' }))
    expect(advanced.status).toBe(200)
    expect(started).toEqual(['charge.paid_pending_settlement'])
    held.open()
    await worker!.flush()
    expect(started).toEqual(['charge.paid_pending_settlement', 'charge.settled'])
  } finally {
    held.open()
    await sb.close()
    worker = undefined
  }
})
