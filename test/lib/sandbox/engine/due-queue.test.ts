import { describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { DueQueue } from '../../../../src/lib/sandbox/engine/due-queue.js'

describe('DueQueue', () => {
  it('fires each key once, in due order, at its own instant, behind a single clock timer', async () => {
    const clock = new SandboxClock({ manual: true, start: 0 })
    const fired: Array<[string, number, number]> = []
    const q = new DueQueue(clock, (key, dueAt) => fired.push([key, dueAt, clock.now()]))
    for (let i = 0; i < 1000; i++) q.set(`k${i}`, 1000 + ((i * 7919) % 1000))
    expect(clock.pendingTimers()).toBe(1)
    q.set('k5', 50)
    q.delete('k6')
    await clock.advance(999)
    expect(fired.map((f) => f[0])).toEqual(['k5'])
    await clock.advance(10_000)
    expect(fired).toHaveLength(999)
    const dues = fired.map((f) => f[1])
    expect(dues).toEqual([...dues].sort((a, b) => a - b))
    expect(new Set(fired.map((f) => f[0])).size).toBe(999)
    expect(fired.some((f) => f[0] === 'k6')).toBe(false)
    expect(q.size).toBe(0)
    expect(clock.pendingTimers()).toBe(0)
  })

  it("interleaves with the clock's other timers in due order and stops cleanly", async () => {
    const clock = new SandboxClock({ manual: true, start: 0 })
    const order: string[] = []
    const q = new DueQueue(clock, (key) => order.push(key))
    q.set('a', 10)
    q.set('c', 30)
    clock.schedule(20, () => {
      order.push('b')
    })
    await clock.advance(40)
    expect(order).toEqual(['a', 'b', 'c'])
    q.set('d', 50)
    q.stop()
    await clock.advance(100)
    expect(order).toEqual(['a', 'b', 'c'])
  })
})
