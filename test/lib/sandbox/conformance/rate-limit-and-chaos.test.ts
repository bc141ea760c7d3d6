/** Per-key rate limiting (429 rate_limited + Retry-After) and seeded --chaos that never loses a charge. */
import { afterEach, describe, expect, it } from 'vitest'
import { errorOf, type Harness, type Reply, startHarness } from '../../../helpers/conformance.js'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('rate limiting', () => {
  it('answers 429 rate_limited with Retry-After once a key exceeds its rate, per key', async () => {
    h = await startHarness({ rateLimitPerSecond: 3 })
    const sb = h
    const burst = await Promise.all(Array.from({ length: 10 }, () => sb.call('GET', '/v1/account')))
    const limited = burst.filter((r) => r.status === 429)
    expect(burst.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3)
    expect(limited.length).toBeGreaterThanOrEqual(1)
    for (const r of limited) {
      expect(errorOf(r).code).toBe('rate_limited')
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    }
    // Another key has its own budget; the unauthenticated info route is not limited.
    expect((await sb.call('GET', '/v1/account', { key: sb.sb.liveKey })).status).toBe(200)
    expect((await sb.call('GET', '/_sandbox/info', { key: null })).status).toBe(200)
  })
})

describe('chaos', () => {
  it('injects 500 internal_error, 503 provider_unavailable and dropped connections, and a retrying client gets each charge exactly once', async () => {
    h = await startHarness({ chaos: 0.5, chaosSeed: 7, chaosSlowMs: 5 })
    const sb = h
    const seen = { internal_error: 0, provider_unavailable: 0, dropped: 0 }
    /** A client that retries with the same Idempotency-Key, as the CLI does (bounded). */
    const retrying = async (send: () => Promise<Reply>): Promise<Reply> => {
      for (let attempt = 0; attempt < 40; attempt++) {
        let r: Reply
        try {
          r = await send()
        } catch {
          seen.dropped++
          continue
        }
        if (r.status === 500 || r.status === 503) {
          const code = errorOf(r).code as 'internal_error' | 'provider_unavailable'
          expect(r.status).toBe(code === 'internal_error' ? 500 : 503)
          seen[code]++
          continue
        }
        return r
      }
      throw new Error('no success in 40 attempts')
    }

    const idsByKey = new Map<string, string>()
    for (let i = 0; i < 12; i++) {
      const key = `chaos-${i}`
      const r = await retrying(() => sb.create({ amountInCents: 1000 + i }, { headers: { 'idempotency-key': key } }))
      expect([200, 201]).toContain(r.status)
      expect(r.body.amount.grossInCents).toBe(1000 + i)
      idsByKey.set(key, r.body.id)
      // Asking again with the same key always finds that same charge.
      const again = await retrying(() => sb.create({ amountInCents: 1000 + i }, { headers: { 'idempotency-key': key } }))
      expect(again.status).toBe(200)
      expect(again.body.id).toBe(r.body.id)
    }
    const list = await retrying(() => sb.call('GET', '/v1/charges?limit=100'))
    expect(list.body.data.map((c: { id: string }) => c.id).sort()).toEqual([...idsByKey.values()].sort())
    expect(seen.internal_error).toBeGreaterThan(0)
    expect(seen.provider_unavailable).toBeGreaterThan(0)
    expect(seen.dropped).toBeGreaterThan(0)
  })

  it('leaves the unauthenticated info route alone', async () => {
    h = await startHarness({ chaos: 1, chaosSeed: 1 })
    for (let i = 0; i < 5; i++) expect((await h.call('GET', '/_sandbox/info', { key: null })).status).toBe(200)
  })
})
