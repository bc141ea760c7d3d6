/**
 * The typed inputs of the operator's operations (a report's range, the settled list, the overdue
 * list), read without a door's words: an issue names the input's field by its path (`from`,
 * `timeZone`), and a message names another field as `{path}`. Each door names them at its edge:
 * the command as its flags (`--tz`), `svc mcp` as its tool's arguments (`tz`). Dates are read by
 * the one parser (domain/time.ts) on the clock given, the service's when one counts back.
 */
import { isValidTimeZone, MAX_REPORT_PERIODS, machineTimeZone, PERIOD_UNITS, type PeriodUnit, periodCountAtMost } from '../domain/calendar.js'
import { dateBeyondService, isRelativeDate, MAX_DURATION_MS, parseDate, parseDuration, SERVICE_DATES } from '../domain/time.js'
import { echoed } from './flag-issues.js'
import type { SettledRange } from './operator-lists.js'

/** One bad field of an input: `path` is the input's own name for it. */
export interface InputIssue {
  path: string
  message: string
}

/** Every bad field of an input at once; nothing was sent. */
export class InputError extends Error {
  constructor(readonly issues: InputIssue[]) {
    super(`${issues.length} invalid input field(s): ${issues.map((i) => i.path).join(', ')}`)
    this.name = 'InputError'
  }
}

/** A message with each `{path}` named by the door (`{timeZone}` → `--tz` or `tz`). */
export function inDoorWords(message: string, nameOf: (path: string) => string): string {
  return message.replace(/\{(\w+)\}/g, (_m, path: string) => nameOf(path))
}

export const DATE_FORMS = 'a day (2026-11-03, in {timeZone}), today, yesterday, an ISO instant (2026-11-03T10:00:00-03:00) or an age (24h, 7d)'
const DATE_FORMS_MACHINE_ZONE = DATE_FORMS.replace('in {timeZone}', "in this machine's zone")

/** Collects issues while an input is read; `done()` throws them all as one InputError. */
export class InputReader {
  readonly issues: InputIssue[] = []

  zone(raw: string | undefined, path = 'timeZone'): string {
    if (raw === undefined) return machineTimeZone()
    if (isValidTimeZone(raw)) return raw
    this.issues.push({ path, message: `${echoed(raw)} is not a time zone this system knows: use an IANA name such as America/Sao_Paulo or UTC` })
    return 'UTC'
  }

  /** `zoneField: false` for an operation without a zone (its days are the machine's). */
  date(path: string, raw: string | undefined, opts: { timeZone: string; now: Date; edge?: 'start' | 'end'; zoneField?: boolean }): Date | undefined {
    if (raw === undefined) return undefined
    const d = parseDate(raw, opts)
    if (d) return d
    if (dateBeyondService(raw, opts)) this.issues.push({ path, message: `${echoed(raw)} is beyond the dates the service takes (${SERVICE_DATES})` })
    else this.issues.push({ path, message: `${echoed(raw)} is not a date: use ${opts.zoneField === false ? DATE_FORMS_MACHINE_ZONE : DATE_FORMS}` })
    return undefined
  }

  duration(path: string, raw: string | undefined, fallback: string): number {
    const ms = parseDuration(raw ?? fallback)
    if (ms === undefined || ms <= 0) {
      this.issues.push({ path, message: `${echoed(raw ?? '')} is not a duration: use e.g. 30m, 1h, 24h, 7d` })
      return 0
    }
    if (ms > MAX_DURATION_MS) {
      this.issues.push({ path, message: `${echoed(raw ?? '')} is longer than the 36500d (100 years) a duration may be` })
      return 0
    }
    return ms
  }

  /** `decides: false` on a first reading whose dates count back from a clock not yet the service's: the order waits for that clock. */
  order(fromPath: string, from: Date | undefined, toPath: string, to: Date | undefined, decides = true): void {
    if (decides && from && to && from.getTime() >= to.getTime()) this.issues.push({ path: fromPath, message: `must be earlier than {${toPath}}` })
  }

  done(): void {
    if (this.issues.length > 0) throw new InputError(this.issues)
  }
}

/** Whether any of these date texts counts back from now: it is then read on the service's clock. */
export function anyRelative(...texts: Array<string | undefined>): boolean {
  return texts.some((t) => t !== undefined && isRelativeDate(t))
}

/** A report's range as typed: `to` is the last day included (or an instant, excluded). */
export interface ReportRangeInput {
  from?: string
  to?: string
  by?: string
  timeZone?: string
}

export interface ReportRange {
  from: Date
  to: Date
  by: PeriodUnit
  timeZone: string
}

/** A report's range on the clock `now`; a whole day in `to` counts (to its end). Throws InputError. */
export function readReportRange(input: ReportRangeInput, now: Date, decides = true): ReportRange {
  const r = new InputReader()
  const timeZone = r.zone(input.timeZone)
  const by = (input.by ?? 'day') as PeriodUnit
  if (!PERIOD_UNITS.includes(by)) r.issues.push({ path: 'by', message: `must be one of ${PERIOD_UNITS.join(', ')}, not ${echoed(input.by ?? '')}` })
  if (input.from === undefined) r.issues.push({ path: 'from', message: 'is required' })
  if (input.to === undefined) r.issues.push({ path: 'to', message: 'is required' })
  const from = r.date('from', input.from, { timeZone, now })
  const to = r.date('to', input.to, { timeZone, now, edge: 'end' })
  r.order('from', from, 'to', to, decides)
  // A report holds every period in memory and prints them all: 0001-01-01 to 9999-12-30 by day is 3.6 million.
  if (from && to && PERIOD_UNITS.includes(by) && from.getTime() < to.getTime()) {
    const count = periodCountAtMost(from, to, by)
    if (count > MAX_REPORT_PERIODS) {
      const coarser = by === 'day' ? '{by} week or {by} month, or a shorter range' : by === 'week' ? '{by} month, or a shorter range' : 'a shorter range'
      r.issues.push({ path: 'to', message: `{from} to {to} makes about ${count.toLocaleString('en-US')} ${by}s: a report has at most ${MAX_REPORT_PERIODS.toLocaleString('en-US')} periods; use ${coarser}` })
    }
  }
  r.done()
  return { from: from!, to: to!, by, timeZone }
}

/** The settled list's range as typed: settledAt in `[settledAfter, settledBefore)`, scanning back `lookback` (default 30d) before it. */
export interface SettledRangeInput {
  settledAfter?: string
  settledBefore?: string
  lookback?: string
  timeZone?: string
}

/** The settled list's range on the clock `now`. Throws InputError. */
export function readSettledRange(input: SettledRangeInput, now: Date, decides = true): SettledRange {
  const r = new InputReader()
  const timeZone = r.zone(input.timeZone)
  const range = {
    after: r.date('settledAfter', input.settledAfter, { timeZone, now }),
    before: r.date('settledBefore', input.settledBefore, { timeZone, now }),
    lookbackMs: r.duration('lookback', input.lookback, '30d'),
  }
  r.order('settledAfter', range.after, 'settledBefore', range.before, decides)
  r.done()
  return range
}
