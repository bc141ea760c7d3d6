/**
 * Rows of `charges list`. Piped: tab-separated, no header, a stable column order
 * `id status amountInCents externalId createdAt` with the API's RFC 3339 times, so `cut -f`
 * scripts keep working. Terminal: a fixed-width table, written row by row as pages arrive.
 */
import type { Charge } from '../contract/schemas.js'
import { formatBRL } from '../domain/money.js'
import { relativeTime } from '../domain/time.js'
import type { Paint } from './color.js'
import { paintStatus } from './charge-view.js'
import { safeText } from './safe-text.js'
import { type Column, streamingTable, truncate } from './table.js'

export const TSV_COLUMNS = ['id', 'status', 'amountInCents', 'externalId', 'createdAt'] as const

/** A TSV field: a tab, newline or other control character in a value is escaped, never breaks the row. */
const field = (s: string | undefined) => safeText(s ?? '', 'tsv')

export function chargeTsvRow(charge: Charge): string {
  return `${[charge.id, charge.status, String(charge.amount.grossInCents), charge.externalId, charge.createdAt].map(field).join('\t')}\n`
}

const LOCAL_SHORT = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false })

/** `22/11/2026 14:05`, local time: the table's compact form (the relative column says how long ago). */
export function shortLocalTime(iso: string): string {
  return LOCAL_SHORT.format(new Date(iso)).replace(',', '')
}

const FIXED = [24, 23, 12, 16, 12]

/**
 * The terminal table of charges; the external id column takes what the terminal width leaves.
 * `now` is the server's clock (ApiClient.serverNow) for the age column.
 */
export function chargeTable(paint: Paint, columns: number, now: () => Date = () => new Date()) {
  const gaps = 2 * 5
  const extWidth = Math.max(11, Math.min(40, columns - FIXED.reduce((a, b) => a + b, 0) - gaps))
  const cols: Column[] = [
    { header: 'ID', width: 24 },
    { header: 'STATUS', width: 23 },
    { header: 'AMOUNT', width: 12, align: 'right' },
    { header: 'EXTERNAL ID', width: extWidth },
    { header: 'CREATED', width: 16 },
    { header: 'AGE', width: 12 },
  ]
  const table = streamingTable(cols, paint)
  return {
    header: table.header,
    row: (c: Charge) =>
      table.row([
        c.id,
        paintStatus(paint, c.status),
        formatBRL(c.amount.grossInCents),
        truncate(safeText(c.externalId ?? '') || '-', extWidth),
        shortLocalTime(c.createdAt),
        paint('dim', relativeTime(new Date(c.createdAt), now(), { happened: true })),
      ]),
  }
}
