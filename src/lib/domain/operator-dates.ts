/**
 * Dates as an operator types them (CLI.md 0.4): `YYYY-MM-DD` (a day in the zone, default the
 * machine's), `today` / `yesterday` (in that zone), an RFC 3339 instant, `now`, or a duration
 * back from now (`24h`, `7d`). Days are the operator's days, not UTC's.
 */
import { addDays, localDate, parseCivilDate, startOfDay } from './calendar.js'
import { isServiceInstant, parseDuration } from './time.js'

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i

export interface OperatorDateOptions {
  timeZone: string
  /** "Now" on the service's clock: durations count back from it, `today` is its day. */
  now: Date
  /**
   * What a whole day means: its first instant (`start`, for --from and --settled-after/before),
   * or the first instant of the next day (`end`, for an inclusive --to).
   */
  edge?: 'start' | 'end'
}

/**
 * An instant from the operator's text; undefined when it is no date (or one not on the calendar),
 * or one outside the service's dates (see `operatorDateBeyondService`).
 */
export function parseOperatorDate(text: string, opts: OperatorDateOptions): Date | undefined {
  const d = anyOperatorDate(text, opts)
  return d && isServiceInstant(d) ? d : undefined
}

/** Whether the text is a date form but names an instant the service cannot take (`--to 9999-12-31` ends in the year 10000, `999999999d` ago). */
export function operatorDateBeyondService(text: string, opts: OperatorDateOptions): boolean {
  const d = anyOperatorDate(text, opts)
  return d !== undefined && !isServiceInstant(d)
}

function anyOperatorDate(text: string, opts: OperatorDateOptions): Date | undefined {
  const s = text.trim()
  const lower = s.toLowerCase()
  const day = (date: ReturnType<typeof localDate>) => startOfDay(opts.edge === 'end' ? addDays(date, 1) : date, opts.timeZone)
  if (lower === 'now') return new Date(opts.now)
  if (lower === 'today') return day(localDate(opts.now, opts.timeZone))
  if (lower === 'yesterday') return day(addDays(localDate(opts.now, opts.timeZone), -1))
  const civil = parseCivilDate(s)
  if (civil) return day(civil)
  const m = RFC3339.exec(s)
  if (m) {
    if (!parseCivilDate(`${m[1]}-${m[2]}-${m[3]}`) || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59) return undefined
    const d = new Date(s)
    return Number.isNaN(d.getTime()) ? undefined : d
  }
  const ago = parseDuration(lower)
  return ago === undefined ? undefined : new Date(opts.now.getTime() - ago)
}

/** Whether the text depends on "now" (a duration, today, yesterday): it must be read on the service's clock. */
export function isRelativeOperatorDate(text: string): boolean {
  const s = text.trim()
  return !parseCivilDate(s) && !RFC3339.test(s)
}
