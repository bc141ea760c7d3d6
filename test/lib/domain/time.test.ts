import { describe, expect, it } from 'vitest'
import { parseInstant, relativeTime } from '../../../src/lib/domain/time.js'

const now = new Date('2026-11-20T15:00:00Z')

describe('parseInstant refuses dates and times that do not exist', () => {
  it.each([['2026-02-30'], ['2026-02-29'], ['2026-04-31'], ['2026-13-45'], ['2026-00-10'], ['2026-02-30T10:00:00Z'], ['2026-01-01T24:00:00Z'], ['2026-01-01T23:60:00-03:00']])(
    '%s is refused, not rolled over to another day',
    (text) => {
      expect(parseInstant(text, now)).toBeUndefined()
    },
  )

  it('accepts real dates, including 29 February of a leap year and the last day of a month', () => {
    expect(parseInstant('2028-02-29T12:00:00Z', now)?.toISOString()).toBe('2028-02-29T12:00:00.000Z')
    expect(parseInstant('2026-04-30T23:59:59-03:00', now)?.toISOString()).toBe('2026-05-01T02:59:59.000Z')
    const local = parseInstant('2026-12-31', now)!
    expect([local.getFullYear(), local.getMonth(), local.getDate(), local.getHours()]).toEqual([2026, 11, 31, 0])
  })
})

describe('relativeTime', () => {
  const at = (ms: number) => new Date(now.getTime() + ms)
  it('says how long ago, or how long until', () => {
    expect(relativeTime(at(-3 * 60_000), now)).toBe('3 min ago')
    expect(relativeTime(at(2 * 3_600_000), now)).toBe('in 2 h')
  })

  it('an event that already happened is never in the future: a clock ahead of ours reads "just now"', () => {
    expect(relativeTime(at(2 * 3_600_000), now, { happened: true })).toBe('just now')
    expect(relativeTime(at(-3 * 60_000), now, { happened: true })).toBe('3 min ago')
  })
})
