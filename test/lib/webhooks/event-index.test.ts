import { describe, expect, it } from 'vitest'
import { EventIndex, hashId } from '../../../src/lib/webhooks/event-index.js'

describe('EventIndex', () => {
  it('says "no mark" exactly, counts a mark per target, and forgets pruned ones', () => {
    const index = new EventIndex()
    expect(index.mayHave('evt_a')).toBe(false)
    index.add('evt_a')
    index.add('evt_a')
    index.add('evt_b')
    expect([index.mayHave('evt_a'), index.mayHave('evt_b'), index.mayHave('evt_c'), index.marks]).toEqual([true, true, false, 3])
    index.remove('evt_a')
    expect([index.mayHave('evt_a'), index.marks]).toEqual([true, 2])
    index.remove('evt_a')
    index.remove('evt_never')
    expect([index.mayHave('evt_a'), index.marks]).toEqual([false, 1])
  })

  it('keeps the newest seq it saw', () => {
    const index = new EventIndex()
    for (const seq of [3, 9, 4]) index.saw(seq)
    expect(index.lastSeq).toBe(9)
  })

  it('hashes to small integers that tell event ids apart', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `evt_${i.toString(36)}${'x'.repeat(i % 7)}`)
    const hashes = new Set(ids.map(hashId))
    for (const h of hashes) expect(Number.isInteger(h) && h >= 0 && h < 2 ** 30).toBe(true)
    // 20 000 ids in 2^30 values: a collision or two at most.
    expect(hashes.size).toBeGreaterThanOrEqual(ids.length - 2)
    expect(hashId('evt_a')).toBe(hashId('evt_a'))
  })
})
