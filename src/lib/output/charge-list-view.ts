/**
 * Rows of `charges list`. Piped: tab-separated, no header, a stable column order
 * `id status amountInCents externalId createdAt` with the API's RFC 3339 times, so `cut -f`
 * scripts keep working. Terminal: a fixed-width table fitted to the terminal's width, written
 * row by row as pages arrive.
 */
import type { Charge } from '../contract/schemas.js'
import { formatBRL } from '../domain/money.js'
import { relativeTime } from '../domain/time.js'
import type { Paint } from './color.js'
import { paintStatus } from './charge-view.js'
import { safeText } from './safe-text.js'
import { type Column, middleTruncate, streamingTable, truncate } from './table.js'

/** A TSV field: a tab, newline or other control character in a value is escaped, never breaks the row. */
const field = (s: string | undefined) => safeText(s ?? '', 'tsv')

export function chargeTsvRow(charge: Charge): string {
  return `${[charge.id, charge.status, String(charge.amount.grossInCents), charge.externalId, charge.createdAt].map(field).join('\t')}\n`
}

const SHORT_OPTIONS: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false }
const LOCAL_SHORT = new Intl.DateTimeFormat('pt-BR', SHORT_OPTIONS)

/** `22/11/2026 14:05`, local time (or in `timeZone`, e.g. --tz): the table's compact form (the relative column says how long ago). */
export function shortLocalTime(iso: string, timeZone?: string): string {
  const format = timeZone ? new Intl.DateTimeFormat('pt-BR', { ...SHORT_OPTIONS, timeZone }) : LOCAL_SHORT
  return format.format(new Date(iso)).replace(',', '')
}

/**
 * Piped `charges list --overdue`: the generic row's columns, then (appended, so scripts reading
 * the first five keep working) settlement.estimatedAt (RFC 3339) and how late it is in ms.
 */
export function overdueTsvRow(charge: Charge, lateMs: number): string {
  return `${[charge.id, charge.status, String(charge.amount.grossInCents), charge.externalId, charge.createdAt, charge.settlement.estimatedAt, String(lateMs)].map(field).join('\t')}\n`
}

/**
 * Piped `charges list --settled-after/--settled-before`: the generic row's columns, then
 * (appended, as --overdue does) settlement.settledAt (RFC 3339), what the filter chose by.
 */
export function settledTsvRow(charge: Charge): string {
  return `${[charge.id, charge.status, String(charge.amount.grossInCents), charge.externalId, charge.createdAt, charge.settlement.settledAt].map(field).join('\t')}\n`
}

/**
 * Layouts from the widest to the narrowest; the first whose header and rows fit the terminal is
 * used, so no line wraps (a wrapped table is unreadable). Narrower: the CREATED column goes (AGE
 * says when), then the ids are cut in the middle (`01a20ea3d8…0001`, -q and piped output keep
 * them whole), then AGE, then EXTERNAL ID (its header alone takes 11 columns), then AMOUNT.
 */
const LAYOUTS = [
  { id: 24, amount: 12, ext: true, created: true, age: true },
  { id: 24, amount: 12, ext: true, created: false, age: true },
  { id: 15, amount: 11, ext: true, created: false, age: true },
  { id: 15, amount: 11, ext: true, created: false, age: false },
  { id: 15, amount: 11, ext: false, created: false, age: false },
  { id: 15, amount: 0, ext: false, created: false, age: false },
] as const
const STATUS_WIDTH = 23
const EXT_HEADER = 'EXTERNAL ID'
const GAP = 2

/**
 * The terminal table of charges, fitted to `columns`; the external id column takes what the
 * width leaves (up to 40), never less than its header. `now` is the server's clock
 * (ApiClient.serverNow) for the age column.
 */
export function chargeTable(paint: Paint, columns: number, now: () => Date = () => new Date(), opts: { timeZone?: string; settled?: boolean } = {}) {
  // With the settled filters the last column is SETTLED (settlement.settledAt, in --tz), what was
  // asked about, in place of AGE (how long since creation).
  const lastWidth = opts.settled ? 16 : 12
  // They list settled and refunded charges only: STATUS needs no room for paid_pending_settlement.
  const statusWidth = opts.settled ? 'refunded'.length : STATUS_WIDTH
  // Every column's width, headers counted (a header wider than its cells still takes its room).
  const fixedOf = (l: (typeof LAYOUTS)[number]) => {
    const widths = [l.id, statusWidth, ...(l.amount ? [l.amount] : []), ...(l.created ? [16] : []), ...(l.age ? [lastWidth] : [])]
    return widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1)
  }
  const totalOf = (l: (typeof LAYOUTS)[number]) => fixedOf(l) + (l.ext ? GAP + EXT_HEADER.length : 0)
  const layout = LAYOUTS.find((l) => totalOf(l) <= columns) ?? LAYOUTS[LAYOUTS.length - 1]!
  const extWidth = Math.max(EXT_HEADER.length, Math.min(40, columns - fixedOf(layout) - GAP))
  const cols: Column[] = [
    { header: 'ID', width: layout.id },
    { header: 'STATUS', width: statusWidth },
    ...(layout.amount ? [{ header: 'AMOUNT', width: layout.amount, align: 'right' as const }] : []),
    ...(layout.ext ? [{ header: EXT_HEADER, width: extWidth }] : []),
    ...(layout.created ? [{ header: 'CREATED', width: 16 }] : []),
    ...(layout.age ? [opts.settled ? { header: 'SETTLED', width: 16 } : { header: 'AGE', width: 12 }] : []),
  ]
  const table = streamingTable(cols, paint)
  return {
    header: table.header,
    row: (c: Charge) =>
      table.row([
        middleTruncate(c.id, layout.id),
        paintStatus(paint, c.status),
        ...(layout.amount ? [formatBRL(c.amount.grossInCents)] : []),
        ...(layout.ext ? [truncate(safeText(c.externalId ?? '') || '-', extWidth)] : []),
        ...(layout.created ? [shortLocalTime(c.createdAt, opts.timeZone)] : []),
        ...(layout.age ? [opts.settled ? (c.settlement.settledAt ? shortLocalTime(c.settlement.settledAt, opts.timeZone) : '-') : paint('dim', relativeTime(new Date(c.createdAt), now(), { happened: true }))] : []),
      ]),
  }
}
