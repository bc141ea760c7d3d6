/**
 * The operator's operations, one function each for every door: a typed input (no flag or
 * argument names), its dates read on the service's clock when one counts back (charges/service-clock.ts),
 * and data returned. A bad input is an InputError naming the input's fields; the CLI names them
 * as flags (command-kit/operator-flags.ts), `svc mcp` as its tools' arguments.
 */
import type { ApiClient } from '../api/types.js'
import type { ChargesReport, SettlementReport } from '../domain/reports.js'
import type { Charge } from '../contract/schemas.js'
import { anyRelative, type ReportRange, type ReportRangeInput, readReportRange, readSettledRange, type SettledRangeInput } from '../charges/operator-input.js'
import { type OverdueCharge, overdueCharges, settledBetween } from '../charges/operator-lists.js'
import { chargesReport, settlementReport } from '../charges/reports.js'
import { readOnServiceClock } from '../charges/service-clock.js'

type Client = () => Promise<ApiClient>

const THIRTY_DAYS_MS = 30 * 86_400_000

export interface ReportHooks {
  /** Told the range once it is read, before any page (a terminal's heading). */
  onRange?: (range: ReportRange) => void | Promise<void>
  /** Told how many charges were read so far (progress). */
  onRead?: (n: number) => void
}

async function reportRange(input: ReportRangeInput, client: Client, hooks: ReportHooks): Promise<[ReportRange, ApiClient]> {
  const range = await readOnServiceClock(client, anyRelative(input.from, input.to), (now, decides) => readReportRange(input, now, decides))
  const c = await client()
  await hooks.onRange?.(range)
  return [range, c]
}

export interface SettlementReportInput extends ReportRangeInput {
  /** How long before `from` a charge may have been created and still settle in range (default 30 days); each door reads its own duration. */
  lookbackMs?: number
}

/** What settled (and was refunded) per period of the range. */
export async function reportSettlements(input: SettlementReportInput, client: Client, hooks: ReportHooks = {}): Promise<SettlementReport> {
  const [range, c] = await reportRange(input, client, hooks)
  return settlementReport(c, { ...range, lookbackMs: input.lookbackMs ?? THIRTY_DAYS_MS }, hooks.onRead)
}

/** What was created per period of the range, by status. */
export async function reportCharges(input: ReportRangeInput, client: Client, hooks: ReportHooks = {}): Promise<ChargesReport> {
  const [range, c] = await reportRange(input, client, hooks)
  return chargesReport(c, range, hooks.onRead)
}

/** Charges whose settledAt falls in the range, whatever their status now, streamed. The range is read (and refused) before the stream is returned. */
export async function listSettled(input: SettledRangeInput & { pageSize?: number }, client: Client): Promise<AsyncIterable<Charge>> {
  const range = await readOnServiceClock(client, anyRelative(input.settledAfter, input.settledBefore), (now, decides) => readSettledRange(input, now, decides))
  return settledBetween(await client(), range, input.pageSize)
}

export interface OverdueInput {
  /** How late counts as overdue (default 1 hour); each door reads its own duration. */
  graceMs?: number
}

/** Paid charges past their settlement estimate by more than the grace on the service's clock, oldest first. */
export async function listOverdue(input: OverdueInput, client: Client): Promise<OverdueCharge[]> {
  const c = await client()
  return overdueCharges(c, { graceMs: input.graceMs ?? 3_600_000, now: () => c.serverNow() })
}
