import { describe, expect, it } from 'vitest'
import { formatInZone, isValidTimeZone, periodsBetween, startOfDay } from '../../../src/lib/domain/calendar.js'
import { parseDate as parseOperatorDate } from '../../../src/lib/domain/time.js'

const SP = 'America/Sao_Paulo'

describe('calendar', () => {
  it('São Paulo, 4 Nov 2018: midnight did not exist (00:00 → 01:00), the day starts at 01:00 -02:00', () => {
    expect(startOfDay({ year: 2018, month: 11, day: 4 }, SP).toISOString()).toBe('2018-11-04T03:00:00.000Z')
    expect(formatInZone(startOfDay({ year: 2018, month: 11, day: 4 }, SP), SP)).toBe('2018-11-04T01:00:00-02:00')
  })

  it('São Paulo, 18 Feb 2018: clocks went back at midnight, the day starts at 00:00 -03:00 (after the repeated hour)', () => {
    expect(startOfDay({ year: 2018, month: 2, day: 18 }, SP).toISOString()).toBe('2018-02-18T03:00:00.000Z')
    expect(startOfDay({ year: 2018, month: 2, day: 17 }, SP).toISOString()).toBe('2018-02-17T02:00:00.000Z')
  })

  it('a week starts on Monday, a month on its first day, in the zone', () => {
    const until = startOfDay({ year: 2027, month: 1, day: 15 }, SP)
    const weeks = periodsBetween(new Date('2026-11-26T02:00:00Z'), until, 'week', SP) // from Wednesday 25 Nov, 23:00 in São Paulo
    expect(formatInZone(weeks[0]!.end, SP)).toBe('2026-11-30T00:00:00-03:00')
    expect(formatInZone(weeks[1]!.end, SP)).toBe('2026-12-07T00:00:00-03:00')
    const months = periodsBetween(new Date('2026-12-01T02:00:00Z'), until, 'month', SP) // 30 Nov, 23:00 in São Paulo
    expect(formatInZone(months[0]!.end, SP)).toBe('2026-12-01T00:00:00-03:00')
    expect(formatInZone(months[1]!.end, SP)).toBe('2027-01-01T00:00:00-03:00')
  })

  it('periodsBetween cuts the first and last period at the range', () => {
    const from = new Date('2026-11-10T15:00:00Z')
    const to = startOfDay({ year: 2026, month: 12, day: 3 }, SP)
    const ps = periodsBetween(from, to, 'month', SP).map((p) => [formatInZone(p.start, SP), formatInZone(p.end, SP)])
    expect(ps).toEqual([
      ['2026-11-10T12:00:00-03:00', '2026-12-01T00:00:00-03:00'],
      ['2026-12-01T00:00:00-03:00', '2026-12-03T00:00:00-03:00'],
    ])
  })

  it('knows IANA zones and refuses others', () => {
    expect(isValidTimeZone(SP)).toBe(true)
    expect(isValidTimeZone('UTC')).toBe(true)
    expect(isValidTimeZone('Mars/Olympus')).toBe(false)
    expect(isValidTimeZone('')).toBe(false)
  })
})

describe('operator dates', () => {
  const now = new Date('2026-11-26T02:00:00Z') // 25 Nov, 23:00 in São Paulo
  it('a YYYY-MM-DD day is the operator\'s day in --tz; edge "end" is the start of the next day', () => {
    expect(parseOperatorDate('2026-11-03', { timeZone: SP, now })?.toISOString()).toBe('2026-11-03T03:00:00.000Z')
    expect(parseOperatorDate('2026-11-03', { timeZone: SP, now, edge: 'end' })?.toISOString()).toBe('2026-11-04T03:00:00.000Z')
    expect(parseOperatorDate('2026-11-03', { timeZone: 'UTC', now })?.toISOString()).toBe('2026-11-03T00:00:00.000Z')
  })
  it("today and yesterday are the zone's days on the given clock, not UTC's", () => {
    expect(parseOperatorDate('yesterday', { timeZone: SP, now })?.toISOString()).toBe('2026-11-24T03:00:00.000Z')
    expect(parseOperatorDate('today', { timeZone: 'UTC', now })?.toISOString()).toBe('2026-11-26T00:00:00.000Z')
  })
  it('ISO instants and durations back from now', () => {
    expect(parseOperatorDate('2026-11-03T10:00:00-03:00', { timeZone: 'UTC', now })?.toISOString()).toBe('2026-11-03T13:00:00.000Z')
    expect(parseOperatorDate('24h', { timeZone: SP, now })?.toISOString()).toBe('2026-11-25T02:00:00.000Z')
    expect(parseOperatorDate('7d', { timeZone: SP, now })?.toISOString()).toBe('2026-11-19T02:00:00.000Z')
  })
  it('refuses what is no date', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'tomorrowish', '2026-11-03T25:00:00Z', '']) expect(parseOperatorDate(bad, { timeZone: SP, now })).toBeUndefined()
  })
})

describe('periodCountAtMost (issue 36.18)', () => {
  it.each([
    ['2026-01-01', '2026-12-31', 'day'],
    ['2026-01-01', '2026-12-31', 'week'],
    ['2026-01-01', '2026-12-31', 'month'],
    ['2018-10-01', '2019-03-01', 'day'],
  ] as const)('%s to %s by %s: never fewer than the periods built, at most two more', async (from, to, by) => {
    const { periodCountAtMost } = await import('../../../src/lib/domain/calendar.js')
    const f = parseOperatorDate(from, { timeZone: SP, now: new Date() })!
    const t = parseOperatorDate(to, { timeZone: SP, now: new Date(), edge: 'end' })!
    const built = periodsBetween(f, t, by, SP).length
    expect(periodCountAtMost(f, t, by)).toBeGreaterThanOrEqual(built)
    expect(periodCountAtMost(f, t, by)).toBeLessThanOrEqual(built + 2)
  })

  it('a day past 9999-12-31 is beyond the service, not a date it can take', async () => {
    const { dateBeyondService: operatorDateBeyondService } = await import('../../../src/lib/domain/time.js')
    expect(parseOperatorDate('9999-12-31', { timeZone: 'UTC', now: new Date(), edge: 'end' })).toBeUndefined()
    expect(operatorDateBeyondService('9999-12-31', { timeZone: 'UTC', now: new Date(), edge: 'end' })).toBe(true)
    expect(parseOperatorDate('9999-12-31', { timeZone: 'UTC', now: new Date() })?.toISOString()).toBe('9999-12-31T00:00:00.000Z')
  })
})
