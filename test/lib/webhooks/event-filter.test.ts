import { describe, expect, it } from 'vitest'
import { UsageError } from '../../../src/lib/errors.js'
import { closestEventType, matchesEventFilter, parseEventFilter } from '../../../src/lib/webhooks/event-filter.js'

describe('--events filter', () => {
  it('accepts known types and prefix wildcards', () => {
    expect(parseEventFilter('charge.settled, charge.refunded')).toEqual(['charge.settled', 'charge.refunded'])
    expect(parseEventFilter('charge.*,withdrawal.*')).toEqual(['charge.*', 'withdrawal.*'])
    expect(matchesEventFilter('charge.split.failed', ['charge.*'])).toBe(true)
    expect(matchesEventFilter('withdrawal.paid', ['charge.*'])).toBe(false)
    expect(matchesEventFilter('charge.settled', ['charge.settled'])).toBe(true)
  })

  it('refuses a misspelt type (it would be acknowledged and lost), suggesting the closest one', () => {
    const err = (() => {
      try {
        parseEventFilter('charge.setled')
      } catch (e) {
        return e as UsageError
      }
    })()
    expect(err).toBeInstanceOf(UsageError)
    expect(err!.exitCode).toBe(2)
    expect(err!.message).toContain('did you mean charge.settled?')
    expect(err!.details).toEqual([{ field: 'events', message: expect.stringContaining('charge.setled') }])
  })

  it('refuses a wildcard that matches nothing, and an empty list', () => {
    expect(() => parseEventFilter('chrage.*')).toThrow(/"chrage\.\*" matches no known event type \(did you mean charge\.\*\?\)/)
    expect(() => parseEventFilter(' , ')).toThrow(/at least one/)
    expect(closestEventType('zzzzzzzz')).toBeUndefined()
    expect(closestEventType('Charge.Paid_Pending_Settlement')).toBe('charge.paid_pending_settlement')
  })
})
