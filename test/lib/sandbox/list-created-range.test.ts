/**
 * The sandbox's charge listing with both createdAfter and createdBefore across pages: the cursor
 * makes the createdBefore bound redundant past the first page (dropped so SQLite seeks the
 * listing index instead of scanning), and the answer is still exactly the range, newest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import type { ApiClient } from '../../../src/lib/api/types.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { RecordingDeliveries } from '../../../src/lib/sandbox/deliveries/null-sink.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'

const START = Date.parse('2026-11-02T12:00:00.000Z')
let sb: RunningSandbox
let client: ApiClient
const ids: string[] = []

beforeAll(async () => {
  const clock = new SandboxClock({ manual: true, start: START })
  sb = await startSandboxServer({ port: 0, inMemory: true, clock, deliveries: () => new RecordingDeliveries() })
  client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl, sleep: async () => {} })
  for (let i = 0; i < 12; i++) {
    ids.push((await client.createCharge({ amountInCents: 1500 + i, payerTaxNumber: '52998224725' })).charge.id)
    await clock.advance(60_000)
  }
})
afterAll(async () => {
  await client.close()
  await sb.close()
})

describe('listing a created range page by page', () => {
  it('pages of 2 between the 3rd and the 10th minute: exactly those charges, newest first', async () => {
    const seen: string[] = []
    const query = { createdAfter: new Date(START + 2 * 60_000 - 1).toISOString(), createdBefore: new Date(START + 10 * 60_000).toISOString(), limit: 2 }
    for await (const c of client.paginateCharges(query)) seen.push(c.id)
    expect(seen).toEqual(ids.slice(2, 10).reverse())
  })
})
