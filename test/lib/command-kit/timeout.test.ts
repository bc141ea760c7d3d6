import { describe, expect, it } from 'vitest'
import { timeoutFlagMs } from '../../../src/lib/command-kit/timeout.js'
import { UsageError } from '../../../src/lib/errors.js'

describe('--timeout', () => {
  it('takes a duration or whole seconds', () => {
    expect(timeoutFlagMs('30s')).toBe(30_000)
    expect(timeoutFlagMs('2m')).toBe(120_000)
    expect(timeoutFlagMs('45')).toBe(45_000)
  })

  it('refuses zero and text that is no duration, naming the flag (exit 2)', () => {
    for (const bad of ['0', 'soon', '']) {
      const err = (() => {
        try {
          timeoutFlagMs(bad)
        } catch (e) {
          return e
        }
      })()
      expect(err).toBeInstanceOf(UsageError)
      expect((err as UsageError).message).toContain('--timeout')
      expect((err as UsageError).exitCode).toBe(2)
    }
  })
})
