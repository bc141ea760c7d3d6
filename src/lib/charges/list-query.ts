/**
 * `charges list` and `list_charges`: one operation, `chargeListQuery`, from a typed input (no
 * flag or argument names) to a validated ChargeListQuery (spec 4.2). Times accept RFC 3339 and
 * friendly forms (`2h`, `yesterday`, `2026-11-01`, a day in the input's zone), are read on the
 * service's clock when one counts back, and are always sent as RFC 3339 in UTC. A bad input is an
 * InputError naming its fields by path; each door names them (the CLI's flags: command-kit/charge-list-flags.ts).
 */
import type { ApiClient } from '../api/types.js'
import { type ChargeListQuery, ChargeListQuerySchema } from '../contract/schemas.js'
import { isValidTimeZone } from '../domain/calendar.js'
import { dateBeyondService, parseDate, SERVICE_DATES } from '../domain/time.js'
import { CHARGE_ID } from './charge-id.js'
import { echoed, stripFieldName } from './flag-issues.js'
import { anyRelative, type InputIssue, InputError } from './operator-input.js'
import { readOnServiceClock } from './service-clock.js'

/** A page's filters as typed: dates as text (they may count back from the service's now). */
export interface ChargeListInput {
  status?: string
  externalId?: string
  createdAfter?: string
  createdBefore?: string
  limit?: number
  startingAfter?: string
  /** The zone of a day in createdAfter/createdBefore (`2026-11-03`, today); default the machine's. */
  timeZone?: string
}

/** The query on the clock `now`; `decides: false` leaves the order of the dates to a later reading on the service's clock (see service-clock.ts). Throws InputError. */
export function readListQuery(input: ChargeListInput, now: Date, decides = true, earlier: InputIssue[] = []): ChargeListQuery {
  if (input.timeZone !== undefined && !isValidTimeZone(input.timeZone)) {
    // Said first and alone, as before any date is read in a zone that does not exist.
    throw new InputError([{ path: 'timeZone', message: `${echoed(input.timeZone)} is not a time zone this system knows: use an IANA name such as America/Sao_Paulo or UTC` }])
  }
  const issues: InputIssue[] = []
  const reading = { now, ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}) }
  const instant = (path: 'createdAfter' | 'createdBefore'): string | undefined => {
    const raw = input[path]
    if (raw === undefined) return undefined
    const d = parseDate(raw, reading)
    if (d) return d.toISOString()
    if (dateBeyondService(raw, reading)) {
      issues.push({ path, message: `${echoed(raw)} is beyond the dates the service takes (${SERVICE_DATES})` })
      return undefined
    }
    const why = /^\s*\d{4}-\d{2}-\d{2}/.test(raw) ? 'is not a date and time that exists' : 'is not a time'
    issues.push({ path, message: `${echoed(raw)} ${why}: use RFC 3339, a date (2026-11-01), today, yesterday or an age (2h, 7d)` })
    return undefined
  }
  const createdAfter = instant('createdAfter')
  const createdBefore = instant('createdBefore')
  issues.push(...earlier)
  if (input.startingAfter !== undefined && !CHARGE_ID.test(input.startingAfter)) {
    issues.push({ path: 'startingAfter', message: 'must be a charge id (24 hexadecimal characters)' })
  }
  const query: Record<string, unknown> = {
    status: input.status,
    externalId: input.externalId,
    createdAfter,
    createdBefore,
    startingAfter: input.startingAfter,
    limit: input.limit,
  }
  for (const key of Object.keys(query)) if (query[key] === undefined) delete query[key]
  const parsed = ChargeListQuerySchema.safeParse(query)
  if (!parsed.success) {
    const seen = new Set<string>()
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.')
      if (seen.has(path)) continue
      seen.add(path)
      issues.push({ path, message: stripFieldName(issue.message, path) })
    }
  }
  if (decides && createdAfter && createdBefore && createdAfter >= createdBefore) {
    issues.push({ path: 'createdAfter', message: 'must be earlier than {createdBefore}' })
  }
  if (issues.length > 0) throw new InputError(issues)
  return parsed.data!
}

/** The operation: the query, its dates read on the service's clock when one counts back (one small request reads its Date header). */
export function chargeListQuery(input: ChargeListInput, client: () => Promise<Pick<ApiClient, 'listCharges' | 'serverNow'>>, earlier: InputIssue[] = []): Promise<ChargeListQuery> {
  return readOnServiceClock(client, anyRelative(input.createdAfter, input.createdBefore), (now, decides) => readListQuery(input, now, decides, earlier))
}
