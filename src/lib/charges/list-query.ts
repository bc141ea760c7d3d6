/**
 * `charges list` flags → a validated ChargeListQuery (spec 4.2). Times accept RFC 3339 and
 * friendly forms (`2h`, `yesterday`, `2026-11-01`) and are always sent as RFC 3339 in UTC.
 */
import { type ChargeListQuery, ChargeListQuerySchema } from '../contract/schemas.js'
import { isValidTimeZone } from '../domain/calendar.js'
import { dateBeyondService, isRelativeDate, parseDate, SERVICE_DATES } from '../domain/time.js'
import { CHARGE_ID } from './charge-id.js'
import { echoed, type FlagIssue, flagLabel, flagsError, issuesFromZod } from './flag-issues.js'

export interface ListFlags {
  status?: string
  'external-id'?: string
  'created-after'?: string
  'created-before'?: string
  limit?: string
  'starting-after'?: string
  /** The zone of a day in --created-after/--created-before (`2026-11-03`, today); default the machine's. */
  tz?: string
}

const FLAG_OF: Record<string, string> = {
  status: 'status',
  externalId: 'external-id',
  createdAfter: 'created-after',
  createdBefore: 'created-before',
  limit: 'limit',
  startingAfter: 'starting-after',
}

const HINT = 'See `svc charges list --help` for the accepted values and examples.'

/** `decides: false` leaves the order of the dates to a later reading on the service's clock (see service-clock.ts). */
export function parseListFlags(flags: ListFlags, now: Date = new Date(), decides = true): ChargeListQuery {
  const issues: FlagIssue[] = []
  if (flags.tz !== undefined && !isValidTimeZone(flags.tz)) {
    // Said first and alone, as before any date is read in a zone that does not exist.
    throw flagsError([{ field: '--tz', message: `${echoed(flags.tz)} is not a time zone this system knows: use an IANA name such as America/Sao_Paulo or UTC` }], 'See `svc charges list --help`.')
  }
  const reading = { now, ...(flags.tz !== undefined ? { timeZone: flags.tz } : {}) }
  const instant = (flag: 'created-after' | 'created-before', apiField: string): string | undefined => {
    const raw = flags[flag]
    if (raw === undefined) return undefined
    const d = parseDate(raw, reading)
    if (d) return d.toISOString()
    if (dateBeyondService(raw, reading)) {
      issues.push({ field: flagLabel(flag, apiField), message: `${echoed(raw)} is beyond the dates the service takes (${SERVICE_DATES})` })
      return undefined
    }
    const why = /^\s*\d{4}-\d{2}-\d{2}/.test(raw) ? 'is not a date and time that exists' : 'is not a time'
    issues.push({ field: flagLabel(flag, apiField), message: `${echoed(raw)} ${why}: use RFC 3339, a date (2026-11-01), today, yesterday or an age (2h, 7d)` })
    return undefined
  }
  const createdAfter = instant('created-after', 'createdAfter')
  const createdBefore = instant('created-before', 'createdBefore')
  if (flags.limit !== undefined && !/^\s*-?\d+\s*$/.test(flags.limit)) {
    issues.push({ field: flagLabel('limit', 'limit'), message: `must be an integer between 1 and 100, not ${echoed(flags.limit)}` })
  }
  if (flags['starting-after'] !== undefined && !CHARGE_ID.test(flags['starting-after'])) {
    issues.push({ field: flagLabel('starting-after', 'startingAfter'), message: 'must be a charge id (24 hexadecimal characters)' })
  }
  const query: Record<string, unknown> = {
    status: flags.status,
    externalId: flags['external-id'],
    createdAfter,
    createdBefore,
    startingAfter: flags['starting-after'],
    limit: issues.some((i) => i.field.startsWith('--limit')) || flags.limit === undefined ? undefined : Number(flags.limit),
  }
  for (const key of Object.keys(query)) if (query[key] === undefined) delete query[key]
  const parsed = ChargeListQuerySchema.safeParse(query)
  if (!parsed.success) issues.push(...issuesFromZod(parsed.error, FLAG_OF))
  if (decides && createdAfter && createdBefore && createdAfter >= createdBefore) {
    issues.push({ field: flagLabel('created-after', 'createdAfter'), message: 'must be earlier than --created-before' })
  }
  if (issues.length > 0) throw flagsError(issues, HINT)
  return parsed.data!
}

/** Whether a time filter is relative (`2h`, `yesterday`): it must be computed on the server's clock. */
export function hasRelativeTime(flags: ListFlags): boolean {
  return [flags['created-after'], flags['created-before']].some((t) => t !== undefined && isRelativeDate(t))
}
