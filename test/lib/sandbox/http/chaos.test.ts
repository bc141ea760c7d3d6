import { describe, expect, it } from 'vitest'
import { Chaos, type ChaosFault } from '../../../../src/lib/sandbox/http/chaos.js'

const faults = (chaos: Chaos, n: number, retrySafe: boolean) => Array.from({ length: n }, () => chaos.pick({ method: 'POST', retrySafe }))

describe('--chaos RATE', () => {
  it('injects nothing at rate 0', () => {
    const chaos = new Chaos({ rate: 0, seed: 1 })
    expect(chaos.enabled).toBe(false)
    expect(faults(chaos, 100, true).every((f) => f === undefined)).toBe(true)
  })

  it('replays the same faults for the same seed, so a failing run can be repeated', () => {
    expect(faults(new Chaos({ rate: 0.5, seed: 42 }), 50, true)).toEqual(faults(new Chaos({ rate: 0.5, seed: 42 }), 50, true))
  })

  it('injects about RATE of the time, and loses a response only where the client can safely retry', () => {
    const unsafe = faults(new Chaos({ rate: 0.3, seed: 7 }), 2000, false)
    const hit = unsafe.filter((f) => f !== undefined).length / unsafe.length
    expect(hit).toBeGreaterThan(0.25)
    expect(hit).toBeLessThan(0.35)
    expect(unsafe).not.toContain('lost_response')
    const safe = new Set<ChaosFault | undefined>(faults(new Chaos({ rate: 1, seed: 7 }), 500, true))
    expect(safe).toContain('lost_response')
  })
})
