/**
 * `svc trigger` against a sandbox with no webhook URL (it says no delivery went out and how to set
 * one), and a mistyped --override path (refused before anything is sent).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { svc } from '../helpers/cli.js'

let sb: RunningSandbox
let env: Record<string, string>

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  env = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-trigger-')) }
})
afterAll(() => sb.close())

const chargeCount = async () => ((await (await fetch(`${sb.baseUrl}/v1/charges?limit=100`, { headers: { authorization: `Bearer ${sb.testKey}` } })).json()) as { data: unknown[] }).data.length

describe('svc trigger with no webhook URL set (issue 24 item 8)', () => {
  it('charge.settled: the events are made, and it says no delivery went out and how to set a URL', async () => {
    const r = await svc(['trigger', 'charge.settled'], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/charge\.settled/)
    expect(r.stderr).toContain('no webhook URL is set for the test environment')
    expect(r.stderr).toContain('no delivery went out')
    expect(r.stderr).toContain('svc webhooks listen')
    expect(r.stderr).toContain('svc sandbox webhook set URL --env test')
  })

  it('charge.test: fails saying no URL is set and how to set one', async () => {
    const r = await svc(['trigger', 'charge.test'], { env })
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('No webhook URL is set for the test environment')
    expect(r.stderr).toContain('svc sandbox webhook set URL --env test')
    expect(r.stderr).toContain('svc webhooks listen')
  })

  it('with a URL set, says nothing about it', async () => {
    await fetch(`${sb.baseUrl}/_sandbox/webhook`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
    })
    try {
      const r = await svc(['trigger', 'charge.awaiting_payment'], { env })
      expect(r.exitCode).toBe(0)
      expect(r.stderr).not.toContain('no webhook URL')
    } finally {
      await fetch(`${sb.baseUrl}/_sandbox/webhook`, { method: 'DELETE', headers: { authorization: `Bearer ${sb.testKey}` } })
    }
  })
})

describe('svc trigger -q (issue 29 item 23)', () => {
  it('prints only the id of what it made, one per line: a charge, settled', async () => {
    const r = await svc(['trigger', 'charge.settled', '-q'], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^[0-9a-f]{24}\n$/)
    const got = await fetch(`${sb.baseUrl}/v1/charges/${r.stdout.trim()}`, { headers: { authorization: `Bearer ${sb.testKey}` } })
    expect(((await got.json()) as { status: string }).status).toBe('settled')
  })
})

describe('svc trigger --override with a path the request does not have (issue 24 item 9)', () => {
  it.each([
    ['amountIncents=2500', 'has no field amountIncents (did you mean amountInCents?)'],
    ['nosuch=1', 'has no field nosuch\nHint: Fields it takes: amountInCents, payerTaxNumber'],
  ])('--override %s exits 2 naming it and the nearest path, creating nothing', async (override, message) => {
    const before = await chargeCount()
    const r = await svc(['trigger', 'charge.awaiting_payment', '--override', override], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stdout).toBe('')
    expect(await chargeCount()).toBe(before)
  })

  it('a field the API takes but the fixture lacks (externalId) is set', async () => {
    const r = await svc(['trigger', 'charge.awaiting_payment', '--override', 'externalId=order-77', '--override', 'amountInCents=2500', '--json'], { env })
    expect(r.exitCode).toBe(0)
    const id = JSON.parse(r.stdout).resources[0].id as string
    const charge = (await (await fetch(`${sb.baseUrl}/v1/charges/${id}`, { headers: { authorization: `Bearer ${sb.testKey}` } })).json()) as { externalId: string; amount: { grossInCents: number } }
    expect(charge.externalId).toBe('order-77')
    expect(charge.amount.grossInCents).toBe(2500)
  })
})
