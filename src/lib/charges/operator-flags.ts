/**
 * Flags of the operator's commands (CLI.md 0.4): `--tz`, dates as the operator's days
 * (`YYYY-MM-DD` in the zone, ISO instants, `24h`/`7d` back from now), durations (`--lookback`,
 * `--grace`, `--since`) and a report's range. Every bad value is reported at once, naming its
 * flag, before anything is sent (exit 2).
 */
import { isValidTimeZone, MAX_REPORT_PERIODS, machineTimeZone, PERIOD_UNITS, type PeriodUnit, periodCountAtMost } from '../domain/calendar.js'
import { dateBeyondService, isRelativeDate, MAX_DURATION_MS, parseDate, parseDuration, SERVICE_DATES } from '../domain/time.js'
import { echoed, type FlagIssue, flagsError } from './flag-issues.js'

export const DATE_FORMS = 'a day (2026-11-03, in --tz), today, yesterday, an ISO instant (2026-11-03T10:00:00-03:00) or an age (24h, 7d)'
const DATE_FORMS_MACHINE_ZONE = DATE_FORMS.replace('in --tz', "in this machine's zone")

/** Collects issues while flags are read; `done()` throws them all as one usage error. */
export class FlagReader {
  readonly issues: FlagIssue[] = []
  constructor(private readonly hint: string) {}

  zone(raw: string | undefined): string {
    if (raw === undefined) return machineTimeZone()
    if (isValidTimeZone(raw)) return raw
    this.issues.push({ field: '--tz', message: `${echoed(raw)} is not a time zone this system knows: use an IANA name such as America/Sao_Paulo or UTC` })
    return 'UTC'
  }

  /** `zoneFlag: false` for a command without --tz (its days are the machine's). */
  date(flag: string, raw: string | undefined, opts: { timeZone: string; now: Date; edge?: 'start' | 'end'; zoneFlag?: boolean }): Date | undefined {
    if (raw === undefined) return undefined
    const d = parseDate(raw, opts)
    if (d) return d
    if (dateBeyondService(raw, opts)) this.issues.push({ field: `--${flag}`, message: `${echoed(raw)} is beyond the dates the service takes (${SERVICE_DATES})` })
    else this.issues.push({ field: `--${flag}`, message: `${echoed(raw)} is not a date: use ${opts.zoneFlag === false ? DATE_FORMS_MACHINE_ZONE : DATE_FORMS}` })
    return undefined
  }

  duration(flag: string, raw: string | undefined, fallback: string): number {
    const ms = parseDuration(raw ?? fallback)
    if (ms === undefined || ms <= 0) {
      this.issues.push({ field: `--${flag}`, message: `${echoed(raw ?? '')} is not a duration: use e.g. 30m, 1h, 24h, 7d` })
      return 0
    }
    if (ms > MAX_DURATION_MS) {
      this.issues.push({ field: `--${flag}`, message: `${echoed(raw ?? '')} is longer than the 36500d (100 years) a duration may be` })
      return 0
    }
    return ms
  }

  /** `decides: false` on a first reading whose dates count back from a clock not yet the service's: the order waits for that clock. */
  order(fromFlag: string, from: Date | undefined, toFlag: string, to: Date | undefined, decides = true): void {
    if (decides && from && to && from.getTime() >= to.getTime()) this.issues.push({ field: `--${fromFlag}`, message: `must be earlier than --${toFlag}` })
  }

  done(): void {
    if (this.issues.length > 0) throw flagsError(this.issues, this.hint)
  }
}

/** Whether any of these date texts counts back from now: it is then read on the service's clock. */
export function anyRelative(...texts: Array<string | undefined>): boolean {
  return texts.some((t) => t !== undefined && isRelativeDate(t))
}

/** `--settled-after/--settled-before [--lookback] [--tz]` of `charges list`. */
export function parseSettledFlags(flags: { 'settled-after'?: string; 'settled-before'?: string; lookback?: string; tz?: string }, now: Date, decides = true): { after?: Date; before?: Date; lookbackMs: number } {
  const r = new FlagReader('See `svc charges list --help` for the date forms.')
  const timeZone = r.zone(flags.tz)
  const range = {
    after: r.date('settled-after', flags['settled-after'], { timeZone, now }),
    before: r.date('settled-before', flags['settled-before'], { timeZone, now }),
    lookbackMs: r.duration('lookback', flags.lookback, '30d'),
  }
  r.order('settled-after', range.after, 'settled-before', range.before, decides)
  r.done()
  return range
}

export interface ReportFlags {
  from?: string
  to?: string
  by?: string
  tz?: string
}

export interface ReportRangeFlags {
  from: Date
  to: Date
  by: PeriodUnit
  timeZone: string
}

/** `--from DATE --to DATE [--by day|week|month] [--tz ZONE]`: a whole day in --to counts (to its end). */
export function parseReportFlags(flags: ReportFlags, now: Date, hint: string, decides = true): ReportRangeFlags {
  const r = new FlagReader(hint)
  const timeZone = r.zone(flags.tz)
  const by = (flags.by ?? 'day') as PeriodUnit
  if (!PERIOD_UNITS.includes(by)) r.issues.push({ field: '--by', message: `must be one of ${PERIOD_UNITS.join(', ')}, not ${echoed(flags.by ?? '')}` })
  if (flags.from === undefined) r.issues.push({ field: '--from', message: 'is required' })
  if (flags.to === undefined) r.issues.push({ field: '--to', message: 'is required' })
  const from = r.date('from', flags.from, { timeZone, now })
  const to = r.date('to', flags.to, { timeZone, now, edge: 'end' })
  r.order('from', from, 'to', to, decides)
  // A report holds every period in memory and prints them all: 0001-01-01 to 9999-12-30 by day is 3.6 million.
  if (from && to && PERIOD_UNITS.includes(by) && from.getTime() < to.getTime()) {
    const count = periodCountAtMost(from, to, by)
    if (count > MAX_REPORT_PERIODS) {
      const coarser = by === 'day' ? '--by week or --by month, or a shorter range' : by === 'week' ? '--by month, or a shorter range' : 'a shorter range'
      r.issues.push({ field: '--to', message: `--from to --to makes about ${count.toLocaleString('en-US')} ${by}s: a report has at most ${MAX_REPORT_PERIODS.toLocaleString('en-US')} periods; use ${coarser}` })
    }
  }
  r.done()
  return { from: from!, to: to!, by, timeZone }
}
