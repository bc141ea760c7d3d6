/** `--wait STATE [--wait-timeout D]` read into the typed wait, or refused before any request. */
import { describe, expect, it } from 'vitest'
import { waitInputFromFlags } from '../../../src/lib/command-kit/wait-flags.js'
import { UsageError } from '../../../src/lib/errors.js'

describe('waitInputFromFlags', () => {
  it('reads the state and the timeout, keeping the timeout as typed for the messages', () => {
    expect(waitInputFromFlags({ wait: 'settled', 'wait-timeout': '90s' })).toEqual({ until: 'settled', timeoutMs: 90_000, timeoutText: '90s' })
    expect(waitInputFromFlags({ wait: 'settled' })).toEqual({ until: 'settled', timeoutMs: 600_000, timeoutText: '10m' })
  })

  it('no --wait: no wait, but a bad --wait-timeout is still refused', () => {
    expect(waitInputFromFlags({ 'wait-timeout': '10m' })).toBeUndefined()
    for (const bad of ['0', '5x']) {
      expect(() => waitInputFromFlags({ 'wait-timeout': bad })).toThrow(UsageError)
      try {
        waitInputFromFlags({ 'wait-timeout': bad })
      } catch (e) {
        expect((e as UsageError).details).toEqual([{ field: '--wait-timeout', message: `"${bad}" is not a duration such as 90s, 10m or 1h` }])
      }
    }
  })
})
