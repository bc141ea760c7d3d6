import { describe, expect, it, vi } from 'vitest'
import { PAGE_SIZE, paginate } from '../../../src/lib/api/paginate.js'
import type { ChargeList, ChargeListQuery } from '../../../src/lib/contract/schemas.js'
import { chargeN } from '../../helpers/charges.js'

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

describe('paginate: following pages by cursor (spec 4.2)', () => {
  it('asks for the largest page, follows hasMore with startingAfter = the last id, and yields every charge once', async () => {
    const all = [1, 2, 3, 4, 5].map((n) => chargeN(n))
    const fetchPage = vi.fn(async (q: ChargeListQuery): Promise<ChargeList> => {
      const from = q.startingAfter ? all.findIndex((c) => c.id === q.startingAfter) + 1 : 0
      return { data: all.slice(from, from + 2), hasMore: from + 2 < all.length }
    })
    const ids = (await collect(paginate(fetchPage, { limit: 2 }))).map((c) => c.id)
    expect(ids).toEqual(all.map((c) => c.id))
    expect(fetchPage.mock.calls.map(([q]) => q.startingAfter)).toEqual([undefined, all[1]!.id, all[3]!.id])
    await collect(paginate(async (q) => (expect(q.limit).toBe(PAGE_SIZE), { data: [], hasMore: false })))
  })

  it('stops on an empty page or a repeated cursor even if the server says hasMore, rather than loop forever', async () => {
    const empty = vi.fn(async () => ({ data: [], hasMore: true }))
    expect(await collect(paginate(empty))).toEqual([])
    expect(empty).toHaveBeenCalledTimes(1)
    const same = chargeN(1)
    const stuck = vi.fn(async () => ({ data: [same], hasMore: true }))
    expect(await collect(paginate(stuck))).toHaveLength(2)
    expect(stuck).toHaveBeenCalledTimes(2)
  })
})
