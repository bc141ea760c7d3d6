/**
 * The CSV columns of a charge (CLI.md 0.4), declared once: `charges list --csv` and every
 * other export of charges write these, in this order, with the API's RFC 3339 times and
 * integer centavos (accounting sums them exactly; `R$` formatting is for people only).
 */
import type { Charge } from '../contract/schemas.js'
import type { CsvColumn } from './csv.js'

export const CHARGE_CSV_COLUMNS: readonly CsvColumn<Charge>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'externalId', value: (c) => c.externalId },
  { header: 'status', value: (c) => c.status },
  { header: 'environment', value: (c) => c.environment },
  { header: 'createdAt', value: (c) => c.createdAt },
  { header: 'paidAt', value: (c) => c.settlement.paidAt },
  { header: 'estimatedAt', value: (c) => c.settlement.estimatedAt },
  { header: 'settledAt', value: (c) => c.settlement.settledAt },
  { header: 'grossInCents', value: (c) => c.amount.grossInCents },
  { header: 'feeInCents', value: (c) => c.amount.feeInCents },
  { header: 'netInCents', value: (c) => c.amount.netInCents },
  { header: 'feeBps', value: (c) => c.amount.feeBps },
  { header: 'feeFixedInCents', value: (c) => c.amount.feeFixedInCents },
  { header: 'blockchainTxId', value: (c) => c.settlement.blockchainTxId },
  { header: 'payerName', value: (c) => c.payer.name },
  { header: 'description', value: (c) => c.description },
  { header: 'metadata', value: (c) => (c.metadata && Object.keys(c.metadata).length > 0 ? JSON.stringify(c.metadata) : undefined) },
]
