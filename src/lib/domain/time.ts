/** Durations (`90s`, `10m`, `25h`, `2d`, `1h30m`) and friendly instants (`2h`, `yesterday`, `2026-11-01`). */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** Milliseconds of a duration such as `25h`, `90s` or `1h30m`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim().toLowerCase()
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(s)) return undefined
  let total = 0
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!
  return Math.round(total)
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/**
 * Whether the written date and time exist on the calendar. `new Date` rolls an impossible day
 * over (2026-02-30 becomes 2 March, 24:00 the next day) instead of refusing it, so the fields
 * are checked as written: a round trip through the UTC calendar for the date, ranges for the time.
 */
function existsOnCalendar(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number]
  const date = new Date(0)
  date.setUTCFullYear(y, m - 1, d)
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false
  const time = /T(\d{2}):(\d{2})(?::(\d{2}))?/i.exec(text)
  return !time || (Number(time[1]) <= 23 && Number(time[2]) <= 59 && Number(time[3] ?? 0) <= 59)
}

/** Whether `text` names an instant relative to now (`2h`, `today`, `now`) rather than a fixed one. */
export function isRelativeInstant(text: string): boolean {
  const s = text.trim()
  return !RFC3339.test(s) && !DATE_ONLY.test(s)
}

/**
 * An instant from RFC 3339, a date (`2026-11-01`, local midnight), `now`, `today`, `yesterday`,
 * or a duration meaning "that long ago" (`2h`, `7d`). Undefined when it is none of these.
 */
export function parseInstant(text: string, now: Date = new Date()): Date | undefined {
  const s = text.trim()
  const lower = s.toLowerCase()
  if (lower === 'now') return new Date(now)
  if (lower === 'today' || lower === 'yesterday') {
    const d = new Date(now)
    d.setHours(0, 0, 0, 0)
    if (lower === 'yesterday') d.setDate(d.getDate() - 1)
    return d
  }
  if (RFC3339.test(s) || DATE_ONLY.test(s)) {
    if (!existsOnCalendar(s)) return undefined
    const d = DATE_ONLY.test(s) ? new Date(`${s}T00:00:00`) : new Date(s)
    return Number.isNaN(d.getTime()) ? undefined : d
  }
  const ago = parseDuration(lower.replace(/\s*ago$/, ''))
  return ago === undefined ? undefined : new Date(now.getTime() - ago)
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
