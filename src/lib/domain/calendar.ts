/**
 * The operator's calendar: days, weeks (Monday first) and months in an IANA zone, from `Intl`
 * (the zone's whole history, no hand-written offsets). A period starts at the first instant of
 * its first local day: local midnight, or, where the zone skipped midnight (São Paulo's DST
 * began at 00:00 until 2019, so 00:00 → 01:00), the instant the day began.
 */

/** A date on the calendar, no zone: month 1–12. */
export interface CivilDate {
  year: number
  month: number
  day: number
}

export type PeriodUnit = 'day' | 'week' | 'month'
export const PERIOD_UNITS: readonly PeriodUnit[] = ['day', 'week', 'month']

/** One period of a report: `[start, end)` in instants. */
export interface Period {
  start: Date
  end: Date
}

const FORMATS = new Map<string, Intl.DateTimeFormat>()

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = FORMATS.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
      era: 'short',
    })
    FORMATS.set(timeZone, f)
  }
  return f
}

/** Whether `timeZone` is an IANA zone this runtime knows (`America/Sao_Paulo`, `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone.trim()) return false
  try {
    formatOf(timeZone)
    return true
  } catch {
    return false
  }
}

/** The machine's zone (`TZ`, else the system's), as `Intl` resolves it. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** The wall clock in `timeZone` at `instant`, as milliseconds on a UTC scale (so it can be compared and subtracted). */
function wallMs(instant: number, timeZone: string): number {
  const parts = formatOf(timeZone).formatToParts(new Date(instant))
  const get = (t: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === t)?.value ?? 0)
  const era = parts.find((p) => p.type === 'era')?.value
  const year = era === 'BC' || era === 'B' ? 1 - get('year') : get('year')
  const d = new Date(0)
  d.setUTCFullYear(year, get('month') - 1, get('day'))
  d.setUTCHours(get('hour'), get('minute'), get('second'), ((instant % 1000) + 1000) % 1000)
  return d.getTime()
}

/** The local calendar date of `instant` in `timeZone`. */
export function localDate(instant: Date, timeZone: string): CivilDate {
  const d = new Date(wallMs(instant.getTime(), timeZone))
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

function civilMs(date: CivilDate): number {
  const d = new Date(0)
  d.setUTCFullYear(date.year, date.month - 1, date.day)
  return d.getTime()
}

function fromCivilMs(ms: number): CivilDate {
  const d = new Date(ms)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

/** `date` plus `days` calendar days (no zone involved). */
export function addDays(date: CivilDate, days: number): CivilDate {
  return fromCivilMs(civilMs(date) + days * 86_400_000)
}

/** `2026-11-03` → its CivilDate; undefined when the text is no date that exists on the calendar. */
export function parseCivilDate(text: string): CivilDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim())
  if (!m) return undefined
  const date = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }
  const back = fromCivilMs(civilMs(date))
  return back.year === date.year && back.month === date.month && back.day === date.day ? date : undefined
}

const HOUR = 3_600_000

/**
 * The first instant of the local day `date` in `timeZone`: its local midnight, or where midnight
 * did not exist (clocks jumped from 00:00 to 01:00), the instant the clocks jumped.
 */
export function startOfDay(date: CivilDate, timeZone: string): Date {
  const wall = civilMs(date)
  // An offset is within ±18 h; the zone's offsets a day either side bracket the answer.
  const offsets = new Set([wallMs(wall - 86_400_000, timeZone) - (wall - 86_400_000), wallMs(wall + 86_400_000, timeZone) - (wall + 86_400_000)])
  const candidates = [...offsets].map((o) => wall - o)
  const exact = candidates.filter((t) => wallMs(t, timeZone) === wall).sort((a, b) => a - b)
  if (exact.length > 0) return new Date(exact[0]!)
  // Midnight was skipped: binary search for the first instant whose wall clock is on `date`.
  let lo = Math.min(...candidates) - 2 * HOUR
  let hi = Math.max(...candidates) + 2 * HOUR
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (wallMs(mid, timeZone) >= wall) hi = mid
    else lo = mid
  }
  // Transitions fall on whole seconds: settle on the second the day began.
  return new Date(Math.ceil(hi / 1000) * 1000)
}

/** The first calendar day of the period of `unit` holding `date` (weeks start on Monday, ISO 8601). */
export function periodFirstDay(date: CivilDate, unit: PeriodUnit): CivilDate {
  if (unit === 'day') return date
  if (unit === 'month') return { year: date.year, month: date.month, day: 1 }
  const weekday = new Date(civilMs(date)).getUTCDay() // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7))
}

/** The first calendar day of the period after the one starting on `first`. */
export function nextPeriodFirstDay(first: CivilDate, unit: PeriodUnit): CivilDate {
  if (unit === 'day') return addDays(first, 1)
  if (unit === 'week') return addDays(first, 7)
  return first.month === 12 ? { year: first.year + 1, month: 1, day: 1 } : { year: first.year, month: first.month + 1, day: 1 }
}

/**
 * The periods of `unit` that cover `[from, to)`, in order; the first and last are cut at `from`
 * and `to`, so together they cover exactly the range and every inner boundary is a local midnight.
 */
export function periodsBetween(from: Date, to: Date, unit: PeriodUnit, timeZone: string): Period[] {
  const periods: Period[] = []
  if (from.getTime() >= to.getTime()) return periods
  let first = periodFirstDay(localDate(from, timeZone), unit)
  let start = from
  for (;;) {
    const next = nextPeriodFirstDay(first, unit)
    const boundary = startOfDay(next, timeZone)
    const end = boundary.getTime() < to.getTime() ? boundary : to
    if (end.getTime() > start.getTime()) periods.push({ start, end })
    if (end === to) return periods
    start = boundary
    first = next
  }
}

/** The most periods a report takes (its rows are all held and printed): 27 years by day, 190 by week, 833 by month. */
export const MAX_REPORT_PERIODS = 10_000

/**
 * How many periods of `unit` cover `[from, to)`, counted from the instants alone (no zone), at
 * most one or two over the true count: cheap enough to refuse a range before building it.
 */
export function periodCountAtMost(from: Date, to: Date, unit: PeriodUnit): number {
  const days = Math.ceil((to.getTime() - from.getTime()) / 86_400_000) + 1
  if (unit === 'day') return days
  if (unit === 'week') return Math.ceil(days / 7) + 1
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth()) + 2
}

/** Index of the period holding `instant` (periods in order, contiguous), or -1 when outside them all. */
export function periodIndex(periods: readonly Period[], instant: Date): number {
  const t = instant.getTime()
  let lo = 0
  let hi = periods.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const p = periods[mid]!
    if (t < p.start.getTime()) hi = mid - 1
    else if (t >= p.end.getTime()) lo = mid + 1
    else return mid
  }
  return -1
}

/** RFC 3339 with the zone's offset at that instant: `2026-11-03T00:00:00-03:00` (what an operator reads). */
export function formatInZone(instant: Date, timeZone: string): string {
  const t = Math.floor(instant.getTime() / 1000) * 1000
  const wall = wallMs(t, timeZone)
  const offsetMin = Math.round((wall - t) / 60_000)
  const sign = offsetMin < 0 ? '-' : '+'
  const abs = Math.abs(offsetMin)
  const offset = offsetMin === 0 ? 'Z' : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  return `${new Date(wall).toISOString().slice(0, 19)}${offset}`
}
