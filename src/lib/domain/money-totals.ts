/**
 * Sums of money in integer centavos, and the balance check every charge passes before it is
 * summed: fee + net = gross (spec 2.3). A charge that does not balance is reported, never summed.
 */
export interface AmountParts {
  grossInCents: number
  feeInCents: number
  netInCents: number
}

export interface MoneyTotals extends AmountParts {
  count: number
}

export function emptyTotals(): MoneyTotals {
  return { count: 0, grossInCents: 0, feeInCents: 0, netInCents: 0 }
}

/** Whether the amount is whole centavos that add up: fee + net = gross. */
export function isBalanced(a: AmountParts): boolean {
  return Number.isSafeInteger(a.grossInCents) && Number.isSafeInteger(a.feeInCents) && Number.isSafeInteger(a.netInCents) && a.feeInCents + a.netInCents === a.grossInCents
}

/** Adds one balanced amount to `totals` (in place). Throws on a sum past exact integers rather than round it. */
export function addAmount(totals: MoneyTotals, a: AmountParts): void {
  totals.count += 1
  totals.grossInCents += a.grossInCents
  totals.feeInCents += a.feeInCents
  totals.netInCents += a.netInCents
  if (!Number.isSafeInteger(totals.grossInCents) || !Number.isSafeInteger(totals.feeInCents) || !Number.isSafeInteger(totals.netInCents)) {
    throw new RangeError('a sum of centavos is past the exact integer range')
  }
}
