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
