/**
 * The operator's calendar (domain/calendar.ts) in zones with daylight-saving history: every day
 * starts at local midnight, or where the clocks skipped midnight (São Paulo before 2019), at the
 * first instant of that day; periods tile a range with boundaries on those starts.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { addDays, type CivilDate, localDate, PERIOD_UNITS, periodFirstDay, periodIndex, periodsBetween, startOfDay } from '../../src/lib/domain/calendar.js'
import { localTimeOfDay } from '../helpers/time-of-day.js'

const ZONES = ['America/Sao_Paulo', 'America/Manaus', 'America/Noronha', 'Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC']
const zone = fc.constantFrom(...ZONES)
const civil = fc.date({ min: new Date('1985-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }))
const same = (a: CivilDate, b: CivilDate) => a.year === b.year && a.month === b.month && a.day === b.day

describe('calendar (properties)', () => {
  it('startOfDay is the first instant of the local day: local midnight, or the instant the clocks skipped it', () => {
    fc.assert(
      fc.property(civil, zone, (date, tz) => {
        const start = startOfDay(date, tz)
        expect(same(localDate(start, tz), date)).toBe(true)
        const before = new Date(start.getTime() - 1000)
        expect(same(localDate(before, tz), addDays(date, -1))).toBe(true)
        if (localTimeOfDay(start, tz) !== '00:00:00') {
          // Midnight did not exist: the second before was the last of the day before.
          expect(localTimeOfDay(before, tz)).toBe('23:59:59')
        }
      }),
      { numRuns: 1500 },
    )
  })

  it('every São Paulo day from 1985 to 2020 starts at local midnight or, on the DST days, at 01:00', () => {
    let skipped = 0
    for (let d: CivilDate = { year: 1985, month: 1, day: 1 }; d.year < 2020; d = addDays(d, 1)) {
      const start = startOfDay(d, 'America/Sao_Paulo')
      const time = localTimeOfDay(start, 'America/Sao_Paulo')
      if (time !== '00:00:00') {
        expect(time).toBe('01:00:00')
        skipped++
      }
    }
    // Nearly every year from 1985 to 2019 had its spring-forward at midnight.
    expect(skipped).toBeGreaterThanOrEqual(30)
  })

  it('periodsBetween tiles [from, to): contiguous, inner boundaries on the first day of a day/week/month, every instant in exactly one', () => {
    fc.assert(
      fc.property(
        zone,
        fc.constantFrom(...PERIOD_UNITS),
        fc.date({ min: new Date('1986-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 120 * 86_400_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (tz, unit, from, span, probe) => {
          const to = new Date(from.getTime() + span)
          const periods = periodsBetween(from, to, unit, tz)
          expect(periods[0]!.start.getTime()).toBe(from.getTime())
          expect(periods.at(-1)!.end.getTime()).toBe(to.getTime())
          for (let i = 1; i < periods.length; i++) {
            const boundary = periods[i]!.start
            expect(boundary.getTime()).toBe(periods[i - 1]!.end.getTime())
            const day = localDate(boundary, tz)
            expect(startOfDay(day, tz).getTime()).toBe(boundary.getTime())
            expect(same(periodFirstDay(day, unit), day)).toBe(true)
          }
          const t = new Date(from.getTime() + (probe % span))
          const i = periodIndex(periods, t)
          expect(i).toBeGreaterThanOrEqual(0)
          expect(periods[i]!.start.getTime()).toBeLessThanOrEqual(t.getTime())
          expect(t.getTime()).toBeLessThan(periods[i]!.end.getTime())
        },
      ),
      { numRuns: 400 },
    )
  })
})
