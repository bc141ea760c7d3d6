import { describe, expect, it } from 'vitest'
import { InputError } from '../../../src/lib/charges/operator-input.js'
import { listOverdue, reportCharges, reportSettlements } from '../../../src/lib/services/operator-operations.js'
import type { ApiClient } from '../../../src/lib/api/types.js'

const SERVICE_NOW = new Date('2026-11-29T12:00:00Z')

/** A service three days ahead of this machine, holding no charges. */
function fakeService() {
  const queries: unknown[] = []
  const client = {
    listCharges: async (q: unknown) => {
      queries.push(q)
      return { object: 'list', data: [], hasMore: false }
    },
    paginateCharges: (q: unknown) => {
      queries.push(q)
      return (async function* () {})()
    },
    serverNow: () => SERVICE_NOW,
  } as unknown as ApiClient
  return { queries, client: async () => client }
}

describe('operator operations take a typed input and read it on the service clock (issue 40.1)', () => {
  it('a report whose days count back is read on the service clock, once its Date header is read', async () => {
    const s = fakeService()
    const ranges: unknown[] = []
    const report = await reportCharges({ from: 'yesterday', to: 'today', timeZone: 'UTC' }, s.client, { onRange: (r) => void ranges.push(r) })
    expect(ranges).toEqual([{ from: new Date('2026-11-28T00:00:00Z'), to: new Date('2026-11-30T00:00:00Z'), by: 'day', timeZone: 'UTC' }])
    expect(report.periods).toHaveLength(2)
    expect(s.queries[0]).toEqual({ limit: 1 })
  })
  it('a bad input is an InputError naming the field, and nothing is sent', async () => {
    const s = fakeService()
    const error = await reportSettlements({ from: 'soon', to: 'today', timeZone: 'Nowhere/Else' }, s.client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).issues.map((i) => i.path)).toEqual(['timeZone', 'from'])
    expect(s.queries).toEqual([])
  })
  it('the overdue list counts lateness on the service clock', async () => {
    const s = fakeService()
    expect(await listOverdue({ graceMs: 60_000 }, s.client)).toEqual([])
  })
})
