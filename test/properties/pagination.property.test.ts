/**
 * Cursor pagination (spec 4.2) through the client's paginate, against the sandbox over HTTP,
 * while other charges are being created at the same time: every charge that existed when the
 * listing began is yielded exactly once, nothing is yielded twice, and the order stays newest
 * first. Runs: page sizes 1–7, 0–30 charges, inserts with equal or later creation times.
 */
import fc from 'fast-check'
import nock from 'nock'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/lib/api/client.js'
import { paginate } from '../../src/lib/api/paginate.js'
import type { ChargeListQuery } from '../../src/lib/contract/schemas.js'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'

const CPF = '52998224725'

describe('pagination under concurrent inserts (property)', () => {
  // Only loopback, to a sandbox this file starts: nock's interceptor is not needed here, and it
  // holds every POST body for ~50 ms, which made 25 runs brush against the timeout.
  beforeAll(() => nock.restore())
  afterAll(() => nock.activate())

  it('yields each pre-existing charge exactly once, none twice, newest first', async () => {
    const plan = fc.record({
      initial: fc.integer({ min: 0, max: 30 }),
      limit: fc.integer({ min: 1, max: 7 }),
      // Before page k is fetched: create `count` charges concurrently with the fetch, after moving the clock by `advanceMs` (0: same instant).
      inserts: fc.array(fc.record({ page: fc.nat({ max: 8 }), count: fc.integer({ min: 1, max: 3 }), advanceMs: fc.constantFrom(0, 0, 1, 1000) }), { maxLength: 5 }),
      steps: fc.array(fc.constantFrom(0, 1, 500), { minLength: 30, maxLength: 30 }),
    })
    await fc.assert(
      fc.asyncProperty(plan, async ({ initial, limit, inserts, steps }) => {
        const clock = new SandboxClock({ manual: true, start: Date.parse('2026-11-22T12:00:00Z') })
        const sb = await startSandboxServer({ port: 0, inMemory: true, clock, rateLimitPerSecond: 1_000_000 })
        const client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl })
        try {
          let n = 0
          const create = async () => (await client.createCharge({ amountInCents: 2000 + n++, payerTaxNumber: CPF })).charge.id
          const before = new Set<string>()
          for (let i = 0; i < initial; i++) {
            await clock.advance(steps[i]!)
            before.add(await create())
          }
          let page = 0
          const fetchPage = async (q: ChargeListQuery) => {
            const due = inserts.filter((x) => x.page === page)
            page++
            for (const x of due) await clock.advance(x.advanceMs)
            const [list] = await Promise.all([client.listCharges(q), ...due.flatMap((x) => Array.from({ length: x.count }, create))])
            return list
          }
          const seen: Array<{ id: string; createdAt: string }> = []
          for await (const c of paginate(fetchPage, { limit })) seen.push({ id: c.id, createdAt: c.createdAt })

          const ids = seen.map((c) => c.id)
          expect(new Set(ids).size, 'no charge twice').toBe(ids.length)
          for (const id of before)
            expect(
              ids.filter((x) => x === id),
              `pre-existing ${id} once`,
            ).toHaveLength(1)
          for (let i = 1; i < seen.length; i++) expect(seen[i]!.createdAt <= seen[i - 1]!.createdAt).toBe(true)
        } finally {
          await client.close()
          await sb.close()
        }
      }),
      { numRuns: 25 },
    )
  }, 60_000)
})
