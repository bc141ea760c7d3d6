import { describe, expect, it } from 'vitest'
import { clockTime, viewTime } from '../../../../src/lib/tui/text/format.js'

describe('the live views’ one date format (issue 29 item 21)', () => {
  // Noon UTC: the same calendar day in every zone from UTC-11 to UTC+11.
  const now = '2026-11-24T12:00:00.000Z'

  it('a time of day for `now`’s day, the date and time for another day, the year for another year', () => {
    expect(viewTime('2026-11-24T11:59:00.000Z', now)).toBe(clockTime('2026-11-24T11:59:00.000Z'))
    expect(viewTime('2026-11-22T12:00:00.000Z', now)).toMatch(/^22\/11 \d\d:\d\d$/)
    expect(viewTime('2025-06-10T12:00:00.000Z', now)).toMatch(/^10\/06\/2025 \d\d:\d\d$/)
  })

  it('without a `now`, a time of day; a text that is no time is shown as it came, escaped', () => {
    expect(viewTime('2026-11-22T12:00:00.000Z')).toBe(clockTime('2026-11-22T12:00:00.000Z'))
    expect(viewTime('soon\u001b[2J', now)).toBe('soon\\x1b[2J')
  })
})
