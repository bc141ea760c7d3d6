import { describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { DueTimers, nextRetryAt, ResourceLanes, windowEnd } from '../../../../src/lib/sandbox/deliveries/schedule.js'

const S = 1000
const T0 = Date.parse('2026-11-22T12:00:00Z')

describe('the retry policy (spec 6.4)', () => {
  it('retries 10 s, then 30 s, then 2 min after each failed attempt', () => {
    expect(nextRetryAt(1, T0, T0)).toBe(T0 + 10 * S)
    expect(nextRetryAt(2, T0 + 20 * S, T0)).toBe(T0 + 50 * S)
    expect(nextRetryAt(3, T0 + 60 * S, T0)).toBe(T0 + 180 * S)
  })

  it('stops when the steps run out or the next try would fall past the 24 h window', () => {
    expect(nextRetryAt(10, T0, T0)).toBeUndefined()
    expect(windowEnd(T0)).toBe(T0 + 24 * 3600 * S)
    expect(nextRetryAt(9, windowEnd(T0) - 60 * S, T0)).toBeUndefined()
  })
})

describe('DueTimers: work due on the sandbox clock', () => {
  it('fires in due order when the clock gets there, and skips work that was superseded', async () => {
    const clock = new SandboxClock({ manual: true, start: T0 })
    const timers = new DueTimers(clock)
    const fired: string[] = []
    timers.add(T0 + 30 * S, () => fired.push('b'))
    timers.add(T0 + 10 * S, () => fired.push('a'))
    timers.add(
      T0 + 20 * S,
      () => fired.push('superseded'),
      () => false,
    )
    expect(timers.arm()).toBe(false)
    await clock.advance(15 * S)
    expect(fired).toEqual(['a'])
    await clock.advance(60 * S)
    expect(fired).toEqual(['a', 'b'])
    timers.stop()
  })

  it('fires nothing after stop', async () => {
    const clock = new SandboxClock({ manual: true, start: T0 })
    const timers = new DueTimers(clock)
    let fired = false
    timers.add(T0 + S, () => {
      fired = true
    })
    timers.arm()
    timers.stop()
    await clock.advance(10 * S)
    expect(fired).toBe(false)
  })
})

describe('ResourceLanes: one resource’s first attempts in order', () => {
  it('sends a charge’s second event only once the first was answered, while other charges go at once', async () => {
    const lanes = new ResourceLanes<string>()
    const started: string[] = []
    const answers = new Map<string, () => void>()
    const run = (item: string) =>
      new Promise<void>((resolve) => {
        started.push(item)
        answers.set(item, resolve)
      })
    const tracked: Promise<void>[] = []
    const track = (p: Promise<void>) => void tracked.push(p)
    lanes.enqueue('charge:a', 'a.paid', run, track, () => false)
    lanes.enqueue('charge:a', 'a.settled', run, track, () => false)
    lanes.enqueue('charge:b', 'b.paid', run, track, () => false)
    lanes.enqueue(undefined, 'account.event', run, track, () => false)
    expect(started).toEqual(['a.paid', 'b.paid', 'account.event'])
    answers.get('a.paid')!()
    await tracked[0]
    expect(started).toEqual(['a.paid', 'b.paid', 'account.event', 'a.settled'])
  })
})
