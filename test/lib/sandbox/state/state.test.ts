/**
 * The sandbox's state out and back in (`startSandbox({ seed })`, GET /_sandbox/export): a sandbox
 * seeded from an export is the same sandbox — same ids, keys, secret, clock, events and delivery
 * log — and the API answers the same; another format version and a data dir that holds a
 * sandbox already are refused, saying why.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type SandboxHandle, startSandbox } from '../../../../src/public/sandbox.js'
import { createCharge, startMerchant } from '../faults/merchant.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
const open: Array<{ close(): Promise<void> }> = []
const dir = mkdtempSync(join(tmpdir(), 'svc-state-'))

afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close()
})

/** The answer, with the sandbox's own address (in a charge's QR image URL) written as BASE. */
async function get(s: SandboxHandle, path: string): Promise<unknown> {
  const res = await fetch(`${s.baseUrl}${path}`, { headers: { authorization: `Bearer ${s.testKey}` } })
  return { status: res.status, body: JSON.parse((await res.text()).replaceAll(s.baseUrl, 'BASE')) }
}

/** A sandbox with some of everything: charges in several states, a split charge, a withdrawal, a sale, deliveries with retries. */
async function busySandbox(): Promise<{ sandbox: SandboxHandle; chargeIds: string[] }> {
  const sandbox = await startSandbox({ clock: { manual: true, start: T0 } })
  open.push(sandbox)
  const merchant = await startMerchant({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, secret: sandbox.webhookSecret, careful: false })
  open.push(merchant)
  await sandbox.setWebhookUrl(merchant.url)
  await sandbox.setWebhookUrl('http://127.0.0.1:9/nobody-listens', 'live')
  const chargeIds = [await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-1'), await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-2')]
  await sandbox.advance(chargeIds[0]!, 'settled')
  await sandbox.trigger('charge.split.completed')
  await sandbox.trigger('withdrawal.paid')
  await sandbox.trigger('product.paid')
  await sandbox.clock.advance('90s')
  return { sandbox, chargeIds }
}

describe('export, then start from it', () => {
  it('gives the same ids, keys, secret, clock, events and deliveries, and the API answers the same', async () => {
    const { sandbox: a, chargeIds } = await busySandbox()
    const state = (await a.exportState({ includeLiveSecrets: true })) as { format: string; clock: { now: string }; tables: Record<string, unknown[]> }
    expect(state.format).toBe('svc-sandbox-state/1')
    expect(state.clock.now).toBe(new Date(T0 + 90_000).toISOString())
    for (const table of ['charges', 'events', 'webhook_deliveries', 'webhook_attempts', 'withdrawals', 'product_sales', 'api_keys', 'webhook_endpoints']) {
      expect(state.tables[table]!.length, table).toBeGreaterThan(0)
    }
    // A live delivery to nobody: pending, with its retry, travels too.
    expect(state.tables.webhook_deliveries!.some((d) => (d as { state: string }).state === 'pending')).toBe(true)
    const file = join(dir, 'state.json')
    writeFileSync(file, JSON.stringify(state))

    const b = await startSandbox({ seed: file, clock: { manual: true } })
    open.push(b)
    expect([b.testKey, b.liveKey, b.webhookSecret]).toEqual([a.testKey, a.liveKey, a.webhookSecret])
    expect(b.clock.now().toISOString()).toBe(a.clock.now().toISOString())
    for (const id of chargeIds) expect(await get(b, `/v1/charges/${id}`)).toEqual(await get(a, `/v1/charges/${id}`))
    expect(await get(b, '/v1/charges?limit=100')).toEqual(await get(a, '/v1/charges?limit=100'))
    expect(await get(b, '/_sandbox/events?limit=1000')).toEqual(await get(a, '/_sandbox/events?limit=1000'))
    expect(await b.deliveries()).toEqual(await a.deliveries())
    const [settled] = await a.deliveries({ type: 'charge.settled' })
    expect(await b.deliveries({ eventId: settled!.eventId })).toEqual(await a.deliveries({ eventId: settled!.eventId }))
    // And its own export is the same state (only the wall-clock instant of exporting differs).
    const again = (await b.exportState({ includeLiveSecrets: true })) as typeof state & { exportedAt: string }
    expect({ ...again, exportedAt: '' }).toEqual({ ...state, exportedAt: '' })
    // A new charge continues the sequences instead of clashing with the seeded ones.
    const next = await createCharge(b.baseUrl, b.testKey, 'order-3')
    expect(chargeIds).not.toContain(next)
  })

  it('takes the state as an object too, and its clock by default', async () => {
    const { sandbox: a } = await busySandbox()
    const state = await a.exportState()
    const b = await startSandbox({ seed: state })
    open.push(b)
    expect(b.testKey).toBe(a.testKey)
    // Its own clock (not manual) starts where the exported one stood.
    expect(b.clock.now().getTime() - a.clock.now().getTime()).toBeGreaterThanOrEqual(0)
    expect(b.clock.now().getTime() - a.clock.now().getTime()).toBeLessThan(5000)
  })
})

describe('live secrets (issue 36.8)', () => {
  it('an export holds no live key and no webhook secret unless asked for; a sandbox seeded from it makes new ones and says so', async () => {
    const { sandbox: a, chargeIds } = await busySandbox()
    const res = await fetch(`${a.baseUrl}/_sandbox/export`, { headers: { authorization: `Bearer ${a.testKey}` } })
    const text = await res.text()
    expect(res.status).toBe(200)
    expect(text).not.toContain(a.liveKey)
    expect(text).not.toContain(a.webhookSecret)
    expect(text).toContain(a.testKey)
    const state = JSON.parse(text) as { tables: { api_keys: Array<{ environment: string }> } }
    expect(state.tables.api_keys.map((k) => k.environment)).toEqual(['test'])

    const logs: string[] = []
    const b = await startSandbox({ seed: state, clock: { manual: true }, log: (l) => logs.push(l) })
    open.push(b)
    expect(b.testKey).toBe(a.testKey)
    expect(b.liveKey).toMatch(/^svc_live_[0-9a-f]{32}$/)
    expect(b.liveKey).not.toBe(a.liveKey)
    expect(b.webhookSecret).toMatch(/^whsec_/)
    expect(b.webhookSecret).not.toBe(a.webhookSecret)
    expect(logs.join('\n')).toContain('the state holds no live key and no webhook secret (exported without --include-live-secrets): this sandbox made a new live key and a new webhook secret')
    expect(logs.join('\n')).not.toContain(b.webhookSecret)
    // The rest is the same sandbox, and the new live key works.
    expect(await get(b, `/v1/charges/${chargeIds[0]}`)).toEqual(await get(a, `/v1/charges/${chargeIds[0]}`))
    expect((await fetch(`${b.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${b.liveKey}` } })).status).toBe(200)
  })

  it('includeLiveSecrets=true holds them; any other value is a 400 naming the parameter', async () => {
    const { sandbox: a } = await busySandbox()
    const ask = (q: string) => fetch(`${a.baseUrl}/_sandbox/export${q}`, { headers: { authorization: `Bearer ${a.testKey}` } })
    const full = await (await ask('?includeLiveSecrets=true')).text()
    expect(full).toContain(a.liveKey)
    expect(full).toContain(a.webhookSecret)
    const bad = await ask('?includeLiveSecrets=yes')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('includeLiveSecrets')
  })
})

describe('refusals', () => {
  it('refuses another format version, saying which was found and which is supported', async () => {
    await expect(startSandbox({ seed: { format: 'svc-sandbox-state/2', tables: {} } })).rejects.toThrow('unsupported sandbox state: found format "svc-sandbox-state/2"; this svc supports svc-sandbox-state/1')
    await expect(startSandbox({ seed: { tables: {} } })).rejects.toThrow('found no format field')
  })

  it('names the field of a state that does not hold', async () => {
    const { sandbox: a } = await busySandbox()
    const state = (await a.exportState()) as { tables: { charges: Array<Record<string, unknown>> } }
    state.tables.charges[0]!.seq = 'one'
    await expect(startSandbox({ seed: state })).rejects.toThrow(/invalid sandbox state at tables\.charges\[0\]\.seq/)
  })

  it('seeds an empty data dir, and refuses one that holds a sandbox already', async () => {
    const { sandbox: a } = await busySandbox()
    const state = await a.exportState()
    const dataDir = join(dir, 'data')
    const b = await startSandbox({ seed: state, dataDir })
    expect(b.testKey).toBe(a.testKey)
    await b.close()
    await expect(startSandbox({ seed: state, dataDir })).rejects.toThrow(`the data dir ${dataDir} already holds a sandbox`)
    // The refusal left the data as it was: it starts as before.
    const c = await startSandbox({ dataDir })
    open.push(c)
    expect(c.testKey).toBe(a.testKey)
  })
})

describe('what the export holds', () => {
  it("the webhook endpoint's latest success, though the worker writes it at most once a second", async () => {
    const sandbox = await startSandbox({ clock: { manual: true, start: T0 } })
    open.push(sandbox)
    const merchant = await startMerchant({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, secret: sandbox.webhookSecret, careful: false })
    open.push(merchant)
    await sandbox.setWebhookUrl(merchant.url)
    await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-a')
    await sandbox.waitForDelivery((d) => d.state === 'succeeded')
    await sandbox.clock.advance('300ms')
    const second = await createCharge(sandbox.baseUrl, sandbox.testKey, 'order-b')
    await sandbox.waitForDelivery((d) => d.state === 'succeeded' && d.body.includes(second))
    const state = (await sandbox.exportState()) as { tables: { webhook_endpoints: Array<{ environment: string; last_success_ms: number }> } }
    const test = state.tables.webhook_endpoints.find((e) => e.environment === 'test')!
    expect(test.last_success_ms).toBe(T0 + 300)
  })
})

describe('the format and the database', () => {
  it("names every column of every table: a column a migration adds is exported, or the format's version moves", async () => {
    const { openDatabase } = await import('../../../../src/lib/sandbox/store/db.js')
    const { SANDBOX_STATE_TABLES } = await import('../../../../src/lib/contract/sandbox-state.js')
    const db = openDatabase({ inMemory: true })
    try {
      for (const [table, row] of Object.entries(SANDBOX_STATE_TABLES)) {
        const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name).sort()
        expect(Object.keys(row.shape).sort(), table).toEqual(columns)
      }
    } finally {
      db.close()
    }
  })
})
