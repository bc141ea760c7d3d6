import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { openDatabase } from '../../../../src/lib/sandbox/store/db.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { type DeliverySender, WebhookDeliveries, type WebhookDeliveriesOptions } from '../../../../src/lib/sandbox/deliveries/worker.js'
import type { StoredEvent } from '../../../../src/lib/sandbox/types.js'
import { verifySignature } from '../../../../src/lib/webhooks/signature.js'
import { startTarget, type Target } from '../../../helpers/delivery-target.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
/** The wall clock, deliberately far from the sandbox clock: X-SVC-Timestamp follows it. */
let wall = Date.UTC(2026, 0, 5, 9, 30, 0)
const SECRET = 'whsec_0123456789abcdef0123456789abcdef'
const H = 3_600_000

let target: Target
let clock: SandboxClock
let db: DatabaseSync
let logs: string[]
let worker: WebhookDeliveries

function make(opts: WebhookDeliveriesOptions = {}, database = db, c = clock): WebhookDeliveries {
  return new WebhookDeliveries({ db: database, clock: c, log: (l) => logs.push(l), webhookSecret: SECRET }, { wallNow: () => wall, ...opts })
}

let n = 0
function event(over: Partial<StoredEvent> = {}): StoredEvent {
  n++
  const id = over.id ?? `evt_${String(n).padStart(4, '0')}`
  // Unicode and odd spacing: the bytes must arrive exactly as stored, never re-serialised.
  const body = `{"id":"${id}", "type":"charge.paid_pending_settlement","data":{"charge":{"payerName":"João Müller 🚀"}}}`
  return { id, type: 'charge.paid_pending_settlement', environment: 'test', createdAt: new Date(T0).toISOString(), body, ...over }
}

async function advance(ms: number): Promise<void> {
  await worker.flush()
  await clock.advance(ms)
  await worker.flush()
}

/** When each attempt was made, in sandbox seconds since T0 (from the attempt log). */
function attemptSeconds(eventId?: string): number[] {
  const [d] = worker.list({ eventId: eventId ?? worker.list()[0]!.eventId })
  return d!.attemptLog!.map((a) => (Date.parse(a.at) - T0) / 1000)
}

beforeEach(async () => {
  target = await startTarget()
  clock = new SandboxClock({ manual: true, start: T0 })
  db = openDatabase({ inMemory: true })
  logs = []
  worker = make()
  worker.setEndpoint('test', target.url)
})

afterEach(async () => {
  await worker.close()
  await target.close()
  clock.stop()
})

describe('a delivery', () => {
  it('POSTs the exact body with the five headers and a signature that verifies', async () => {
    const ev = event()
    worker.publish(ev)
    await worker.flush()
    expect(target.received).toHaveLength(1)
    const [got] = target.received
    expect(got!.path).toBe('/hooks')
    expect(got!.body.equals(Buffer.from(ev.body, 'utf8'))).toBe(true)
    expect(got!.headers['content-type']).toBe('application/json')
    expect(got!.headers['x-svc-event-id']).toBe(ev.id)
    expect(got!.headers['x-svc-event-type']).toBe('charge.paid_pending_settlement')
    // Wall-clock seconds, not the sandbox clock's: receivers compare it with their own clock.
    expect(got!.headers['x-svc-timestamp']).toBe(String(wall / 1000))
    expect(got!.headers['x-svc-signature']).toMatch(/^v1=[0-9a-f]{64}$/)
    const verdict = verifySignature({
      body: got!.body,
      signature: got!.headers['x-svc-signature'],
      timestamp: got!.headers['x-svc-timestamp'],
      secrets: [SECRET],
      nowSeconds: wall / 1000,
    })
    expect(verdict.ok).toBe(true)
  })

  it('stops at the first 2xx: succeeded, one attempt, nothing left on the clock', async () => {
    target.answers = [{ status: 204 }]
    worker.publish(event())
    await worker.flush()
    const [d] = worker.list()
    expect(d).toMatchObject({ state: 'succeeded', attempts: 1, lastStatus: 204 })
    expect(d!.nextRetryAt).toBeUndefined()
    expect(clock.pendingTimers()).toBe(0)
    await advance(30 * H)
    expect(target.received).toHaveLength(1)
    expect(worker.getEndpoint('test')).toMatchObject({ active: true, lastSuccessAt: new Date(T0).toISOString() })
  })

  it('delivers a burst of events concurrently, each exactly once', async () => {
    for (let i = 0; i < 300; i++) worker.publish(event({ id: `evt_burst_${i}` }))
    await worker.flush()
    expect(target.received).toHaveLength(300)
    expect(new Set(target.received.map((r) => r.headers['x-svc-event-id'])).size).toBe(300)
    const log = worker.list({ limit: 1000 })
    expect(log).toHaveLength(300)
    expect(log.every((d) => d.state === 'succeeded' && d.attempts === 1)).toBe(true)
  })

  it('does nothing when the environment has no webhook URL', async () => {
    worker.publish(event({ environment: 'live' }))
    await worker.flush()
    expect(target.received).toHaveLength(0)
    expect(worker.list()).toHaveLength(0)
  })
})

describe('retries', () => {
  it('retry exactly at 10s, 30s, 2min, 10min, 30min, 1h, 3h, 6h, 12h after each failure, then fail and deactivate', async () => {
    target.answers = [{ status: 500, body: 'boom' }]
    worker.publish(event())
    await worker.flush()
    expect(worker.list()[0]).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, lastResponse: 'boom', nextRetryAt: new Date(T0 + 10_000).toISOString() })

    await advance(9_999)
    expect(target.received).toHaveLength(1)
    await advance(1)
    expect(target.received).toHaveLength(2)
    expect(worker.list()[0]!.nextRetryAt).toBe(new Date(T0 + 40_000).toISOString())

    // One big jump runs the whole remaining schedule, in order, on the sandbox clock.
    await advance(25 * H)
    expect(target.received).toHaveLength(10)
    expect(attemptSeconds()).toEqual([0, 10, 40, 160, 760, 2560, 6160, 16960, 38560, 81760])
    const [d] = worker.list()
    expect(d).toMatchObject({ state: 'failed', attempts: 10, lastStatus: 500 })
    expect(d!.nextRetryAt).toBeUndefined()
    expect(worker.getEndpoint('test')).toMatchObject({ active: false, deactivatedAt: new Date(T0 + 24 * H).toISOString() })
    expect(logs.some((l) => /e-mail/.test(l) && l.includes(target.url) && /deactivated/.test(l))).toBe(true)
  })

  it('an advance across a deactivation: every retry due before it runs, in order; nothing published after it is sent (issue 36.5)', async () => {
    target.answers = [{ status: 500 }]
    // A: failing since T0; its 24 h window closes at T0 + 24 h and deactivates the endpoint.
    worker.publish(event({ id: 'evt_a' }))
    await advance(19 * H)
    // B (a refund) at T0 + 19 h; then two settlements fall due after the deactivation, as the engine's timers would publish them.
    worker.publish(event({ id: 'evt_b', type: 'charge.refunded' }))
    await worker.flush()
    for (const [id, at] of [
      ['evt_c', 24 * H + 10 * 60_000],
      ['evt_d', 24 * H + 20 * 60_000],
    ] as const) {
      clock.schedule(T0 + at, () => worker.publish(event({ id, type: 'charge.settled' })))
    }
    await advance(5 * H + 35 * 60_000)
    const sinceB = attemptSeconds('evt_b').map((s) => s - 19 * 3600)
    expect(sinceB).toEqual([0, 10, 40, 160, 760, 2560, 6160, 16960])
    expect(attemptSeconds('evt_a')).toEqual([0, 10, 40, 160, 760, 2560, 6160, 16960, 38560, 81760])
    expect(worker.getEndpoint('test')).toMatchObject({ active: false, deactivatedAt: new Date(T0 + 24 * H).toISOString() })
    const sent = target.received.map((r) => r.headers['x-svc-event-id'])
    expect(sent).not.toContain('evt_c')
    expect(sent).not.toContain('evt_d')
    expect(worker.list({ eventId: 'evt_c' })[0]).toMatchObject({ state: 'skipped', attempts: 0 })
    expect(worker.list({ eventId: 'evt_d' })[0]).toMatchObject({ state: 'skipped', attempts: 0 })
    // Sent in sandbox-time order: A's last retry (22.7 h) after B's retries of 19 h to 23.7 h that precede it.
    const byInstant = [...attemptSeconds('evt_a').map((t) => [t, 'evt_a'] as const), ...attemptSeconds('evt_b').map((t) => [t, 'evt_b'] as const)].sort((x, y) => x[0] - y[0])
    expect(sent).toEqual(byInstant.map(([, id]) => id))
  })

  it('counts a 3xx as a failure and does not follow the redirect', async () => {
    target.answers = [{ status: 302, headers: { location: '/elsewhere' } }, { status: 200 }]
    worker.publish(event())
    await worker.flush()
    expect(target.received.map((r) => r.path)).toEqual(['/hooks'])
    expect(worker.list()[0]).toMatchObject({ state: 'pending', lastStatus: 302, nextRetryAt: new Date(T0 + 10_000).toISOString() })
    expect(worker.list()[0]!.lastError).toMatch(/redirect/)
    await advance(10_000)
    expect(target.received.map((r) => r.path)).toEqual(['/hooks', '/hooks'])
    expect(worker.list()[0]).toMatchObject({ state: 'succeeded', attempts: 2, lastStatus: 200 })
  })

  it('treats a timeout as a failure and retries after 10s (injected sender)', async () => {
    await worker.close()
    let calls = 0
    const send: DeliverySender = async () => {
      if (++calls === 1) throw Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })
      return { status: 200, body: '' }
    }
    worker = make({ send })
    worker.publish(event())
    await worker.flush()
    expect(worker.list()[0]).toMatchObject({ state: 'pending', nextRetryAt: new Date(T0 + 10_000).toISOString() })
    expect(worker.list()[0]!.lastError).toMatch(/timeout/)
    await advance(10_000)
    expect(attemptSeconds()).toEqual([0, 10])
    expect(worker.list()[0]!.state).toBe('succeeded')
  })

  it('gives up on a stalled endpoint after the timeout (real HTTP, short injected timeout)', async () => {
    await worker.close()
    worker = make({ timeoutMs: 150 })
    target.answers = ['stall']
    worker.publish(event())
    await worker.flush()
    expect(worker.list()[0]).toMatchObject({ state: 'pending', attempts: 1, nextRetryAt: new Date(T0 + 10_000).toISOString() })
    expect(worker.list()[0]!.lastError).toMatch(/timeout/)
  })

  it('keeps the start of a large answer for the log and counts the 2xx (real HTTP)', async () => {
    target.answers = [{ status: 200, body: 'é'.repeat(512 * 1024) }]
    worker.publish(event())
    await worker.flush()
    const [d] = worker.list()
    expect(d).toMatchObject({ state: 'succeeded', attempts: 1, lastStatus: 200 })
    expect(d!.lastResponse).toBe('é'.repeat(1024))
  })

  it('names a refused connection as the reason of a failed attempt (real HTTP)', async () => {
    const url = target.url
    await target.close()
    worker.setEndpoint('test', url)
    worker.publish(event())
    await worker.flush()
    expect(worker.list()[0]).toMatchObject({ state: 'pending', attempts: 1, lastError: 'ECONNREFUSED' })
    target = await startTarget()
  })

  it('does not deactivate an endpoint that had a success within the 24 h window', async () => {
    target.answers = [{ status: 500 }]
    worker.publish(event())
    await worker.flush()
    await advance(H)
    target.answers = [{ status: 200 }, { status: 500 }]
    worker.publish(event())
    await advance(25 * H)
    expect(
      worker
        .list()
        .map((d) => d.state)
        .sort(),
    ).toEqual(['failed', 'succeeded'])
    expect(worker.getEndpoint('test')!.active).toBe(true)
  })
})

describe('deactivation and reactivation', () => {
  it('skips new events for a deactivated endpoint until its URL is saved again', async () => {
    target.answers = [{ status: 500 }]
    worker.publish(event())
    await advance(25 * H)
    expect(worker.getEndpoint('test')!.active).toBe(false)
    const sentBefore = target.received.length

    worker.publish(event({ id: 'evt_skipped' }))
    await worker.flush()
    expect(target.received).toHaveLength(sentBefore)
    expect(worker.list({ eventId: 'evt_skipped' })[0]).toMatchObject({ state: 'skipped', attempts: 0 })

    target.answers = [{ status: 200 }]
    expect(worker.setEndpoint('test', target.url)).toMatchObject({ active: true })
    expect(worker.getEndpoint('test')!.deactivatedAt).toBeUndefined()
    worker.publish(event({ id: 'evt_after' }))
    await worker.flush()
    expect(target.received.at(-1)!.headers['x-svc-event-id']).toBe('evt_after')
    expect(worker.list({ eventId: 'evt_after' })[0]!.state).toBe('succeeded')
  })
})

describe('resend', () => {
  it('sends the same event id and body again with a fresh timestamp and signature, as one more attempt', async () => {
    const ev = event()
    worker.publish(ev)
    await advance(60_000)
    wall += 60_000
    expect(worker.resend(ev.id)).toEqual({ eventId: ev.id })
    await worker.flush()
    expect(target.received).toHaveLength(2)
    const [first, again] = target.received
    expect(again!.headers['x-svc-event-id']).toBe(ev.id)
    expect(again!.body.equals(first!.body)).toBe(true)
    expect(Number(again!.headers['x-svc-timestamp']) - Number(first!.headers['x-svc-timestamp'])).toBe(60)
    expect(again!.headers['x-svc-signature']).not.toBe(first!.headers['x-svc-signature'])
    const ok = verifySignature({ body: again!.body, signature: again!.headers['x-svc-signature'], timestamp: again!.headers['x-svc-timestamp'], secrets: [SECRET], nowSeconds: wall / 1000 })
    expect(ok.ok).toBe(true)
    const [d] = worker.list({ eventId: ev.id })
    expect(d).toMatchObject({ attempts: 2, state: 'succeeded' })
    expect(d!.attemptLog!.map((a) => [a.attempt, a.manual, a.status])).toEqual([
      [1, false, 200],
      [2, true, 200],
    ])
  })

  it('a successful resend of a pending delivery ends its retries', async () => {
    target.answers = [{ status: 500 }, { status: 200 }]
    const ev = event()
    worker.publish(ev)
    await worker.flush()
    worker.resend(ev.id)
    await worker.flush()
    await advance(H)
    expect(target.received).toHaveLength(2)
    expect(worker.list()[0]).toMatchObject({ state: 'succeeded', attempts: 2 })
  })

  it('is undefined for an unknown event id', () => {
    expect(worker.resend('evt_nope')).toBeUndefined()
  })
})

describe('restore after a restart', () => {
  it('re-schedules pending retries from the database', async () => {
    await worker.close()
    const dir = mkdtempSync(join(tmpdir(), 'svc-deliveries-'))
    const db1 = openDatabase({ dataDir: dir })
    worker = make({}, db1)
    worker.setEndpoint('test', target.url)
    target.answers = [{ status: 503 }]
    worker.publish(event({ id: 'evt_restart' }))
    await advance(10_000) // attempts at 0 s and 10 s; the next is due at 40 s
    await worker.close()
    db1.close()
    clock.stop()

    target.answers = [{ status: 200 }]
    clock = new SandboxClock({ manual: true, start: T0 + 15_000 })
    const db2 = openDatabase({ dataDir: dir })
    worker = make({}, db2)
    expect(worker.getEndpoint('test')).toMatchObject({ url: target.url, active: true })
    worker.restore()
    await advance(24_999)
    expect(target.received).toHaveLength(2)
    await advance(1)
    expect(attemptSeconds('evt_restart')).toEqual([0, 10, 40])
    expect(worker.list()[0]).toMatchObject({ eventId: 'evt_restart', state: 'succeeded', attempts: 3 })
    await worker.close()
    db2.close()
  })
})
