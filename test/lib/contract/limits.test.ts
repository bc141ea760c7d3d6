import { describe, expect, it } from 'vitest'
import { LIMITS } from '../../../src/lib/contract/limits.js'

// The figures of spec part 8, which both the CLI's validation and the sandbox enforce.
describe('the contract limits (spec part 8)', () => {
  it('amounts from R$ 10,00 to R$ 5.000,00, lists of 1 to 100 (20 by default)', () => {
    expect([LIMITS.amountMin, LIMITS.amountMax]).toEqual([1000, 500_000])
    expect([LIMITS.listLimitMin, LIMITS.listLimitDefault, LIMITS.listLimitMax]).toEqual([1, 20, 100])
  })

  it('webhook retries grow step by step and all fit in the 24 h retry window', () => {
    const steps = LIMITS.webhookRetryStepsSeconds
    for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeGreaterThan(steps[i - 1]!)
    expect(steps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(LIMITS.webhookRetryWindowSeconds)
  })
})
