/**
 * The operator's lists (CLI.md 0.4) as use-cases over the same paginated iterator `charges list
 * --all` uses: the API filters by creation only (spec 4.2), so these stream the pages they need
 * and filter locally, one page in memory at a time.
 */
import type { Charge, ChargeListQuery } from '../contract/schemas.js'

export interface ChargePages {
  paginateCharges(query?: ChargeListQuery): AsyncGenerator<Charge>
}

/** Two newest-first streams as one newest-first stream (by createdAt, then id), each read lazily. */
export async function* mergeNewestFirst(a: AsyncGenerator<Charge>, b: AsyncGenerator<Charge>): AsyncGenerator<Charge> {
  let x = await a.next()
  let y = await b.next()
  while (!x.done || !y.done) {
    const takeX = y.done || (!x.done && (x.value.createdAt > y.value.createdAt || (x.value.createdAt === y.value.createdAt && x.value.id > y.value.id)))
    if (takeX) {
      yield x.value as Charge
      x = await a.next()
    } else {
      yield y.value as Charge
      y = await b.next()
    }
  }
}

export interface SettledRange {
  /** Settled at or after. */
  after?: Date
  /** Settled before. */
  before?: Date
  /** How long before `after` a charge may have been created and still settle in range (default 30 days). */
  lookbackMs: number
}

/** `status=settled` and `status=refunded`, created from `after − lookback` (and before `before`): every charge that can have settled in range. */
export function settledScanQueries(range: SettledRange): ChargeListQuery[] {
  const base: ChargeListQuery = {}
  // The API's createdAfter is strict: one millisecond earlier keeps a charge created exactly at the bound.
  if (range.after) base.createdAfter = new Date(range.after.getTime() - range.lookbackMs - 1).toISOString()
  if (range.before) base.createdBefore = range.before.toISOString()
  return [
    { ...base, status: 'settled' },
    { ...base, status: 'refunded' },
  ]
}

/** Whether the charge's `settlement.settledAt` falls in `[after, before)`. */
export function settledInRange(charge: Charge, range: Pick<SettledRange, 'after' | 'before'>): boolean {
  const at = charge.settlement.settledAt
  if (!at) return false
  const t = new Date(at).getTime()
  return (!range.after || t >= range.after.getTime()) && (!range.before || t < range.before.getTime())
}

/**
 * Charges whose settlement fell in the range, whatever their status now (a refunded charge was
 * settled first), newest created first; streamed.
 */
export async function* settledBetween(pages: ChargePages, range: SettledRange, pageSize?: number): AsyncGenerator<Charge> {
  const [settled, refunded] = settledScanQueries(range).map((q) => pages.paginateCharges(pageSize ? { ...q, limit: pageSize } : q)) as [AsyncGenerator<Charge>, AsyncGenerator<Charge>]
  for await (const charge of mergeNewestFirst(settled, refunded)) if (settledInRange(charge, range)) yield charge
}

/** A charge past its settlement estimate, and by how much. */
export interface OverdueCharge {
  charge: Charge
  lateMs: number
}

/**
 * `paid_pending_settlement` charges whose `settlement.estimatedAt` lies more than `graceMs` in the
 * past by the service's clock (`now()`, read after each page from its Date header), oldest
 * estimate first. Only the overdue ones are kept (to sort them); every page is streamed.
 */
export async function overdueCharges(pages: ChargePages, opts: { graceMs: number; now: () => Date; pageSize?: number }): Promise<OverdueCharge[]> {
  const late: OverdueCharge[] = []
  const query: ChargeListQuery = { status: 'paid_pending_settlement', ...(opts.pageSize ? { limit: opts.pageSize } : {}) }
  for await (const charge of pages.paginateCharges(query)) {
    const at = charge.settlement.estimatedAt
    if (!at) continue
    const lateMs = opts.now().getTime() - new Date(at).getTime()
    if (lateMs > opts.graceMs) late.push({ charge, lateMs })
  }
  return late.sort((a, b) => b.lateMs - a.lateMs || (a.charge.id < b.charge.id ? -1 : 1))
}
