/**
 * No second charge under faults: 500 creations through the real client (the one every command
 * uses) against the sandbox with chaos 0.3 — 500/503 answers, dropped connections, slow answers
 * and answers lost after the charge was made. Run in-process (not 500 processes) so the whole
 * file takes seconds; the client's backoff sleeps are scaled down 50×, its retry decisions are
 * untouched. A sample through the built binary is in chaos-binary.test.ts.
 */
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderError } from '../../src/lib/command-kit/base.js'
import { createClient } from '../../src/lib/api/client.js'
import type { ApiClient } from '../../src/lib/api/types.js'
import { CliError } from '../../src/lib/errors.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { startChaosSandbox } from '../helpers/chaos-sandbox.js'
import { DOCUMENTED_EXITS, pool, STACK_TRACE } from '../helpers/reliability.js'
import { testIO } from '../helpers/test-io.js'

const N = 500
/** Of the N, this many carry no externalId: only the Idempotency-Key protects them. */
const KEY_ONLY = 100
const CPF = '52998224725'
// Amounts 2000…2499 stay clear of the sandbox's simulated refusals (R$ 14,02 and R$ 14,03).

let sb: RunningSandbox
let client: ApiClient
const retries = { count: 0 }

beforeAll(async () => {
  sb = await startChaosSandbox({ seed: 0x5eed, slowMs: 20 })
  client = createClient({
    apiKey: sb.testKey,
    baseUrl: sb.baseUrl,
    timeoutMs: 5_000,
    sleep: (ms) => delay(Math.ceil(ms / 50)),
    debug: (line) => {
      if (line.includes('(retrying in')) retries.count++
    },
  })
})

afterAll(async () => {
  await client?.close()
  await sb?.close()
})

/** What a user sees for a failed run: the exit code and stderr of the one catch in BaseCommand. */
function asUserSees(err: unknown): { exitCode: number; stderr: string } {
  expect(err, 'only typed errors reach the catch').toBeInstanceOf(CliError)
  const { io, err: stderr } = testIO({ noColor: true })
  const { exitCode } = renderError(err as Error, io, false)
  return { exitCode, stderr: stderr() }
}

describe('charges create under chaos 0.3', () => {
  it(`${N} creations → exactly ${N} charges, none twice; every failure is a documented exit without a stack trace`, async () => {
    const idOf = new Map<number, string>()
    const failures: Array<{ exitCode: number; stderr: string }> = []
    let created = 0

    await pool(
      Array.from({ length: N }, (_, i) => i),
      25,
      async (i) => {
        const keyOnly = i < KEY_ONLY
        const body = { amountInCents: 2000 + i, payerTaxNumber: CPF, ...(keyOnly ? {} : { externalId: `chaos-order-${i}` }) }
        // As a user would: run again after a failure. With an externalId a plain rerun is safe (a
        // fresh Idempotency-Key each run); without one, the hint says to reuse the key.
        const sharedKey = `chaos-key-${i}`
        for (let run = 0; run < 8; run++) {
          try {
            const r = await client.createCharge(body, { idempotencyKey: keyOnly ? sharedKey : `run-${run}-${i}` })
            if (r.created) created++
            idOf.set(i, r.charge.id)
            return
          } catch (err) {
            failures.push(asUserSees(err))
          }
        }
        throw new Error(`creation ${i} never succeeded in 8 runs`)
      },
    )

    expect(retries.count, 'chaos actually made the client retry').toBeGreaterThan(N * 0.2)
    for (const f of failures) {
      expect(DOCUMENTED_EXITS.has(f.exitCode)).toBe(true)
      expect([1, 5, 6, 7]).toContain(f.exitCode)
      expect(f.stderr).toMatch(/^Error \[[a-z_]+\]: .+/)
      expect(f.stderr).toMatch(/Hint: /)
      expect(f.stderr).not.toMatch(STACK_TRACE)
    }

    // The authority: every charge of the environment, read page by page (GETs are retried too;
    // a listing cut short by faults is simply read again).
    let all: Array<{ id: string; externalId?: string; amount: { grossInCents: number } }> = []
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        all = []
        for await (const c of client.paginateCharges({ limit: 100 })) all.push(c)
        break
      } catch (err) {
        expect(err).toBeInstanceOf(CliError)
      }
    }
    expect(all).toHaveLength(N)
    expect(new Set(all.map((c) => c.id)).size).toBe(N)
    expect(new Set(all.map((c) => c.amount.grossInCents)).size, 'one charge per creation').toBe(N)
    // A lost answer makes the retry get the original (200), so fewer than N saw a 201; never more.
    expect(created).toBeLessThanOrEqual(N)
    expect(created).toBeGreaterThan(N / 2)
    const byAmount = new Map(all.map((c) => [c.amount.grossInCents, c]))
    for (let i = 0; i < N; i++) {
      const c = byAmount.get(2000 + i)!
      expect(c.id).toBe(idOf.get(i))
      expect(c.externalId).toBe(i < KEY_ONLY ? undefined : `chaos-order-${i}`)
    }
  })
})
