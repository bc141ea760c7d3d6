/**
 * Dividing a split charge's asset (spec 6.3): each destination gets its share (basis points) of
 * the net amount, rounded down, and the centavos left by rounding go to the first destination,
 * so the parts always add up to the net. Pure; the sandbox applies it when the split runs.
 */
export type SplitShare = {
  wallet: string
  shareBps: number
}

export type SplitPart = {
  wallet: string
  shareBps: number
  amountInCents: number
  txId?: string
}

export function divideShares(netInCents: number, shares: readonly SplitShare[]): SplitPart[] {
  const parts = shares.map((s) => ({ wallet: s.wallet, shareBps: s.shareBps, amountInCents: Math.floor((netInCents * s.shareBps) / 10_000) }))
  const rest = netInCents - parts.reduce((sum, p) => sum + p.amountInCents, 0)
  if (parts.length > 0) parts[0]!.amountInCents += rest
  return parts
}
