/** Durations (`90s`, `10m`, `25h`, `2d`, `1h30m`) and friendly instants (`2h`, `yesterday`, `2026-11-01`). */
import { addDays, type CivilDate, localDate, machineTimeZone, parseCivilDate, startOfDay } from './calendar.js'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** Milliseconds of a duration such as `25h`, `90s` or `1h30m`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim().toLowerCase()
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(s)) return undefined
  let total = 0
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!
  return Math.round(total)
}

/**
 * The instants the service's date-time parameters can carry: RFC 3339 writes a four-digit year,
 * and the client sends UTC, so from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. A date
 * outside is refused where it is typed (it could never be sent), naming its flag.
 */
export const SERVICE_FIRST_MS = (() => {
  // setUTCFullYear, not Date.UTC: the year 0000 stays itself.
  const d = new Date(0)
  d.setUTCFullYear(0, 0, 1)
  return d.getTime()
})()
export const SERVICE_LAST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
export const SERVICE_DATES = 'years 0000 to 9999, UTC'

/** Whether the service can be sent this instant (see SERVICE_FIRST_MS). An invalid Date is not. */
export function isServiceInstant(d: Date): boolean {
  const t = d.getTime()
  return t >= SERVICE_FIRST_MS && t <= SERVICE_LAST_MS
}

/** An instant as the service takes it (RFC 3339, UTC), moved inside the service's dates: for scan bounds, where "before any date" means "from the first". */
export function serviceBound(ms: number): string {
  return new Date(Math.min(Math.max(ms, SERVICE_FIRST_MS), SERVICE_LAST_MS)).toISOString()
}

/** The longest duration a flag takes: 100 years (36500d) reaches past any charge and keeps dates computable. */
export const MAX_DURATION_MS = 36_500 * 86_400_000

/** The shapes of a fixed instant: an RFC 3339 date-time (seconds optional, as people type it) and a calendar day. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** RFC 3339's date-time (section 5.6): `T` or `t`, seconds, an optional fraction, `Z`, `z` or `±hh:mm`. */
const RFC3339_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

/**
 * The instant (epoch ms) an RFC 3339 date-time names, or undefined when the text is not one: the
 * grammar of RFC 3339 section 5.6 exactly (lower-case `t` and `z`, any offset, any number of
 * fraction digits), with every field in its range (a day the month has; a second of 60, the
 * leap second, reads as the first instant of the next minute, as POSIX time has no slot for it).
 * Fractions finer than a millisecond are cut, never rounded up into the next one. The one rule
 * for the API's date-time parameters: the contract's query schema, the sandbox and the CLI's
 * date flags all read them with it.
 */
export function rfc3339Millis(text: string): number | undefined {
  const m = RFC3339_DATE_TIME.exec(text)
  if (!m) return undefined
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 60) return undefined
  let offsetMinutes = 0
  if (m[8] !== undefined) {
    const oh = Number(m[9])
    const om = Number(m[10])
    if (oh > 23 || om > 59) return undefined
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (oh * 60 + om)
  }
  const date = new Date(0)
  // setUTCFullYear, not Date.UTC: years 0000 to 0099 stay themselves.
  date.setUTCFullYear(y, mo - 1, d)
  date.setUTCHours(h, mi, 0, 0)
  const fractionMs = m[7] === undefined ? 0 : Number(`${m[7]}00`.slice(0, 3))
  return date.getTime() + s * 1000 + fractionMs - offsetMinutes * 60_000
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** How a date is read: every door (flags, MCP arguments) reads its dates with these. */
export interface DateReading {
  /** "Now" on the service's clock: ages count back from it, `today` is its day. */
  now: Date
  /** The zone of a day (`2026-11-03`, `today`, `yesterday`); default the machine's. */
  timeZone?: string
  /** What a whole day means: its first instant (`start`, the default), or the first instant of the next day (`end`, for an inclusive end). */
  edge?: 'start' | 'end'
}

/**
 * The one date parser of every door (CLI.md 0.4): a day (`2026-11-01`, in the zone), `today`,
 * `yesterday` (in the zone), `now`, an RFC 3339 instant, or an age back from now (`2h`, `7d`,
 * `2h ago`). Undefined when it is none of these, or one not on the calendar, or one outside the
 * service's dates (see `dateBeyondService`).
 */
export function parseDate(text: string, reading: DateReading): Date | undefined {
  const d = anyDate(text, reading)
  return d && isServiceInstant(d) ? d : undefined
}

/** Whether the text is a date form but names an instant the service cannot take (`--to 9999-12-31` ends in the year 10000, `999999999d` ago). */
export function dateBeyondService(text: string, reading: DateReading): boolean {
  const d = anyDate(text, reading)
  return d !== undefined && !isServiceInstant(d)
}

/** Whether the text depends on "now" (an age, `today`, `now`) rather than naming a fixed instant: it must then be read on the service's clock. */
export function isRelativeDate(text: string): boolean {
  const s = text.trim()
  return !RFC3339.test(s) && !DATE_ONLY.test(s)
}

function anyDate(text: string, { now, timeZone = machineTimeZone(), edge = 'start' }: DateReading): Date | undefined {
  const s = text.trim()
  const lower = s.toLowerCase()
  const day = (date: CivilDate) => startOfDay(edge === 'end' ? addDays(date, 1) : date, timeZone)
  if (lower === 'now') return new Date(now)
  if (lower === 'today') return day(localDate(now, timeZone))
  if (lower === 'yesterday') return day(addDays(localDate(now, timeZone), -1))
  if (DATE_ONLY.test(s)) {
    const civil = parseCivilDate(s)
    return civil ? day(civil) : undefined
  }
  const exact = rfc3339Millis(s)
  if (exact !== undefined) return new Date(exact)
  if (RFC3339.test(s)) {
    // The forms RFC 3339 leaves out but people type (no seconds, `+0300`): fields checked as written, since `new Date` rolls 24:00 over.
    const time = /T(\d{2}):(\d{2})(?::(\d{2}))?/i.exec(s)!
    if (!parseCivilDate(s.slice(0, 10)) || Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 59) return undefined
    const d = new Date(s)
    return Number.isNaN(d.getTime()) ? undefined : d
  }
  const ago = parseDuration(lower.replace(/\s*ago$/, ''))
  return ago === undefined ? undefined : new Date(now.getTime() - ago)
}

/** `parseDate` in the machine's zone, the start of a day: the reading of the API's own date arguments. */
export function parseInstant(text: string, now: Date = new Date()): Date | undefined {
  return parseDate(text, { now })
}

/** Whether the text is a form `parseInstant` reads but names an instant outside the service's dates. */
export function instantBeyondService(text: string, now: Date = new Date()): boolean {
  return dateBeyondService(text, { now })
}

/**
 * `3 min ago`, `in 2 h`: coarse relative time for tables. `happened` marks an event that is
 * already in the past (created, paid, settled): when the server's clock runs ahead of the one
 * `now` came from, it reads `just now`, never `in 2 h`.
 */
export function relativeTime(instant: Date, now: Date = new Date(), opts: { happened?: boolean } = {}): string {
  const diff = opts.happened ? Math.min(0, instant.getTime() - now.getTime()) : instant.getTime() - now.getTime()
  const abs = Math.abs(diff)
  const fmt = (n: number, u: string) => (diff < 0 ? `${n} ${u} ago` : `in ${n} ${u}`)
  if (abs < 45_000) return diff <= 0 ? 'just now' : 'in a moment'
  if (abs < 3_600_000) return fmt(Math.round(abs / 60_000), 'min')
  if (abs < 86_400_000) return fmt(Math.round(abs / 3_600_000), 'h')
  return fmt(Math.round(abs / 86_400_000), 'd')
}

/** Local time in Brazilian style with the zone shown: `22/11/2026 14:05:09 (UTC-03:00)`. */
export function formatLocalTime(iso: string | Date, timeZone?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso
  const opts: Intl.DateTimeFormatOptions = {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    timeZoneName: 'longOffset',
    ...(timeZone ? { timeZone } : {}),
  }
  const parts = new Intl.DateTimeFormat('pt-BR', opts).formatToParts(d)
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? ''
  const zone = get('timeZoneName').replace('GMT', 'UTC') || 'UTC'
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}:${get('second')} (${zone === 'UTC' ? 'UTC' : zone})`
}
