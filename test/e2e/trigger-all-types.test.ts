/**
 * Every one of the 14 event types of spec 6.3 on demand: `svc trigger TYPE` (the built binary, as
 * a user runs it) against a sandbox, `svc webhooks listen` forwarding to an app. The app receives
 * exactly one delivery of that type, its signature valid, its body valid against the type's
 * schema, and for resource events the resource read from the API agrees with the event.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseWebhookEvent } from '../../src/lib/contract/event-schemas.js'
import { EVENT_TYPES } from '../../src/lib/contract/event-types.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { verifySignature } from '../../src/lib/webhooks/signature.js'
import { svc } from '../helpers/cli.js'
import { startListen } from '../helpers/listen-harness.js'
import { type Received, startApp, type TargetApp } from '../helpers/webhooks.js'

let sb: RunningSandbox
let app: TargetApp
let listen: ReturnType<typeof startListen>
let configDir: string

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  app = await startApp()
  // The profiles `svc sandbox start` writes: trigger finds the live key in sandbox-live.
  configDir = mkdtempSync(join(tmpdir(), 'svc-trigger-'))
  const profiles = {
    defaultProfile: 'sandbox',
    profiles: {
      sandbox: { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret },
      'sandbox-live': { apiKey: sb.liveKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret },
    },
  }
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(profiles), { mode: 0o600 })
  listen = startListen(['--forward', `localhost:${app.port}/hooks`, '--port', '0'], {
    SVC_API_KEY: sb.testKey,
    SVC_BASE_URL: sb.baseUrl,
    SVC_WEBHOOK_SECRET: sb.webhookSecret,
  })
  await listen.waitLines(1)
  // Registered for both environments before any trigger runs.
  await vi.waitFor(() => expect(listen.stderr()).toContain('test and live webhook URL'), { timeout: 5000, interval: 10 })
})

afterAll(async () => {
  await listen?.stop()
  await app?.close()
  await sb?.close()
})

const api = async (key: string, path: string) => {
  const res = await fetch(`${sb.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })
  return (await res.json()) as Record<string, unknown>
}

interface Triggered {
  events: Array<{ id: string; type: string; environment: string }>
  resources: Array<{ object: string; id: string; status?: string }>
}

describe('svc trigger, for each of the 14 types', () => {
  it.each(EVENT_TYPES.map((t) => [t]))('%s reaches the app once, signed, valid against its schema', async (type) => {
    const env = type === 'product.paid' ? ['--env', 'live'] : []
    const r = await svc(['trigger', type, ...env, '--json'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    const out = JSON.parse(r.stdout) as Triggered
    const mine = out.events.filter((e) => e.type === type)
    expect(mine).toHaveLength(1)
    const eventId = mine[0]!.id

    const ofType = (): Received[] => app.received.filter((d) => d.headers['x-svc-event-id'] === eventId)
    await vi.waitFor(() => expect(ofType()).toHaveLength(1), { timeout: 5000, interval: 10 })
    const delivery = ofType()[0]!
    expect(delivery.headers['x-svc-event-type']).toBe(type)
    const verified = verifySignature({ body: delivery.body, signature: delivery.headers['x-svc-signature'], timestamp: delivery.headers['x-svc-timestamp'], secrets: [sb.webhookSecret] })
    expect(verified.ok).toBe(true)
    const parsed = parseWebhookEvent(JSON.parse(delivery.body.toString('utf8')))
    expect(parsed.known).toBe(true)
    expect(parsed.event.type).toBe(type)

    // The resource the event is about, read from the API, agrees with it.
    const event = parsed.event as { environment: string; data: Record<string, { id: string; status?: string; pix?: { endToEndId?: string }; split?: unknown }> }
    const key = event.environment === 'live' ? sb.liveKey : sb.testKey
    if (type.startsWith('withdrawal.')) {
      const w = await api(key, `/v1/withdrawals/${event.data.withdrawal!.id}`)
      expect(w).toEqual(event.data.withdrawal)
      expect(out.resources).toEqual([expect.objectContaining({ object: 'withdrawal', id: w.id })])
    } else if (type.startsWith('charge.') && type !== 'charge.test') {
      const c = await api(key, `/v1/charges/${event.data.charge!.id}`)
      expect(c.status).toBe(event.data.charge!.status)
      if (type.startsWith('charge.split.')) expect(c.split).toEqual(event.data.charge!.split)
      expect(out.resources.map((x) => x.id)).toContain(c.id)
    } else if (type === 'product.paid') {
      expect(event.environment).toBe('live')
    }
  })

  it('an unknown type exits 2 listing the known ones, and sends nothing', async () => {
    const before = app.received.length
    const r = await svc(['trigger', 'charge.paid'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('Unknown event type "charge.paid"')
    for (const t of EVENT_TYPES) expect(r.stderr).toContain(t)
    expect(app.received.length).toBe(before)
  })

  it('refuses a type in an environment where it cannot happen (exit 2)', async () => {
    const settled = await svc(['trigger', 'charge.settled', '--env', 'live'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(settled.exitCode).toBe(2)
    expect(settled.stderr).toMatch(/exists only in test/)
    const product = await svc(['trigger', 'product.paid', '--env', 'test'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(product.exitCode).toBe(2)
    expect(product.stderr).toMatch(/only in the live environment/)
  })

  it('against a service that is not a sandbox, exits 2 saying trigger is sandbox-only', async () => {
    const other = await startApp((_r, res) => {
      res.statusCode = 404
      res.end('{}')
    })
    try {
      const r = await svc(['trigger', 'charge.settled'], { env: { SVC_CONFIG_DIR: configDir, SVC_API_KEY: 'svc_test_0123456789abcdef', SVC_BASE_URL: other.url } })
      expect(r.exitCode).toBe(2)
      expect(r.stderr).toContain('sandbox-only')
      expect(other.received.map((x) => x.path)).toEqual(['/_sandbox/info'])
    } finally {
      await other.close()
    }
  })

  it('--override sets fields of the request body, typed as the fixture holds them', async () => {
    const r = await svc(['trigger', 'charge.awaiting_payment', '--override', 'amountInCents=2500', '--override', 'metadata.order=42', '--json'], { env: { SVC_CONFIG_DIR: configDir } })
    expect(r.exitCode).toBe(0)
    const id = (JSON.parse(r.stdout) as Triggered).resources[0]!.id
    const charge = await api(sb.testKey, `/v1/charges/${id}`)
    expect(charge.amount).toMatchObject({ grossInCents: 2500 })
    expect(charge.metadata).toEqual({ source: 'svc trigger', order: '42' })
  })
})
