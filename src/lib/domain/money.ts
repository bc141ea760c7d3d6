/**
 * Money in integer centavos. The fee is the plan's fixed part plus a percentage of the gross
 * (spec 2.3). Rounding of the percentage part ("not shown"): half up to the nearest centavo.
 */
export interface FeePlan {
  feeBps: number
  feeFixedInCents: number
}

export interface Amount {
  grossInCents: number
  feeBps: number
  feeFixedInCents: number
  feeInCents: number
  netInCents: number
}

export function percentagePart(grossInCents: number, feeBps: number): number {
  return Math.floor((grossInCents * feeBps + 5000) / 10_000)
}

export function computeAmount(grossInCents: number, plan: FeePlan): Amount {
  const feeInCents = plan.feeFixedInCents + percentagePart(grossInCents, plan.feeBps)
  return {
    grossInCents,
    feeBps: plan.feeBps,
    feeFixedInCents: plan.feeFixedInCents,
    feeInCents,
    netInCents: grossInCents - feeInCents,
  }
}

/** `R$ 1.234,56` (Brazilian conventions) from integer centavos. */
export function formatBRL(cents: number): string {
  const negative = cents < 0
  const abs = Math.abs(Math.trunc(cents))
  const reais = Math.floor(abs / 100)
  const centavos = String(abs % 100).padStart(2, '0')
  const grouped = String(reais).replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return `${negative ? '-' : ''}R$ ${grouped},${centavos}`
}

/** Basis points as a percentage: 199 → `1,99%`. */
export function formatBps(bps: number): string {
  return `${(bps / 100).toFixed(2).replace('.', ',')}%`
}
