/**
 * The arithmetic of a settlement report (CLI.md 0.4): what settled in a range of time (by
 * `settlement.settledAt`, whatever the charge's status now: a refunded charge was settled first),
 * what was refunded in it (by the refunded charge's `updatedAt`), and every charge whose fee and
 * net do not add up to its gross, listed and never summed. Pure: one charge in, new totals out,
 * so a caller can fold a stream of pages into it with flat memory.
 */

/** The fields of a charge the sums read (a structural subset of the contract's Charge). */
export interface SettlementCharge {
  id: string
  status: string
  updatedAt: string
  amount: { grossInCents: number; feeInCents: number; netInCents: number }
  settlement: { settledAt?: string }
}

export interface SettlementTotals {
  settled: { count: number; grossInCents: number; feeInCents: number; netInCents: number }
  refunded: { count: number; grossInCents: number }
  /** Ids of charges in the range whose fee + net ≠ gross: left out of the sums. */
  unbalanced: string[]
}

/** The range, as epoch milliseconds: `from` included, `to` excluded. */
export interface SettlementRange {
  from: number
  to: number
}

export function emptySettlementTotals(): SettlementTotals {
  return { settled: { count: 0, grossInCents: 0, feeInCents: 0, netInCents: 0 }, refunded: { count: 0, grossInCents: 0 }, unbalanced: [] }
}

function within(instant: string | undefined, range: SettlementRange): boolean {
  if (instant === undefined) return false
  const at = Date.parse(instant)
  return at >= range.from && at < range.to
}

/** The totals with one more charge counted (or listed as unbalanced); `totals` is left as it was. */
export function addToSettlementTotals(totals: SettlementTotals, charge: SettlementCharge, range: SettlementRange): SettlementTotals {
  const settledIn = within(charge.settlement.settledAt, range)
  const refundedIn = charge.status === 'refunded' && within(charge.updatedAt, range)
  if (!settledIn && !refundedIn) return totals
  const { grossInCents, feeInCents, netInCents } = charge.amount
  if (feeInCents + netInCents !== grossInCents) {
    return totals.unbalanced.includes(charge.id) ? totals : { ...totals, unbalanced: [...totals.unbalanced, charge.id] }
  }
  const s = totals.settled
  const r = totals.refunded
  return {
    settled: settledIn ? { count: s.count + 1, grossInCents: s.grossInCents + grossInCents, feeInCents: s.feeInCents + feeInCents, netInCents: s.netInCents + netInCents } : s,
    refunded: refundedIn ? { count: r.count + 1, grossInCents: r.grossInCents + grossInCents } : r,
    unbalanced: totals.unbalanced,
  }
}
