import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxTarget } from '../../../src/lib/command-kit/sandbox-target.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import { runSandboxReset, type SandboxResetOptions } from '../../../src/lib/services/sandbox-reset.js'
import type { RunInfo } from '../../../src/lib/sandbox-client/runfile.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function onDisk(dataDir: string): SandboxTarget {
  return { dir: dataDir, dataDir, inMemory: false, args: ` --data ${dataDir}` }
}

function options(over: Partial<SandboxResetOptions>): SandboxResetOptions {
  return {
    target: onDisk('/nonexistent'),
    state: { kind: 'none' },
    yes: true,
    canPrompt: false,
    confirm: async () => true,
    panel: async () => {
      throw new Error('no panel expected')
    },
    ...over,
  }
}

async function stoppedSandboxWithACharge(): Promise<{ dataDir: string; testKey: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-reset-'))
  dirs.push(dataDir)
  const sandbox = await startSandboxServer({ port: 0, dataDir, log: () => {} })
  const res = await fetch(`${sandbox.baseUrl}/v1/charges`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amountInCents: 1500, payerTaxNumber: '12345678909' }),
  })
  expect(res.status).toBe(201)
  const { id } = (await res.json()) as { id: string }
  await sandbox.close()
  expect(id).toMatch(/^[0-9a-f]{24}$/)
  return { dataDir, testKey: sandbox.testKey }
}

/** How many test charges the sandbox of this data dir holds, read with the key it had before. */
async function chargeCount(dataDir: string, testKey?: string): Promise<number> {
  const sandbox = await startSandboxServer({ port: 0, dataDir, log: () => {} })
  try {
    const res = await fetch(`${sandbox.baseUrl}/v1/charges?limit=100`, { headers: { authorization: `Bearer ${testKey ?? sandbox.testKey}` } })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: unknown[] }).data.length
  } finally {
    await sandbox.close()
  }
}

describe('runSandboxReset', () => {
  it('empties a stopped sandbox on disk, keeping its keys', async () => {
    const { dataDir, testKey } = await stoppedSandboxWithACharge()
    expect(await chargeCount(dataDir)).toBe(1)
    const r = await runSandboxReset(options({ target: onDisk(dataDir) }))
    expect(r).toEqual({ reset: true, running: false, where: `the sandbox data in ${dataDir}` })
    expect(await chargeCount(dataDir, testKey)).toBe(0)
  })

  it('without --yes and no terminal: exit 2 naming --yes, nothing emptied', async () => {
    const { dataDir } = await stoppedSandboxWithACharge()
    await expect(runSandboxReset(options({ target: onDisk(dataDir), yes: false }))).rejects.toMatchObject({ exitCode: 2, details: [{ field: 'yes' }] })
    expect(await chargeCount(dataDir)).toBe(1)
  })

  it('a "no" at the prompt changes nothing', async () => {
    const { dataDir } = await stoppedSandboxWithACharge()
    const asked: string[] = []
    const r = await runSandboxReset(options({ target: onDisk(dataDir), yes: false, canPrompt: true, confirm: async (q) => (asked.push(q), false) }))
    expect(r.reset).toBe(false)
    expect(asked[0]).toContain(dataDir)
    expect(await chargeCount(dataDir)).toBe(1)
  })

  it('a data dir with no database, or an in-memory sandbox that is not running: a usage error naming the flag', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-reset-'))
    dirs.push(empty)
    await expect(runSandboxReset(options({ target: onDisk(empty) }))).rejects.toMatchObject({ exitCode: 2, details: [{ field: 'data' }] })
    const inMemory: SandboxTarget = { dir: empty, inMemory: true, args: ' --in-memory' }
    await expect(runSandboxReset(options({ target: inMemory }))).rejects.toMatchObject({ exitCode: 2, details: [{ field: 'in-memory' }] })
  })

  it('a running sandbox is reset through its panel, and only when the credentials point at it', async () => {
    const info = { pid: 1, baseUrl: 'http://127.0.0.1:41234', startedAt: '', version: '', detached: false } as RunInfo
    let resets = 0
    const panel = (baseUrl: string) => async () => ({ baseUrl, reset: async () => void resets++ })
    const running = { kind: 'running', info } as const
    expect(await runSandboxReset(options({ state: running, panel: panel('http://127.0.0.1:41234/') }))).toMatchObject({ reset: true, running: true })
    expect(resets).toBe(1)
    await expect(runSandboxReset(options({ state: running, panel: panel('http://127.0.0.1:9999') }))).rejects.toThrow(/points at http:\/\/127.0.0.1:9999/)
    expect(resets).toBe(1)
  })
})
