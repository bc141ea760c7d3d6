/**
 * The built binary against a sandbox started by the test, as a user would drive it:
 * create → get → list → advance → cancel → webhooks test, checking outputs and exit codes.
 */
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Background, svc, svcBackground } from '../helpers/cli.js'

let sandbox: Background
let env: Record<string, string>
let hook: Server
const hookBodies: Array<{ type: string; id: string }> = []
const hookWaiters: Array<() => void> = []

/** Resolves when a delivery with this event id has reached the hook (or rejects after 5 s). */
function deliveryOf(eventId: string): Promise<{ type: string; id: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no delivery of ${eventId}`)), 5000)
    const check = () => {
      const found = hookBodies.find((b) => b.id === eventId)
      if (!found) return hookWaiters.push(check)
      clearTimeout(timer)
      resolve(found)
    }
    check()
  })
}

beforeAll(async () => {
  const configDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'))
  env = { SVC_CONFIG_DIR: configDir }
  sandbox = await svcBackground(['sandbox', 'start', '--in-memory', '--port', '0', '--json'], { env })
  hook = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      hookBodies.push(JSON.parse(body))
      res.writeHead(204).end()
      for (const w of hookWaiters.splice(0)) w()
    })
  })
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r))
})

afterAll(async () => {
  await sandbox?.stop()
  hook?.close()
})

describe('svc against the local sandbox (built binary)', () => {
  it('prints the banner as one JSON line with both keys and the secret', () => {
    expect(sandbox.first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(sandbox.first.testKey).toMatch(/^svc_test_/)
    expect(sandbox.first.liveKey).toMatch(/^svc_live_/)
    expect(sandbox.first.webhookSecret).toEqual(expect.any(String))
  })

  it('walks a charge from creation to settled through the sandbox profile', async () => {
    const created = await svc(['charges', 'create', '--amount', '1500', '--external-id', 'e2e-1', '--payer-tax-number', '529.982.247-25', '--json'], { env })
    expect(created.exitCode).toBe(0)
    const charge = JSON.parse(created.stdout)
    expect(charge).toMatchObject({ status: 'awaiting_payment', environment: 'test', amount: { grossInCents: 1500 } })
    expect(charge.id).toMatch(/^[0-9a-f]{24}$/)

    const again = await svc(['charges', 'create', '--amount', '1500', '--external-id', 'e2e-1', '--payer-tax-number', '529.982.247-25', '-q'], { env })
    expect(again.exitCode).toBe(0)
    expect(again.stdout.trim()).toBe(charge.id)

    const listed = await svc(['charges', 'list', '-q', '--external-id', 'e2e-1'], { env })
    expect(listed.stdout.trim()).toBe(charge.id)

    const tsv = await svc(['charges', 'list', '--limit', '5'], { env })
    expect(tsv.stdout.split('\n')[0]!.split('\t')[0]).toBe(charge.id)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(tsv.stdout).not.toMatch(/\u001B\[/)

    const paid = await svc(['test', 'advance', charge.id, '--status', 'paid_pending_settlement', '--json'], { env })
    expect(paid.exitCode).toBe(0)
    expect(JSON.parse(paid.stdout).settlement.paidAt).toEqual(expect.any(String))

    const cancel = await svc(['charges', 'cancel', charge.id], { env })
    expect(cancel.exitCode).toBe(5)
    expect(cancel.stderr).toContain('charge_not_cancelable')

    const settled = await svc(['test', 'advance', charge.id, '--status', 'settled', '--json'], { env })
    expect(JSON.parse(settled.stdout)).toMatchObject({ status: 'settled', settlement: { blockchainTxId: expect.any(String) } })

    const back = await svc(['test', 'advance', charge.id, '--status', 'paid_pending_settlement'], { env })
    expect(back.exitCode).toBe(5)
    expect(back.stderr).toContain('invalid_transition')

    const got = await svc(['charges', 'get', charge.id, '--json'], { env })
    expect(JSON.parse(got.stdout).status).toBe('settled')
  })

  it('cancels ids read from stdin and reports each', async () => {
    const ids: string[] = []
    for (const n of [1, 2]) {
      const r = await svc(['charges', 'create', '--amount', '2000', '--external-id', `e2e-cancel-${n}`, '--payer-tax-number', '52998224725', '-q'], { env })
      ids.push(r.stdout.trim())
    }
    const r = await svc(['charges', 'cancel', '-'], { env, stdin: `${ids.join('\n')}\n` })
    expect(r.exitCode).toBe(0)
    for (const id of ids) expect(r.stdout).toContain(id)
  })

  it('rejects bad input locally with exit 2 and names the field', async () => {
    const r = await svc(['charges', 'create', '--amount', '999', '--payer-tax-number', '52998224725'], { env })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/amount/i)
  })

  it('exits 4 for an unknown charge and 3 for a live key on advance', async () => {
    expect((await svc(['charges', 'get', 'ffffffffffffffffffffffff'], { env })).exitCode).toBe(4)
    const live = await svc(['test', 'advance', 'ffffffffffffffffffffffff', '--status', 'settled', '--profile', 'sandbox-live'], { env })
    expect(live.exitCode).toBe(3)
  })

  it('sends a charge.test delivery to the configured webhook URL', async () => {
    const port = (hook.address() as AddressInfo).port
    const none = await svc(['webhooks', 'test'], { env })
    expect(none.exitCode).toBe(4)
    const set = await svc(['sandbox', 'webhook', 'set', `http://127.0.0.1:${port}/hook`], { env })
    expect(set.exitCode).toBe(0)
    const r = await svc(['webhooks', 'test', '--json'], { env })
    expect(r.exitCode).toBe(0)
    const { eventId } = JSON.parse(r.stdout)
    expect((await deliveryOf(eventId)).type).toBe('charge.test')
  })
})
