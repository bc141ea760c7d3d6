/**
 * Refused deliveries cannot fill the listener's disk (issue 25 item 2). Anyone who can reach the
 * listener can POST 1 MiB bodies with a forged signature: each is answered 400 and, before, was
 * stored whole (1000 of them: a 1 GB events.db in 11 s, then every valid delivery got 500 for want
 * of space). Now a refused body keeps its first 4 KiB, marked truncated, and the log keeps within
 * a byte budget, dropping the oldest rows, those whose forward failed last.
 */
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventStore, type NewLoggedDelivery, REFUSED_BODY_KEEP } from '../../src/lib/webhooks/event-store.js'
import { newDelivery } from '../helpers/event-log.js'
import { deliveryJson } from '../../src/lib/webhooks/events-view.js'
import type { Forwarder } from '../../src/lib/webhooks/forward.js'
import { WebhookListener } from '../../src/lib/webhooks/listener.js'
import { signatureHeader } from '../../src/lib/webhooks/signature.js'
import { chargeEvent, forwarding, SECRET, startApp, type TargetApp } from '../helpers/webhooks.js'

const MiB = 1024 * 1024

describe('forged 1 MiB deliveries', () => {
  let app: TargetApp
  let store: EventStore
  let listener: WebhookListener
  let forwarder: Forwarder
  let url: string
  const dir = mkdtempSync(join(tmpdir(), 'svc-events-disk-'))
  const path = join(dir, 'events.db')

  beforeAll(async () => {
    app = await startApp()
    store = await EventStore.open({ path })
    const f = forwarding(`127.0.0.1:${app.port}/webhooks`)
    forwarder = f.forwarder
    listener = new WebhookListener({ ...f, secrets: [SECRET], store, port: 0 })
    url = await listener.start()
  })
  afterAll(async () => {
    await listener?.close()
    await forwarder?.close()
    store?.close()
    await app?.close()
  })

  it('are each answered 400 and leave a few KiB each in events.db, and a valid delivery still goes through', async () => {
    const big = Buffer.alloc(MiB - 1024, 'x')
    const ts = Math.floor(Date.now() / 1000)
    const forged = 64
    for (let i = 0; i < forged; i++) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-event-id': `evt_forged_${i}`, 'x-svc-timestamp': String(ts), 'x-svc-signature': `v1=${'0'.repeat(64)}` },
        body: big,
      })
      expect(r.status).toBe(400)
      await r.arrayBuffer()
    }
    store.flush()
    // 64 MiB were posted; what is on disk is the 4 KiB heads and the rows' overhead.
    const onDisk = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0)
    expect(onDisk).toBeLessThan(2 * MiB)
    const rows = store.list({ limit: forged })
    expect(rows).toHaveLength(forged)
    for (const row of rows) {
      expect(row.outcome).toBe('rejected')
      expect(row.body.length).toBe(REFUSED_BODY_KEEP)
      expect(row.bodySize).toBe(big.length)
    }
    expect(deliveryJson(rows[0]!)).toMatchObject({ bodyTruncated: true, bodySize: big.length })

    const body = chargeEvent('evt_genuine', 'charge.settled')
    const r = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-svc-event-id': 'evt_genuine',
        'x-svc-event-type': 'charge.settled',
        'x-svc-timestamp': String(ts),
        'x-svc-signature': signatureHeader(SECRET, ts, Buffer.from(body)),
      },
      body,
    })
    expect(r.status).toBe(200)
    const genuine = store.list({ eventId: 'evt_genuine' })[0]!
    expect(Buffer.from(genuine.body).toString()).toBe(body)
    expect(genuine.bodySize).toBeUndefined()
  })
})

describe('the event log byte budget', () => {
  const delivery = (i: number, outcome: NewLoggedDelivery['outcome'], size: number): NewLoggedDelivery =>
    newDelivery({ receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), eventId: `evt_${i}`, body: Buffer.alloc(size, 'y'), outcome })

  it('prunes the oldest rows past the budget, keeping failed forwards while others can go', async () => {
    const store = await EventStore.open({ path: ':memory:', maxBytes: MiB })
    store.record(delivery(0, 'failed', 100 * 1024))
    for (let i = 1; i <= 30; i++) store.record(delivery(i, 'forwarded', 100 * 1024))
    store.flush()
    const kept = store.list({ limit: 100 })
    const bytes = kept.reduce((n, r) => n + r.body.length, 0)
    expect(bytes).toBeLessThanOrEqual(MiB)
    // The failed forward (a replay candidate) stayed; the oldest forwarded ones went, the newest stayed.
    expect(kept.map((r) => r.eventId)).toContain('evt_0')
    expect(kept.map((r) => r.eventId)).toContain('evt_30')
    expect(kept.map((r) => r.eventId)).not.toContain('evt_1')
    store.close()
  })

  it('drops failed forwards too, oldest first, when they alone exceed it', async () => {
    const store = await EventStore.open({ path: ':memory:', maxBytes: MiB })
    for (let i = 0; i < 30; i++) store.record(delivery(i, 'failed', 100 * 1024))
    store.flush()
    const kept = store.list({ limit: 100 })
    expect(kept.reduce((n, r) => n + r.body.length, 0)).toBeLessThanOrEqual(MiB)
    expect(kept[0]!.eventId).toBe('evt_29')
    expect(kept.map((r) => r.eventId)).not.toContain('evt_0')
    store.close()
  })
})

describe('the event log row cap', () => {
  const delivery = (id: string, outcome: NewLoggedDelivery['outcome'], size = 200): NewLoggedDelivery =>
    newDelivery({
      receivedAt: '2026-01-01T00:00:00.000Z',
      eventId: id,
      body: Buffer.alloc(size, 'z'),
      verification: outcome === 'rejected' ? 'failed' : 'verified',
      outcome,
      answeredStatus: outcome === 'failed' ? 502 : outcome === 'rejected' ? 400 : 200,
      forwardUrl: 'http://127.0.0.1:3001/hooks',
    })

  it('drops refused posts and successes before a failed forward, which replay still finds (10 050 unsigned posts used to push it out)', async () => {
    const store = await EventStore.open({ path: ':memory:', maxDeliveries: 50 })
    store.record(delivery('evt_failed', 'failed'))
    for (let i = 0; i < 10; i++) store.record(delivery(`evt_ok_${i}`, 'forwarded'))
    for (let i = 0; i < 300; i++) store.record(delivery(`evt_forged_${i}`, 'rejected'))
    store.prune()
    const kept = store.list({ limit: 1000 })
    expect(kept).toHaveLength(50)
    expect(kept.map((r) => r.eventId)).toContain('evt_failed')
    expect(store.findForReplay('evt_failed')).toMatchObject({ outcome: 'failed', verification: 'verified' })
    // The rest are the newest: the oldest refused posts and the successes went first.
    expect(kept[0]!.eventId).toBe('evt_forged_299')
    expect(kept.map((r) => r.eventId)).not.toContain('evt_ok_9')
    store.close()
  })

  it("drops a failed forward whose event has reached its app since (the service's retry) with the others: old failures do not crowd out recent deliveries", async () => {
    const store = await EventStore.open({ path: ':memory:', maxDeliveries: 50 })
    store.record(delivery('evt_retried', 'failed'))
    store.record(delivery('evt_retried', 'forwarded'))
    store.record(delivery('evt_stuck', 'failed'))
    // The same event failed at another app: delivered to the first says nothing of it.
    store.record({ ...delivery('evt_retried', 'failed'), forwardUrl: 'http://127.0.0.1:4000/split' })
    for (let i = 0; i < 100; i++) store.record(delivery(`evt_ok_${i}`, 'forwarded'))
    store.prune()
    const kept = store.list({ limit: 1000 })
    expect(kept).toHaveLength(50)
    expect(kept.filter((r) => r.outcome === 'failed').map((r) => [r.eventId, r.forwardUrl])).toEqual([
      ['evt_retried', 'http://127.0.0.1:4000/split'],
      ['evt_stuck', 'http://127.0.0.1:3001/hooks'],
    ])
    expect(kept[0]!.eventId).toBe('evt_ok_99')
    store.close()
  })

  it('drops failed forwards too, oldest first, once they alone are over it', async () => {
    const store = await EventStore.open({ path: ':memory:', maxDeliveries: 50 })
    for (let i = 0; i < 80; i++) store.record(delivery(`evt_${i}`, 'failed'))
    store.record(delivery('evt_late', 'rejected'))
    store.prune()
    const kept = store.list({ limit: 1000 }).map((r) => r.eventId)
    expect(kept).toHaveLength(50)
    expect(kept).not.toContain('evt_late')
    expect(kept).toContain('evt_79')
    expect(kept).toContain('evt_30')
    expect(kept).not.toContain('evt_29')
    store.close()
  })

  it('counts what another process wrote before deciding the byte budget is kept', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'svc-events-bytes-')), 'events.db')
    const listener = await EventStore.open({ path, maxBytes: 2 * MiB })
    listener.record(delivery('evt_first', 'forwarded', 600))
    listener.flush()
    // Replays from another process write beside the listener: 1.6 MiB it did not record itself.
    const replay = await EventStore.open({ path })
    for (let i = 0; i < 16; i++) replay.record(delivery(`evt_replay_${i}`, 'forwarded', 100 * 1024))
    replay.close()
    for (let i = 0; i < 1100; i++) listener.record(delivery(`evt_more_${i}`, 'forwarded', 600))
    listener.flush()
    const kept = listener.list({ limit: 10_000 })
    expect(kept.reduce((n, r) => n + r.body.length, 0)).toBeLessThanOrEqual(2 * MiB)
    expect(kept[0]!.eventId).toBe('evt_more_1099')
    listener.close()
  })
})
