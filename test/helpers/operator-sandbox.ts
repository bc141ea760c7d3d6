/**
 * A sandbox seeded as an operator finds it (CLI.md 0.4), on a manual clock that starts on
 * Monday 2 Nov 2026, 12:00 UTC (09:00 in São Paulo), settlement hold 24 h:
 * - `a` settled 2 Nov 12:00Z (its description tries a spreadsheet formula);
 * - `b` settled 3 Nov 12:00Z; `c` settled 3 Nov 12:00Z then refunded;
 * - `d` settled 4 Nov 01:00Z: 3 Nov in São Paulo, 4 Nov in UTC;
 * - `e` paid 4 Nov 01:00Z with settlements held: at the end (5 Nov 03:00Z) 2 h past its estimate;
 * - `f` never paid: expired (QR valid 1 h).
 * Also a trap server that records any request, where refused commands must send nothing.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { createClient } from '../../src/lib/api/client.js'
import type { ApiClient } from '../../src/lib/api/types.js'
import type { Charge } from '../../src/lib/contract/schemas.js'
import { ProfileStore } from '../../src/lib/config/store.js'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { RecordingDeliveries } from '../../src/lib/sandbox/deliveries/null-sink.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'

export const CPF = '52998224725'
export const SP = 'America/Sao_Paulo'
export const START = Date.parse('2026-11-02T12:00:00.000Z')
const HOUR = 3_600_000

export interface OperatorSandbox {
  sb: RunningSandbox
  clock: SandboxClock
  client: ApiClient
  env: Record<string, string>
  trapEnv: Record<string, string>
  trapped: string[]
  ids: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', string>
  charges: () => Promise<Charge[]>
}

export function useOperatorSandbox(): OperatorSandbox {
  const ctx = { trapped: [] as string[], ids: {} } as unknown as OperatorSandbox
  let trap: Server
  beforeAll(async () => {
    ctx.clock = new SandboxClock({ manual: true, start: START })
    ctx.sb = await startSandboxServer({ port: 0, inMemory: true, clock: ctx.clock, deliveries: () => new RecordingDeliveries() })
    ctx.client = createClient({ apiKey: ctx.sb.testKey, baseUrl: ctx.sb.baseUrl, sleep: async () => {} })
    ctx.env = { SVC_API_KEY: ctx.sb.testKey, SVC_BASE_URL: ctx.sb.baseUrl }
    const store = await ProfileStore.open()
    store.save('sandbox', { apiKey: ctx.sb.testKey, baseUrl: ctx.sb.baseUrl, webhookSecret: ctx.sb.webhookSecret })
    trap = createServer((req, res) => {
      ctx.trapped.push(`${req.method} ${req.url}`)
      res.writeHead(500).end()
    })
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r))
    ctx.trapEnv = { SVC_API_KEY: ctx.sb.testKey, SVC_BASE_URL: `http://127.0.0.1:${(trap.address() as AddressInfo).port}` }

    const c = ctx.client
    const create = async (amountInCents: number, extra: Record<string, unknown> = {}) => (await c.createCharge({ amountInCents, payerTaxNumber: CPF, ...extra })).charge.id
    const settle = async (id: string) => {
      await c.advanceCharge(id, 'paid_pending_settlement')
      await c.advanceCharge(id, 'settled')
    }
    ctx.ids.a = await create(1500, { externalId: 'order-a', description: '=HYPERLINK("http://x","click")' })
    await settle(ctx.ids.a)
    await ctx.clock.advance(24 * HOUR)
    ctx.ids.b = await create(2500, { externalId: 'order-b' })
    await settle(ctx.ids.b)
    ctx.ids.c = await create(10_000, { externalId: 'order-c' })
    await settle(ctx.ids.c)
    await c.advanceCharge(ctx.ids.c, 'refunded')
    await ctx.clock.advance(13 * HOUR)
    ctx.ids.d = await create(123_456, { externalId: 'order-d', metadata: { sku: 'x-1' } })
    await settle(ctx.ids.d)
    ctx.sb.admin!.updateSettings({ holdSettlements: true })
    ctx.ids.e = await create(5000, { externalId: 'order-e' })
    await c.advanceCharge(ctx.ids.e, 'paid_pending_settlement')
    ctx.ids.f = await create(7000, { externalId: 'order-f' })
    await ctx.clock.advance(26 * HOUR)
    ctx.charges = async () => {
      const all: Charge[] = []
      for await (const ch of c.paginateCharges({})) all.push(ch)
      return all
    }
  })
  afterAll(async () => {
    await ctx.client.close()
    await ctx.sb.close()
    await new Promise((r) => trap.close(r))
  })
  return ctx
}
