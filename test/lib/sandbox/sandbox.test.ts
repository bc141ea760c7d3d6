/** startSandboxServer with its defaults: the real delivery worker, its own clock, a clean close. */
import { mkdtempSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import { verifySignature } from '../../../src/lib/webhooks/signature.js'

describe('startSandboxServer', () => {
  it('creates a merchant with a test key, a live key and a webhook secret, serves, and closes cleanly', async () => {
    const lines: string[] = []
    const sb = await startSandboxServer({ port: 0, inMemory: true, log: (l) => lines.push(l) })
    try {
      expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(sb.testKey).toMatch(/^svc_test_[0-9a-f]{32}$/)
      expect(sb.liveKey).toMatch(/^svc_live_[0-9a-f]{32}$/)
      expect(sb.webhookSecret).toMatch(/^whsec_/)
      const res = await fetch(`${sb.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${sb.testKey}` } })
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ environment: 'test' })
      const info = (await (await fetch(`${sb.baseUrl}/_sandbox/info`)).json()) as { now: string }
      expect(info).toMatchObject({ sandbox: true, speed: 1 })
      expect(Math.abs(Date.parse(info.now) - Date.now())).toBeLessThan(60_000)
    } finally {
      await sb.close()
    }
    await expect(fetch(`${sb.baseUrl}/_sandbox/info`)).rejects.toThrow()
    expect(lines.some((l) => l.includes(sb.baseUrl))).toBe(true)
  })

  it('refuses to start on a port in use', async () => {
    const a = await startSandboxServer({ port: 0, inMemory: true })
    try {
      const port = Number(new URL(a.baseUrl).port)
      await expect(startSandboxServer({ port, inMemory: true })).rejects.toThrow(/EADDRINUSE/)
    } finally {
      await a.close()
    }
  })

  it('runs a sped-up clock from the speed option', async () => {
    const sb = await startSandboxServer({ port: 0, inMemory: true, speed: 60 })
    try {
      expect(sb.clock.speed).toBe(60)
    } finally {
      await sb.close()
    }
  })

  it('keeps the clock ahead across a restart after it was advanced', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-sandbox-clock-'))
    const first = await startSandboxServer({ port: 0, dataDir })
    await first.clock.advance(25 * 3_600_000)
    await first.close()
    const second = await startSandboxServer({ port: 0, dataDir })
    try {
      const lead = second.clock.now() - Date.now()
      expect(lead).toBeGreaterThan(25 * 3_600_000 - 60_000)
      expect(lead).toBeLessThan(25 * 3_600_000 + 60_000)
      expect(second.testKey).toBe(first.testKey)
    } finally {
      await second.close()
    }
  })

  it('delivers a signed event for a new charge to the URL saved through the panel, and the account shows it', async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = []
    let arrived: () => void = () => {}
    const delivered = new Promise<void>((r) => (arrived = r))
    const hook = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push({ headers: req.headers, body })
        res.writeHead(204).end()
        arrived()
      })
    })
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r))
    const sb = await startSandboxServer({ port: 0, inMemory: true })
    try {
      const auth = { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' }
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`
      const saved = await fetch(`${sb.baseUrl}/_sandbox/webhook`, { method: 'PUT', headers: auth, body: JSON.stringify({ url }) })
      expect(saved.status).toBe(200)
      const account = (await (await fetch(`${sb.baseUrl}/v1/account`, { headers: auth })).json()) as { webhook?: unknown }
      expect(account.webhook).toEqual({ url, active: true })

      const created = await fetch(`${sb.baseUrl}/v1/charges`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '52998224725' }),
      })
      const charge = (await created.json()) as { id: string }
      await delivered
      const [d] = received
      const event = JSON.parse(d!.body)
      expect(event).toMatchObject({ type: 'charge.awaiting_payment', data: { charge: { id: charge.id } } })
      expect(d!.headers['x-svc-event-id']).toBe(event.id)
      const verdict = verifySignature({
        body: d!.body,
        signature: d!.headers['x-svc-signature'],
        timestamp: d!.headers['x-svc-timestamp'],
        secrets: [sb.webhookSecret],
        nowSeconds: Math.floor(sb.clock.now() / 1000),
      })
      expect(verdict.ok).toBe(true)
    } finally {
      await sb.close()
      hook.close()
    }
  })
})

describe('a clock advance across an endpoint deactivation (issue 36.5)', () => {
  it('runs every retry due before it, in order, and sends nothing published after it', async () => {
    const { SandboxClock } = await import('../../../src/lib/sandbox/engine/clock.js')
    const { startTarget } = await import('../../helpers/delivery-target.js')
    const T0 = Date.parse('2026-11-22T12:00:00.000Z')
    const H = 3_600_000
    const clock = new SandboxClock({ manual: true, start: T0 })
    const app = await startTarget()
    app.answers = [{ status: 500 }]
    const sb = await startSandboxServer({ port: 0, inMemory: true, clock, log: () => {} })
    const auth = { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' }
    const post = async (path: string, body: unknown = {}) => (await fetch(`${sb.baseUrl}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json() as Promise<{ id: string }>
    const advance = (ms: number) => post('/_sandbox/clock/advance', { ms })
    try {
      await fetch(`${sb.baseUrl}/_sandbox/webhook`, { method: 'PUT', headers: auth, body: JSON.stringify({ url: app.url }) })
      // T0: a charge whose events fail for 24 h, which deactivates the endpoint at T0 + 24 h.
      await post('/v1/charges', { amountInCents: 1500, payerTaxNumber: '52998224725' })
      // Two charges paid at T0 + 10 min and T0 + 20 min: they settle after the deactivation.
      const settling: string[] = []
      for (let i = 0; i < 2; i++) {
        await advance(10 * 60_000)
        const c = await post('/v1/charges', { amountInCents: 1500, payerTaxNumber: '52998224725' })
        await post(`/v1/test/charges/${c.id}/advance`, { status: 'paid_pending_settlement' })
        settling.push(c.id)
      }
      await advance(19 * H - 20 * 60_000)
      // T0 + 19 h: a refund.
      const refunded = await post('/v1/charges', { amountInCents: 1500, payerTaxNumber: '52998224725' })
      await post(`/v1/test/charges/${refunded.id}/advance`, { status: 'refunded' })
      await advance(5 * H + 35 * 60_000)

      const deliveries = (await (await fetch(`${sb.baseUrl}/_sandbox/deliveries?limit=100`, { headers: auth })).json()) as { data: Array<{ eventId: string; type: string; body: string }> }
      const refund = deliveries.data.find((d) => d.type === 'charge.refunded')!
      const attempts = (await (await fetch(`${sb.baseUrl}/_sandbox/deliveries?eventId=${refund.eventId}`, { headers: auth })).json()) as { data: Array<{ attemptLog: Array<{ at: string }> }> }
      const since = attempts.data[0]!.attemptLog.map((a) => (Date.parse(a.at) - (T0 + 19 * H)) / 1000)
      // The first attempt, then the retries of 10 s, 30 s, 2 min, 10 min, 30 min, 1 h and 3 h, each after the previous one failed.
      expect(since).toEqual([0, 10, 40, 160, 760, 2560, 6160, 16960])
      const endpoint = (await (await fetch(`${sb.baseUrl}/_sandbox/webhook`, { headers: auth })).json()) as { active: boolean; deactivatedAt: string }
      expect(endpoint).toMatchObject({ active: false, deactivatedAt: new Date(T0 + 24 * H).toISOString() })
      const settled = deliveries.data.filter((d) => d.type === 'charge.settled')
      expect(settled).toHaveLength(2)
      expect(app.received.filter((r) => r.headers['x-svc-event-type'] === 'charge.settled')).toEqual([])
    } finally {
      await sb.close()
      await app.close()
      clock.stop()
    }
  })
})
