/**
 * No lost and no doubled event: the sandbox's real delivery worker → the real listener (event
 * log on disk) → an app that refuses 30 % of deliveries, sometimes answers too late for the
 * sandbox, and is restarted mid-run; the listener itself is restarted mid-run; the sandbox's
 * retry schedule (10 s, 30 s, 2 min …) runs on its manual clock, advanced to each next retry.
 * In the end every event the sandbox emitted reached the app exactly once (by event id).
 */
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/lib/api/client.js'
import type { ApiClient } from '../../src/lib/api/types.js'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { WebhookDeliveries } from '../../src/lib/sandbox/deliveries/worker.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { EventStore } from '../../src/lib/webhooks/event-store.js'
import { WebhookListener } from '../../src/lib/webhooks/listener.js'
import { verifySignature } from '../../src/lib/webhooks/signature.js'
import { seeded } from '../helpers/reliability.js'
import { forwarding } from '../helpers/webhooks.js'

const CPF = '52998224725'
/**
 * How long the sandbox waits for an answer (the spec's 10 s, scaled for the test). It was 100 ms,
 * and on a loaded machine that failed the test: a retry round sends every due delivery at the
 * same instant, the burst took longer than 100 ms, so every attempt of it timed out, the next
 * round was the same burst, and after 10 attempts deliveries ended `failed`. 500 ms holds the
 * bursts under load (checked with three busy loops on two cores) and keeps native timers.
 */
const SANDBOX_TIMEOUT_MS = 500
/** A late answer comes after the sandbox gave up on the attempt (its timer was armed first). */
const LATE_ANSWER_MS = SANDBOX_TIMEOUT_MS + 100

/** The merchant's app: refuses 30 % (500), answers 10 % of the rest after the sandbox gave up, counts what it accepted. */
class FlakyApp {
  readonly accepted = new Map<string, number>()
  readonly refused = { count: 0 }
  readonly late = { count: 0 }
  readonly unverified: string[] = []
  private server?: Server
  private readonly random = seeded(30)
  port = 0

  constructor(
    private readonly secret: string,
    private readonly now: () => number,
  ) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const body = Buffer.concat(chunks)
        // The app verifies too (defence in depth): only signed bytes ever arrive.
        const v = verifySignature({ body, signature: req.headers['x-svc-signature'], timestamp: req.headers['x-svc-timestamp'], secrets: [this.secret], nowSeconds: Math.floor(this.now() / 1000) })
        if (!v.ok) {
          this.unverified.push(v.reason)
          res.writeHead(400).end('bad signature')
          return
        }
        const id = String(req.headers['x-svc-event-id'])
        const roll = this.random()
        if (roll < 0.3) {
          this.refused.count++
          res.writeHead(500).end('busy')
          return
        }
        // Accepted once its 2xx is on the wire: an answer cut off by a restart is a lost answer,
        // and then the event is rightly sent again (at-least-once, spec 6.4.1).
        res.once('finish', () => this.accepted.set(id, (this.accepted.get(id) ?? 0) + 1))
        if (roll > 0.9) {
          // Accepted, but the answer comes after the sandbox's timeout: the sandbox will retry.
          this.late.count++
          setTimeout(() => res.writeHead(200).end('ok'), LATE_ANSWER_MS)
          return
        }
        res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as AddressInfo).port
    this.server = server
  }

  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (!server) return
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

let sb: RunningSandbox | undefined
let client: ApiClient | undefined
let app: FlakyApp | undefined
let listener: WebhookListener | undefined
let forward: ReturnType<typeof forwarding> | undefined
let store: EventStore | undefined

afterAll(async () => {
  await listener?.close()
  await forward?.forwarder.close()
  store?.close()
  await app?.stop()
  await client?.close()
  await sb?.close()
})

describe('listener and app under faults, sandbox retries on an advanced clock', () => {
  it('every event reaches the app once: none lost, none twice', async () => {
    const clock = new SandboxClock({ manual: true, start: Date.parse('2026-11-22T12:00:00Z') })
    let worker!: WebhookDeliveries
    sb = await startSandboxServer({ port: 0, inMemory: true, clock, deliveries: (ctx) => (worker = new WebhookDeliveries(ctx, { timeoutMs: SANDBOX_TIMEOUT_MS })) })
    client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl, sleep: async () => {} })
    // The sandbox signs with the wall-clock second (receivers check it against their own clock);
    // only its retry schedule runs on the sandbox clock.
    const now = Date.now
    app = new FlakyApp(sb.webhookSecret, now)
    await app.start()

    const eventsDb = join(mkdtempSync(join(tmpdir(), 'svc-listener-faults-')), 'events.db')
    let port = 0
    const startListener = async () => {
      store = await EventStore.open({ path: eventsDb })
      forward = forwarding(`127.0.0.1:${app!.port}/hooks`, { timeoutMs: 2000 })
      listener = new WebhookListener({ ...forward, secrets: [sb!.webhookSecret], store, port, now })
      const url = await listener.start()
      port = Number(new URL(url).port)
      return url
    }
    const stopListener = async () => {
      await listener!.close()
      await forward!.forwarder.close()
      store!.close()
    }
    worker.setEndpoint('test', await startListener())
    // Quiet: no attempt of the sandbox in flight, and nothing the listener is still forwarding
    // (an answer the sandbox stopped waiting for still lands in the listener's log).
    const settle = async () => {
      await worker.flush()
      await vi.waitFor(() => expect(listener!.inProgress).toBe(0), { timeout: 5000, interval: 5 })
    }

    const ids: string[] = []
    const create = async (n: number) => {
      for (let i = 0; i < n; i++) ids.push((await client!.createCharge({ amountInCents: 2000 + ids.length, payerTaxNumber: CPF })).charge.id)
    }

    // 1. Normal traffic into a flaky app.
    await create(15)
    await settle()
    // 2. The app goes down mid-run: the listener answers 502, the sandbox schedules retries.
    await app.stop()
    await create(10)
    for (const id of ids.slice(0, 5)) await client.advanceCharge(id, 'paid_pending_settlement')
    await settle()
    await app.start()
    // 3. The listener goes down mid-run (finishing what it had in flight), and comes back on the same port with the same log.
    await stopListener()
    for (const id of ids.slice(5, 12)) await client.advanceCharge(id, 'settled')
    await create(5)
    await settle()
    await startListener()
    await create(5)
    await settle()

    // 4. The retry schedule on the sandbox clock: jump to each next retry until nothing is pending.
    for (let round = 0; round < 200; round++) {
      await settle()
      const pending = worker.list({ limit: 1000 }).filter((d) => d.state === 'pending')
      if (pending.length === 0) break
      const next = Math.min(...pending.map((d) => Date.parse(d.nextRetryAt!)))
      await clock.advance(Math.max(1, next - clock.now()))
    }
    await settle()

    const deliveries = worker.list({ limit: 1000 })
    const emitted = new Set(deliveries.map((d) => d.eventId))
    expect(
      deliveries.every((d) => d.state === 'succeeded'),
      JSON.stringify(deliveries.filter((d) => d.state !== 'succeeded')),
    ).toBe(true)
    expect(emitted.size).toBeGreaterThanOrEqual(35 + 5 + 7 * 2)
    expect(app.unverified).toEqual([])
    // None lost: everything emitted was accepted by the app.
    expect(new Set(app.accepted.keys())).toEqual(emitted)
    // None twice: the app accepted each event id exactly once, across both restarts.
    const doubled = [...app.accepted].filter(([, n]) => n !== 1)
    expect(doubled).toEqual([])
    // The faults really happened: refusals, late answers and retries.
    expect(app.refused.count).toBeGreaterThan(5)
    expect(deliveries.some((d) => d.attempts > 1)).toBe(true)
    expect(app.late.count).toBeGreaterThan(0)
    // A retry of what already reached the app was answered 2xx from the log, not forwarded again.
    const log = await EventStore.open({ path: eventsDb })
    try {
      expect(log.list({ limit: 10_000 }).some((r) => r.outcome === 'duplicate')).toBe(true)
    } finally {
      log.close()
    }
  })
})
