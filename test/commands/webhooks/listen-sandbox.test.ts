// End to end with the local sandbox: the listener registers itself, the sandbox signs and sends
// every state change, and the app behind the listener receives each event verified, once, in order.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import type { ApiClient } from '../../../src/lib/api/types.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { ListenFeed } from '../../../src/lib/tui/view-models/listen-feed.js'
import { ChargeConfirmer } from '../../../src/lib/webhooks/confirm.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { WebhookListener } from '../../../src/lib/webhooks/listener.js'
import { setWebhookUrl } from '../../../src/lib/sandbox-client/panel-client.js'
import { verifySignature } from '../../../src/lib/webhooks/signature.js'
import { forwarding, startApp, type TargetApp } from '../../helpers/webhooks.js'
import { startListen } from '../../helpers/listen-harness.js'

let sb: RunningSandbox
let client: ApiClient
let target: TargetApp
const CPF = '52998224725'

// The sandbox's clock is two days ahead (as after `svc sandbox clock advance 48h`), but deliveries
// are signed with the wall-clock second, and the listener checks them against the wall clock.
const AHEAD_MS = 48 * 3600_000

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true, start: Date.now() + AHEAD_MS }) })
  client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl })
  target = await startApp()
})
afterAll(async () => {
  await client.close()
  await target.close()
  await sb.close()
})

const typesFor = (chargeId: string) =>
  target.received.filter((r) => (JSON.parse(r.body.toString('utf8')) as { data: { charge?: { id: string } } }).data.charge?.id === chargeId).map((r) => r.headers['x-svc-event-type'])

describe('svc webhooks listen with the local sandbox', () => {
  it('registers itself; create → advance → settled reaches the app verified, once each, in order', async () => {
    const run = startListen(['--forward', `localhost:${target.port}/webhooks`, '--port', '0'], {
      SVC_API_KEY: sb.testKey,
      SVC_BASE_URL: sb.baseUrl,
      SVC_WEBHOOK_SECRET: sb.webhookSecret,
    })
    try {
      const [first] = await run.waitLines(1)
      const { charge } = await client.createCharge({ amountInCents: 1500, payerTaxNumber: CPF })
      await vi.waitFor(() => expect(typesFor(charge.id)).toHaveLength(1), { timeout: 5000, interval: 10 })
      await client.advanceCharge(charge.id, 'paid_pending_settlement')
      await vi.waitFor(() => expect(typesFor(charge.id)).toHaveLength(2), { timeout: 5000, interval: 10 })
      await client.advanceCharge(charge.id, 'settled')
      await vi.waitFor(() => expect(typesFor(charge.id)).toHaveLength(3), { timeout: 5000, interval: 10 })

      expect(run.stderr()).toContain(`Registered ${first!.listening as string} as the sandbox's test and live webhook URL`)
      expect(typesFor(charge.id)).toEqual(['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled'])
      for (const r of target.received) {
        expect(r.path).toBe('/webhooks')
        const wallSeconds = Math.floor(Date.now() / 1000)
        expect(Math.abs(Number(r.headers['x-svc-timestamp']) - wallSeconds)).toBeLessThan(60)
        const v = verifySignature({ body: r.body, signature: r.headers['x-svc-signature'], timestamp: r.headers['x-svc-timestamp'], secrets: [sb.webhookSecret], nowSeconds: wallSeconds })
        expect(v.ok).toBe(true)
      }
      const lines = await run.waitLines(4)
      expect(lines.slice(1).map((l) => [l.type, l.verified, l.outcome, l.status])).toEqual([
        ['charge.awaiting_payment', true, 'forwarded', 200],
        ['charge.paid_pending_settlement', true, 'forwarded', 200],
        ['charge.settled', true, 'forwarded', 200],
      ])
    } finally {
      expect(await run.stop()).toBe(0)
    }
  })

  it('confirms every charge event with the API in the live view model (listener on the wall clock)', async () => {
    const store = await EventStore.open({ path: ':memory:' })
    const forward = forwarding(`127.0.0.1:${target.port}`)
    const listener = new WebhookListener({ ...forward, secrets: [sb.webhookSecret], store, port: 0 })
    const feed = new ListenFeed({ confirmer: new ChargeConfirmer((id) => client.getCharge(id)) })
    listener.on('delivery', (d) => feed.add(d))
    const url = await listener.start()
    try {
      await setWebhookUrl({ baseUrl: sb.baseUrl, apiKey: sb.testKey, url, env: 'test' })
      const { charge } = await client.createCharge({ amountInCents: 2000, payerTaxNumber: CPF })
      await vi.waitFor(() => expect(feed.getSnapshot().deliveries).toHaveLength(1), { timeout: 5000, interval: 10 })
      await feed.settled()
      await client.advanceCharge(charge.id, 'settled')
      await vi.waitFor(() => expect(feed.getSnapshot().deliveries).toHaveLength(3), { timeout: 5000, interval: 10 })
      await feed.settled()
      const s = feed.getSnapshot()
      expect(s.deliveries.every((d) => d.verdict?.kind === 'confirmed')).toBe(true)
      expect(s.lanes[0]).toMatchObject({ chargeId: charge.id })
      expect(s.counts).toMatchObject({ total: 3, forwarded: 3 })
    } finally {
      await listener.close()
      await forward.forwarder.close()
      store.close()
    }
  })
})
