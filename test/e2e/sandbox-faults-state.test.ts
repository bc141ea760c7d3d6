/**
 * The built CLI, as a user runs it: `svc sandbox start --webhook-faults … --seed N` says what it
 * injects and `svc sandbox deliveries` marks it; `svc sandbox export -o FILE` writes a 0600 file
 * that `svc sandbox start --seed FILE` starts from with the same keys and charges; bad specs,
 * other format versions and used data dirs exit 2 naming the problem.
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type Background, svc, svcBackground } from '../helpers/cli.js'

const config = mkdtempSync(join(tmpdir(), 'svc-faults-state-'))
const baseEnv = { SVC_CONFIG_DIR: config, SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_PROFILE: undefined }
const running: Background[] = []

afterAll(async () => {
  for (const b of running) await b.stop()
})

/** A sandbox in memory; each its own config dir (one in-memory sandbox runs per config dir). */
async function start(args: string[]): Promise<{ bg: Background; env: Record<string, string | undefined> }> {
  const own = { ...baseEnv, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-faults-state-run-')) }
  const bg = await svcBackground(['sandbox', 'start', '--port', '0', '--in-memory', '--no-profile', '--json', ...args], { env: own, timeoutMs: 30_000 })
  running.push(bg)
  const ready = bg.first as { baseUrl: string; testKey: string }
  return { bg, env: { ...own, SVC_BASE_URL: ready.baseUrl, SVC_API_KEY: ready.testKey } }
}

describe('svc sandbox start --webhook-faults', () => {
  it('prints the faults and their seed, and `sandbox deliveries` marks the injected attempts', async () => {
    const received: string[] = []
    const receiver = createServer((req, res) => {
      received.push(String(req.headers['x-svc-event-id']))
      req.resume().on('end', () => res.writeHead(200).end('ok'))
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    try {
      const { bg, env } = await start(['--webhook-faults', 'duplicate=1', '--seed', '42'])
      expect(bg.stderr()).toContain('webhook faults on: duplicate=1 (seed 42; --seed 42 replays them)')
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
      expect((await svc(['sandbox', 'webhook', 'set', url], { env })).exitCode).toBe(0)
      expect((await svc(['charges', 'create', '--amount', '1500', '--payer-tax-number', '529.982.247-25', '-q'], { env })).exitCode).toBe(0)
      await svc(['sandbox', 'clock', 'advance', '1s'], { env })
      const list = await svc(['sandbox', 'deliveries', '--json'], { env })
      const [d] = (JSON.parse(list.stdout) as { data: Array<{ eventId: string; attempts: number; injected?: string[] }> }).data
      expect(d).toMatchObject({ attempts: 2, injected: ['duplicate'] })
      expect(received).toEqual([d!.eventId, d!.eventId])
    } finally {
      receiver.close()
    }
  })

  it('exits 2 naming the part of a bad spec, before anything starts', async () => {
    const r = await svc(['sandbox', 'start', '--in-memory', '--port', '0', '--no-profile', '--webhook-faults', 'duplicate=0.1,lose=2'], { env: baseEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--webhook-faults: lose must be a share from 0 to 1')
    const seedAlone = await svc(['sandbox', 'start', '--in-memory', '--port', '0', '--no-profile', '--seed', '42'], { env: baseEnv })
    expect(seedAlone.exitCode).toBe(2)
    expect(seedAlone.stderr).toContain('--seed 42 is the seed of the webhook faults, and none are on.')
  })
})

describe('svc sandbox export and start --seed FILE', () => {
  it('writes the state 0600 and a new sandbox started from it has the same keys, clock and charges', async () => {
    const first = await start([])
    const created = await svc(['charges', 'create', '--amount', '2500', '--payer-tax-number', '529.982.247-25', '-q'], { env: first.env })
    const chargeId = created.stdout.trim()
    expect((await svc(['sandbox', 'clock', 'advance', '2h'], { env: first.env })).exitCode).toBe(0)

    const file = join(config, 'state.json')
    writeFileSync(file, 'old contents, world-readable', { mode: 0o644 })
    const exported = await svc(['sandbox', 'export', '-o', file, '--json', '--include-live-secrets'], { env: first.env })
    expect(exported.exitCode).toBe(0)
    expect(JSON.parse(exported.stdout)).toMatchObject({ file, format: 'svc-sandbox-state/1', counts: { charges: 1, events: 2 } }) // created, then expired (the QR lives 1 h)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // Piped to stdout: the same state, no terminal warning.
    const piped = await svc(['sandbox', 'export'], { env: first.env })
    expect(JSON.parse(piped.stdout).tables.charges[0].id).toBe(chargeId)
    expect(piped.stderr).toBe('')

    // Both seeds at once: the state file and the faults' seed.
    const second = await start(['--seed', file, '--webhook-faults', 'fail-first=1', '--seed', '9'])
    expect(second.bg.stderr()).toContain('(seed 9; --seed 9 replays them)')
    expect(second.bg.first.testKey).toBe(first.bg.first.testKey)
    expect(second.bg.first.webhookSecret).toBe(first.bg.first.webhookSecret)
    expect(second.bg.first.liveKey).toBe(first.bg.first.liveKey)
    const [a, b] = await Promise.all([svc(['charges', 'get', chargeId, '--json'], { env: first.env }), svc(['charges', 'get', chargeId, '--json'], { env: second.env })])
    const local = (text: string, baseUrl: unknown) => JSON.parse(text.replaceAll(String(baseUrl), 'BASE'))
    expect(local(b.stdout, second.bg.first.baseUrl)).toEqual(local(a.stdout, first.bg.first.baseUrl))
    const clocks = await Promise.all([first.env, second.env].map(async (env) => Date.parse((JSON.parse((await svc(['sandbox', 'clock', 'show', '--json'], { env })).stdout) as { now: string }).now)))
    expect(Math.abs(clocks[1]! - clocks[0]!)).toBeLessThan(60_000)
    expect(clocks[0]! - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000)
  })

  it('exits 2 on another format version, saying which was found and which is supported', async () => {
    const file = join(config, 'future.json')
    writeFileSync(file, JSON.stringify({ format: 'svc-sandbox-state/7', tables: {} }))
    const r = await svc(['sandbox', 'start', '--in-memory', '--port', '0', '--no-profile', '--seed', file], { env: baseEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('found format "svc-sandbox-state/7"; this svc supports svc-sandbox-state/1')
  })
})
