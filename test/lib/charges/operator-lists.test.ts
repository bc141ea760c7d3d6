/**
 * The settled list (`charges list --settled-after/--settled-before`, CLI.md 0.4) reads two scans,
 * status=settled and status=refunded, over a real sandbox, while charges move from the first to
 * the second. A forwarder in front of the sandbox holds each answer until the test has refunded
 * what it means to refund at that point, so the refunds land between pages, deterministically:
 * each charge settled in range is listed exactly once, whatever was refunded when.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import type { ApiClient } from '../../../src/lib/api/types.js'
import { listSettled } from '../../../src/lib/services/operator-operations.js'
import { settledBetween } from '../../../src/lib/charges/operator-lists.js'
import type { Charge } from '../../../src/lib/contract/schemas.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { RecordingDeliveries } from '../../../src/lib/sandbox/deliveries/null-sink.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'

const CPF = '52998224725'
const START = Date.parse('2026-11-02T12:00:00.000Z')
const HOP = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']

interface World {
  clock: SandboxClock
  /** Straight to the sandbox: the test's own moves. */
  direct: ApiClient
  /** Through the forwarder: the list under test. */
  via: ApiClient
  /** Called with each request's URL once the sandbox answered it, before the answer goes back. */
  between?: (url: URL) => Promise<void>
  /** The list requests' queries, in order. */
  requests: URLSearchParams[]
}

const open: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close()
})

async function world(): Promise<World> {
  const clock = new SandboxClock({ manual: true, start: START })
  const sb: RunningSandbox = await startSandboxServer({ port: 0, inMemory: true, clock, deliveries: () => new RecordingDeliveries() })
  const w = { clock, requests: [] } as unknown as World
  const forwarder: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && !HOP.includes(k)) headers[k] = v
    const answer = await fetch(new URL(req.url!, sb.baseUrl), { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) })
    const body = Buffer.from(await answer.arrayBuffer())
    const url = new URL(req.url!, sb.baseUrl)
    if (url.pathname === '/v1/charges' && req.method === 'GET') w.requests.push(url.searchParams)
    await w.between?.(url)
    const out: Record<string, string> = {}
    answer.headers.forEach((v, k) => {
      if (!HOP.includes(k)) out[k] = v
    })
    res.writeHead(answer.status, out).end(body)
  })
  await new Promise<void>((r) => forwarder.listen(0, '127.0.0.1', r))
  w.direct = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl, sleep: async () => {} })
  w.via = createClient({ apiKey: sb.testKey, baseUrl: `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`, sleep: async () => {} })
  open.push(async () => {
    await w.via.close()
    await w.direct.close()
    await new Promise((r) => forwarder.close(r))
    await sb.close()
  })
  return w
}

/** `n` settled charges, oldest first; `apart` ms between creations (0: all created at one instant). */
async function settledCharges(w: World, n: number, apart: number): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    if (apart > 0) await w.clock.advance(apart)
    const id = (await w.direct.createCharge({ amountInCents: 1000 + i, payerTaxNumber: CPF })).charge.id
    await w.direct.advanceCharge(id, 'paid_pending_settlement')
    await w.direct.advanceCharge(id, 'settled')
    ids.push(id)
  }
  return ids
}

async function collect(charges: AsyncIterable<Charge>): Promise<Charge[]> {
  const all: Charge[] = []
  for await (const c of charges) all.push(c)
  return all
}

/** Newest created first, by createdAt then id: the list's order. */
const newestFirst = (a: Charge, b: Charge) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)

describe('the settled list while charges are refunded (issue 36)', () => {
  it('lists a charge refunded after the refunded scan passed it and before the settled scan reached it', async () => {
    const w = await world()
    // r0 was refunded long ago; s1…s6 are settled, s6 the newest. With pages of 2 the settled scan
    // reads [s6 s5] [s4 s3] [s2 s1]; s4 is refunded right after the first refunded page is read.
    const [r0] = await settledCharges(w, 1, 60_000)
    await w.direct.advanceCharge(r0!, 'refunded')
    const s = await settledCharges(w, 6, 60_000)
    let moved = false
    w.between = async (url) => {
      if (moved || url.searchParams.get('status') !== 'refunded') return
      moved = true
      await w.direct.advanceCharge(s[3]!, 'refunded')
    }
    const listed = await collect(await listSettled({ pageSize: 2 }, async () => w.via))
    expect(moved).toBe(true)
    expect(listed.map((c) => c.id)).toEqual([...s].reverse().concat(r0!))
    expect(listed.map((c) => c.status)).toEqual(['settled', 'settled', expect.stringMatching(/^(settled|refunded)$/), 'settled', 'settled', 'settled', 'refunded'])
  })

  const schedules: Record<string, (ids: string[]) => string[]> = {
    'oldest first': (ids) => [...ids],
    'newest first': (ids) => [...ids].reverse(),
    'from the middle out': (ids) => ids.map((_, i) => ids[(Math.floor(ids.length / 2) + (i % 2 ? -1 : 1) * Math.ceil(i / 2) + ids.length) % ids.length]!),
  }
  for (const [spread, apart, pageSize] of [
    ['created a minute apart', 60_000, 2],
    ['all created in the same millisecond', 0, 3],
  ] as const) {
    for (const [name, order] of Object.entries(schedules)) {
      it(`${spread}, one refunded after every answer, ${name}, pages of ${pageSize}: each listed once, newest first`, async () => {
        const w = await world()
        const ids = await settledCharges(w, 9, apart)
        const [early] = ids.splice(4, 1)
        await w.direct.advanceCharge(early!, 'refunded')
        const queue = order(ids)
        w.between = async () => {
          const next = queue.shift()
          if (next) await w.direct.advanceCharge(next, 'refunded')
        }
        const listed = await collect(settledBetween(w.via, { lookbackMs: 0 }, pageSize))
        expect(listed.map((c) => c.id).sort()).toEqual([...ids, early!].sort())
        expect(listed).toEqual([...listed].sort(newestFirst))
      })
    }
  }

  it('reads the refunded charges once after the last settled page when no refund happens (pages of 100)', async () => {
    const w = await world()
    const ids = await settledCharges(w, 5, 60_000)
    await w.direct.advanceCharge(ids[1]!, 'refunded')
    const listed = await collect(settledBetween(w.via, { lookbackMs: 0 }))
    expect(listed.map((c) => c.id)).toEqual([...ids].reverse())
    expect(w.requests.map((q) => q.get('status'))).toEqual(['settled', 'refunded'])
  })
})
