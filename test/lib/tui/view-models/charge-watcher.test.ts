import { describe, expect, it, vi } from 'vitest'
import { ChargeWatcher } from '../../../../src/lib/tui/view-models/charge-watcher.js'
import { charge, fakeApi } from '../../../helpers/watch-api.js'

const A = 'a'.repeat(24)
const B = 'b'.repeat(24)

describe('ChargeWatcher', () => {
  it('reports each charge once, then only its status changes', async () => {
    const states: Record<string, string> = { [A]: 'awaiting_payment' }
    const w = new ChargeWatcher({ client: fakeApi(states), ids: [A] })
    expect((await w.poll()).map((c) => [c.charge.status, c.from])).toEqual([['awaiting_payment', undefined]])
    expect(await w.poll()).toEqual([])
    states[A] = 'paid_pending_settlement'
    expect((await w.poll()).map((c) => [c.charge.status, c.from])).toEqual([['paid_pending_settlement', 'awaiting_payment']])
    expect(w.getSnapshot().lanes[0]!.current).toBe('paid_pending_settlement')
  })

  it('with named charges runs until every one is final, and names the ones that do not exist', async () => {
    const states: Record<string, string> = { [A]: 'awaiting_payment' }
    const sleep = vi.fn(async () => {
      states[A] = states[A] === 'awaiting_payment' ? 'paid_pending_settlement' : 'settled'
    })
    const w = new ChargeWatcher({ client: fakeApi(states), ids: [A, B], sleep })
    const seen: string[] = []
    await w.run(new AbortController().signal, (changes) => seen.push(...changes.map((c) => c.charge.status)), true)
    expect(seen).toEqual(['awaiting_payment', 'paid_pending_settlement', 'settled'])
    expect(sleep).toHaveBeenCalledTimes(2)
    expect(w.getSnapshot().missing).toEqual([B])
  })

  it('watching the newest N shows N lanes: a new charge pushes the oldest out', async () => {
    const ids = [1, 2, 3, 4, 5, 6].map((n) => String(n).repeat(24))
    let newest = 5
    const api = {
      getCharge: vi.fn(),
      listCharges: vi.fn(async ({ limit }: { limit?: number }) => ({
        data: ids
          .slice(0, newest)
          .reverse()
          .slice(0, limit)
          .map((id) => charge(id, 'awaiting_payment')),
        hasMore: newest > (limit ?? 10),
      })),
    }
    const w = new ChargeWatcher({ client: api, recent: 5 })
    await w.poll()
    expect(
      w
        .getSnapshot()
        .lanes.map((l) => l.chargeId)
        .sort(),
    ).toEqual(ids.slice(0, 5))
    newest = 6
    await w.poll()
    expect(
      w
        .getSnapshot()
        .lanes.map((l) => l.chargeId)
        .sort(),
    ).toEqual(ids.slice(1, 6))
    expect(Object.keys(w.getSnapshot().charges).sort()).toEqual(ids.slice(1, 6))
  })

  it('keeps a poll failure as a visible error and goes on', async () => {
    const api = fakeApi({ [A]: 'awaiting_payment' })
    api.listCharges.mockRejectedValueOnce(new Error('connection refused'))
    const w = new ChargeWatcher({ client: api })
    await w.poll()
    expect(w.getSnapshot().error).toBe('connection refused')
    await w.poll()
    expect(w.getSnapshot().error).toBeUndefined()
    expect(w.getSnapshot().lanes).toHaveLength(1)
  })
})
