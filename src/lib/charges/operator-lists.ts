/**
 * The operator's lists (CLI.md 0.4) as use-cases over the same paginated iterator `charges list
 * --all` uses: the API filters by creation only (spec 4.2), so these stream the pages they need
 * and filter locally, one page in memory at a time.
 */
import { PAGE_SIZE } from '../api/paginate.js'
import type { Charge, ChargeListQuery } from '../contract/schemas.js'
import { serviceBound } from '../domain/time.js'

export interface ChargePages {
  paginateCharges(query?: ChargeListQuery): AsyncGenerator<Charge>
}

/** The pages themselves too, for a scan that must know where each page ends. */
export interface ChargePageReader extends ChargePages {
  listCharges(query?: ChargeListQuery): Promise<{ data: Charge[]; hasMore: boolean }>
}

/** Two newest-first streams as one newest-first stream (by createdAt, then id), each read lazily. */
export async function* mergeNewestFirst(a: AsyncIterator<Charge>, b: AsyncIterator<Charge>): AsyncGenerator<Charge> {
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

/**
 * A newest-first stream with each id once, in its state as read last. The API orders by
 * createdAt, which never changes, so the two readings of one charge (a merge of two scans it
 * moved between) share a createdAt: only the charges of one createdAt are held back until the
 * next createdAt comes, so memory stays flat (a handful of charges) however long the stream.
 * Of two readings the one updated later wins (refunded after settled); on a tie, the later read.
 */
export async function* onceById(charges: AsyncIterable<Charge>): AsyncGenerator<Charge> {
  let group = new Map<string, Charge>()
  let groupAt: string | undefined
  const flush = function* () {
    // Map order is first-seen order, the merge's order; a replaced reading keeps its place.
    yield* group.values()
    group = new Map()
  }
  for await (const charge of charges) {
    if (charge.createdAt !== groupAt) {
      yield* flush()
      groupAt = charge.createdAt
    }
    const before = group.get(charge.id)
    if (!before || Date.parse(charge.updatedAt) >= Date.parse(before.updatedAt)) group.set(charge.id, charge)
  }
  yield* flush()
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
  // A lookback reaching before the service's first date scans from that date (nothing is older).
  if (range.after) base.createdAfter = serviceBound(range.after.getTime() - range.lookbackMs - 1)
  if (range.before) base.createdBefore = serviceBound(range.before.getTime())
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
 * settled first), newest created first, each once in its state as read last (one refunded while
 * the scans run can be read by both); streamed.
 */
export async function* settledBetween(pages: ChargePageReader, range: SettledRange, pageSize?: number): AsyncGenerator<Charge> {
  const [settled, refunded] = settledScanQueries(range).map((q) => ({ ...q, limit: pageSize || PAGE_SIZE })) as [ChargeListQuery, ChargeListQuery]
  for await (const charge of onceById(refundedBehindSettled(pages, settled, refunded))) if (settledInRange(charge, range)) yield charge
}

/**
 * The settled scan, page by page, merged with the refunded scan read behind it, newest first.
 * A charge moves from settled to refunded while the list is read; were the refunded scan ahead
 * of the settled one (two scans side by side each read a page ahead), a charge refunded after
 * the refunded scan passed it and before the settled scan reached it would be read by neither
 * (issue 36). So the refunded charges are read in windows, each after the settled page that
 * covers it: after a settled page, those created after the page's last createdAt (not at it:
 * the next page may still hold charges of that instant), down to where the last window
 * stopped; after the last page, all the rest. A charge refunded meanwhile is then read by the
 * settled scan, or by a window read later, or by both (onceById keeps one, as read last): never
 * by neither. The settled charges of a page's last instant wait for the next window, with which
 * they merge. Cost: one refunded request per settled page at least (a window is usually small).
 */
async function* refundedBehindSettled(pages: ChargePageReader, settledQuery: ChargeListQuery, refundedQuery: ChargeListQuery): AsyncGenerator<Charge> {
  let cursor: string | undefined
  let held: Charge[] = []
  // The refunded charges created before this (strict, as the API's bound) are still to read.
  let below = refundedQuery.createdBefore
  // The last window's lower bound: a window past it holds nothing newer (a service whose
  // createdAt is finer than the millisecond could give one twice across `below`'s rounding).
  let floorRead: string | undefined
  for (;;) {
    const page = await pages.listCharges({ ...settledQuery, ...(cursor ? { startingAfter: cursor } : {}) })
    const last = page.data.at(-1)
    // An empty page with hasMore=true, or one ending on the cursor, would loop forever: it ends the scan.
    const more = page.hasMore && last !== undefined && last.id !== cursor
    const floor = more ? last.createdAt : undefined
    const settled = [...held, ...page.data]
    held = floor === undefined ? [] : settled.filter((c) => c.createdAt === floor)
    const now = floor === undefined ? settled : settled.filter((c) => c.createdAt !== floor)
    const window = pages.paginateCharges({ ...refundedQuery, ...(floor !== undefined ? { createdAfter: floor } : {}), ...(below !== undefined ? { createdBefore: below } : {}) })
    const seenFloor = floorRead
    const fresh = (async function* () {
      for await (const c of window) if (seenFloor === undefined || c.createdAt <= seenFloor) yield c
    })()
    yield* mergeNewestFirst(inOrder(now), fresh)
    if (floor === undefined) return
    below = serviceBound(Date.parse(floor) + 1)
    floorRead = floor
    cursor = last!.id
  }
}

async function* inOrder(charges: Charge[]): AsyncGenerator<Charge> {
  yield* charges
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
