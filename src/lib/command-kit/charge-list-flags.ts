/**
 * The CLI's edge of `charges list` (charges/list-query.ts and the operator's lists,
 * services/operator-operations.ts): its flags read into each operation's typed input, and a bad
 * input's fields named as the flags that feed them (`--created-after (createdAfter)`, `--tz`), in
 * one usage error (exit 2) before anything is sent.
 */
import { Flags } from '@oclif/core'
import type { ApiClient } from '../api/types.js'
import { echoed, flagsError } from '../charges/flag-issues.js'
import { type ChargeListInput, chargeListQuery, readListQuery } from '../charges/list-query.js'
import { FlagReader } from './operator-flags.js'
import { InputError, type InputIssue, inDoorWords, type SettledRangeInput } from '../charges/operator-input.js'
import type { OverdueInput } from '../services/operator-operations.js'
import type { ChargeListQuery } from '../contract/schemas.js'

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

/** The operator's flags of `charges list` (help group OPERATORS): the settled list, the overdue list and the zone of their days. */
export const operatorFlags = {
  'settled-after': Flags.string({
    description: 'Settled at or after this date (every page is scanned).',
    helpValue: 'DATE',
    // relationships, not exclusive: these flags do not all exclude one another, and oclif's usage line can only draw groups that do (issue 36.22).
    relationships: [{ type: 'none', flags: ['status', 'overdue', 'starting-after', 'created-after', 'created-before', 'external-id'] }],
    helpGroup: 'OPERATORS',
  }),
  'settled-before': Flags.string({
    description: 'Settled before this date.',
    helpValue: 'DATE',
    relationships: [{ type: 'none', flags: ['status', 'overdue', 'starting-after', 'created-after', 'created-before', 'external-id'] }],
    helpGroup: 'OPERATORS',
  }),
  lookback: Flags.string({ description: 'How long before --settled-after a charge may have been created (default 30d).', helpValue: 'DURATION', helpGroup: 'OPERATORS' }),
  overdue: Flags.boolean({
    description: 'Paid charges past their settlement estimate by more than --grace, oldest first.',
    relationships: [{ type: 'none', flags: ['status', 'starting-after', 'created-after', 'created-before', 'external-id'] }],
    helpGroup: 'OPERATORS',
  }),
  grace: Flags.string({ description: 'With --overdue: how late counts as overdue (default 1h).', helpValue: 'DURATION', relationships: [{ type: 'all', flags: ['overdue'] }], helpGroup: 'OPERATORS' }),
  tz: Flags.string({ description: "Zone of the days in dates, created-* included (default the machine's), e.g. America/Sao_Paulo.", helpValue: 'ZONE', helpGroup: 'OPERATORS' }),
}

/** The settled list's flags as its typed input (a --limit is each scan's page size). */
export function settledInputFromFlags(flags: ListFlags & { 'settled-after'?: string; 'settled-before'?: string; lookback?: string }): SettledRangeInput & { pageSize?: number } {
  const pageSize = flags.limit === undefined ? undefined : parseListFlags({ limit: flags.limit }).limit
  return { settledAfter: flags['settled-after'], settledBefore: flags['settled-before'], lookback: flags.lookback, timeZone: flags.tz, pageSize }
}

/** The overdue list's flags as its typed input: --grace read, and a bad --tz refused though lateness does not use it. */
export function overdueInputFromFlags(flags: { grace?: string; tz?: string }): OverdueInput {
  const r = new FlagReader('See `svc charges list --help`.')
  const graceMs = r.duration('grace', flags.grace, '1h')
  // --tz means nothing to lateness (the service's clock decides), but a bad one is still a mistake to say.
  if (flags.tz !== undefined) r.zone(flags.tz)
  r.done()
  return { graceMs }
}
