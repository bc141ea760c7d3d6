/**
 * `charges list` and `list_charges`: one operation, `chargeListQuery`, from a typed input (no
 * flag or argument names) to a validated ChargeListQuery (spec 4.2). Times accept RFC 3339 and
 * friendly forms (`2h`, `yesterday`, `2026-11-01`, a day in the input's zone), are read on the
 * service's clock when one counts back, and are always sent as RFC 3339 in UTC. A bad input is an
 * InputError naming its fields by path; `parseListFlags` is the CLI's edge, naming them as flags.
 */
import type { ApiClient } from '../api/types.js'
import { type ChargeListQuery, ChargeListQuerySchema } from '../contract/schemas.js'
import { isValidTimeZone } from '../domain/calendar.js'
import { dateBeyondService, parseDate, SERVICE_DATES } from '../domain/time.js'
import { CHARGE_ID } from './charge-id.js'
import { echoed, flagsError, stripFieldName } from './flag-issues.js'
import { anyRelative, type InputIssue, InputError, inDoorWords } from './operator-input.js'
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

// ---- The CLI's edge: flags in, flags named in errors. ----

export interface ListFlags {
  status?: string
  'external-id'?: string
  'created-after'?: string
  'created-before'?: string
  limit?: string
  'starting-after'?: string
  tz?: string
}

const HINT = 'See `svc charges list --help` for the accepted values and examples.'

const FLAG_OF: Readonly<Record<string, string>> = { timeZone: 'tz', externalId: 'external-id', createdAfter: 'created-after', createdBefore: 'created-before', startingAfter: 'starting-after' }
const flagName = (path: string) => `--${FLAG_OF[path.split('.')[0]!] ?? path}`

/** The input the flags type; a --limit that is no integer is an issue of its own, said with the rest. */
function fromFlags(flags: ListFlags): [ChargeListInput, InputIssue[]] {
  const issues: InputIssue[] = []
  const limitOk = flags.limit === undefined || /^\s*-?\d+\s*$/.test(flags.limit)
  if (!limitOk) issues.push({ path: 'limit', message: `must be an integer between 1 and 100, not ${echoed(flags.limit!)}` })
  const input: ChargeListInput = {
    status: flags.status,
    externalId: flags['external-id'],
    createdAfter: flags['created-after'],
    createdBefore: flags['created-before'],
    limit: limitOk && flags.limit !== undefined ? Number(flags.limit) : undefined,
    startingAfter: flags['starting-after'],
    timeZone: flags.tz,
  }
  return [input, issues]
}

/** An InputError of the list in the CLI's words: `--created-after (createdAfter): …`; anything else as it is. */
export function asListFlagsError(e: unknown): unknown {
  if (!(e instanceof InputError)) return e
  const label = (path: string) => (path === 'timeZone' ? '--tz' : `${flagName(path)} (${path})`)
  return flagsError(
    e.issues.map((i) => ({ field: label(i.path), message: inDoorWords(i.message, flagName) })),
    HINT,
  )
}

/** `charges list`'s flags on the clock `now` (tests, and `--limit` alone). */
export function parseListFlags(flags: ListFlags, now: Date = new Date(), decides = true): ChargeListQuery {
  const [input, issues] = fromFlags(flags)
  try {
    return readListQuery(input, now, decides, issues)
  } catch (e) {
    throw asListFlagsError(e)
  }
}

/** `charges list`'s flags read on the service's clock when a date counts back. */
export async function listQueryFromFlags(flags: ListFlags, client: () => Promise<Pick<ApiClient, 'listCharges' | 'serverNow'>>): Promise<ChargeListQuery> {
  const [input, issues] = fromFlags(flags)
  try {
    return await chargeListQuery(input, client, issues)
  } catch (e) {
    throw asListFlagsError(e)
  }
}
