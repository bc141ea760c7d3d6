/**
 * A bare topic shows or lists what it holds, as `svc sandbox deliveries` does, instead of
 * printing help: `svc sandbox clock` = `clock show`, `svc sandbox keys` = `keys list`,
 * `svc sandbox webhook` = `webhook show`, `svc sandbox account` = `account show`, `svc profiles` = `profiles list`, `svc charges` =
 * `charges list` (issue 24 item 17).
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProfileStore } from '../../src/lib/config/store.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { svc } from '../helpers/cli.js'

let sb: RunningSandbox
let env: Record<string, string>

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  const dir = mkdtempSync(join(tmpdir(), 'svc-bare-'))
  env = { SVC_CONFIG_DIR: dir }
  const store = await ProfileStore.open(env)
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
  store.setDefault('sandbox')
  await fetch(`${sb.baseUrl}/_sandbox/webhook`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
  })
  await fetch(`${sb.baseUrl}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '529.982.247-25' }),
  })
})
afterAll(() => sb.close())

describe('a bare topic runs its show or list command (issue 24 item 17)', () => {
  it.each([
    [
      ['sandbox', 'keys'],
      ['sandbox', 'keys', 'list'],
    ],
    [
      ['sandbox', 'webhook'],
      ['sandbox', 'webhook', 'show'],
    ],
    [
      ['sandbox', 'account'],
      ['sandbox', 'account', 'show'],
    ],
    [['profiles'], ['profiles', 'list']],
    [['charges'], ['charges', 'list']],
  ])('svc %j prints what svc %j prints', async (bare, full) => {
    const [a, b] = [await svc(bare, { env }), await svc(full, { env })]
    expect(a.exitCode).toBe(0)
    expect(a.stdout).not.toBe('')
    expect(a.stdout).not.toContain('USAGE')
    expect(a).toEqual(b)
  })

  it('svc sandbox clock shows the clock (piped: its time)', async () => {
    const r = await svc(['sandbox', 'clock'], { env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\n$/)
  })

  it('and keeps the flags of the command it stands for', async () => {
    const r = await svc(['sandbox', 'webhook', '--json'], { env })
    expect(JSON.parse(r.stdout)).toMatchObject({ url: 'http://127.0.0.1:9/hooks' })
  })
})
