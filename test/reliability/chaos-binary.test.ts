/**
 * A sample of chaos-creates.test.ts as real processes: the built `svc charges create` (real
 * backoff, real exit codes, real stderr) against a sandbox with chaos 0.3. 16 runs, 4 at a time,
 * so it stays within seconds on a 2-core machine; the in-process test carries the volume.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/lib/api/client.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { type CliResult, svc } from '../helpers/cli.js'
import { startChaosSandbox } from '../helpers/chaos-sandbox.js'
import { DOCUMENTED_EXITS, pool, STACK_TRACE } from '../helpers/reliability.js'

const RUNS = 16
let sb: RunningSandbox
let env: Record<string, string>

beforeAll(async () => {
  sb = await startChaosSandbox({ seed: 0xb1, slowMs: 100 })
  env = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl, SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-chaos-bin-')) }
})

afterAll(async () => {
  await sb?.close()
})

describe('the built binary under chaos 0.3', () => {
  it(`${RUNS} runs of svc charges create: each ends 0 or with a documented code and a readable error, and reruns never make a second charge`, async () => {
    const results: CliResult[] = []
    const create = (i: number) => svc(['charges', 'create', '--amount', String(3000 + i), '--external-id', `bin-order-${i}`, '--payer-tax-number', '529.982.247-25', '-q'], { env, timeoutMs: 30_000 })
    const ids = await pool(
      Array.from({ length: RUNS }, (_, i) => i),
      4,
      async (i) => {
        // A user runs the same command again until it succeeds (safe: the externalId).
        for (let run = 0; run < 5; run++) {
          const r = await create(i)
          results.push(r)
          if (r.exitCode === 0) return r.stdout.trim()
        }
        throw new Error(`bin-order-${i} never succeeded`)
      },
    )

    for (const r of results) {
      expect(DOCUMENTED_EXITS.has(r.exitCode), `exit ${r.exitCode}: ${r.stderr}`).toBe(true)
      expect(r.stderr).not.toMatch(STACK_TRACE)
      if (r.exitCode === 0) {
        expect(r.stdout).toMatch(/^[0-9a-f]{24}\n$/)
      } else {
        expect(r.stderr).toMatch(/Error \[[a-z_]+\]: /)
        expect(r.stdout).toBe('')
      }
    }
    expect(new Set(ids).size).toBe(RUNS)

    // Read back without chaos in the way: each order exists once, with the id the run printed.
    const client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl, sleep: async () => {} })
    try {
      for (let i = 0; i < RUNS; i++) {
        let list: Awaited<ReturnType<typeof client.listCharges>> | undefined
        for (let attempt = 0; !list && attempt < 10; attempt++) list = await client.listCharges({ externalId: `bin-order-${i}` }).catch(() => undefined)
        expect(list!.data.map((c) => c.id)).toEqual([ids[i]])
      }
    } finally {
      await client.close()
    }
  }, 60_000)
})
