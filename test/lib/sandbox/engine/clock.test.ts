/**
 * The sandbox clock's advance walks through time (issue 36.5): each timer runs at its own
 * instant, the work it hands to `hold` ends before the next timer, and what that work schedules
 * within the advance runs in the same advance, in order.
 */
import { describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)

describe('SandboxClock.advance', () => {
  it('reads each timer’s instant while it runs, and the target after', async () => {
    const clock = new SandboxClock({ manual: true, start: T0 })
    const seen: number[] = []
    clock.schedule(T0 + 1_000, () => void seen.push(clock.now()))
    clock.schedule(T0 + 5_000, () => void seen.push(clock.now()))
    await clock.advance(10_000)
    expect(seen).toEqual([T0 + 1_000, T0 + 5_000])
    expect(clock.now()).toBe(T0 + 10_000)
  })

  it('waits for held work before the next timer, and runs what that work scheduled, in order', async () => {
    const clock = new SandboxClock({ manual: true, start: T0 })
    const order: string[] = []
    clock.schedule(T0 + 1_000, () => {
      expect(clock.advancing).toBe(true)
      clock.hold(
        (async () => {
          await new Promise((r) => setTimeout(r, 20))
          order.push('answer 1')
          // A retry 10 s later, scheduled only once the answer came: before the 30 s timer.
          clock.schedule(clock.now() + 10_000, () => void order.push(`retry at ${(clock.now() - T0) / 1000}`))
        })(),
      )
    })
    clock.schedule(T0 + 30_000, () => void order.push(`other at ${(clock.now() - T0) / 1000}`))
    await clock.advance(60_000)
    expect(order).toEqual(['answer 1', 'retry at 11', 'other at 30'])
    expect(clock.advancing).toBe(false)
  })

  it('a second advance asked while the first runs starts from the first one’s target', async () => {
    const clock = new SandboxClock({ manual: true, start: T0 })
    clock.schedule(T0 + 1_000, () => clock.hold(new Promise((r) => setTimeout(r, 20))))
    await Promise.all([clock.advance(10_000), clock.advance(5_000)])
    expect(clock.now()).toBe(T0 + 15_000)
  })

  it('outside an advance, held work is not waited for (a wall-clock wake-up never stalls on a slow receiver)', async () => {
    const clock = new SandboxClock({ manual: true, start: T0 })
    let release: () => void = () => {}
    clock.hold(new Promise<void>((r) => (release = r)))
    expect(clock.advancing).toBe(false)
    await clock.tick()
    release()
  })
})
