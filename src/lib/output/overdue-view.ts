/** The terminal table of `charges list --overdue`: each paid charge late to settle, and how late. */
import type { Charge } from '../contract/schemas.js'
import { formatBRL } from '../domain/money.js'
import { shortLocalTime } from './charge-list-view.js'
import { painter } from './color.js'
import type { IO } from './io.js'
import { safeText } from './safe-text.js'
import { streamingTable, truncate } from './table.js'

/** `3 h 20 min`, `2 d 4 h`: how late, coarse enough to read at a glance. */
export function lateness(ms: number): string {
  const min = Math.floor(ms / 60_000)
  if (min < 60) return `${min} min`
  const h = Math.floor(min / 60)
  if (h < 48) return `${h} h${min % 60 ? ` ${min % 60} min` : ''}`
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`
}

export function overdueTable(io: IO, timeZone?: string) {
  const paint = painter(io.color)
  const table = streamingTable(
    [
      { header: 'ID', width: 24 },
      { header: 'AMOUNT', width: 12, align: 'right' },
      { header: 'EXTERNAL ID', width: 20 },
      { header: 'ESTIMATED', width: 16 },
      { header: 'LATE', width: 12 },
    ],
    paint,
  )
  return {
    header: table.header,
    row: ({ charge, lateMs }: { charge: Charge; lateMs: number }) =>
      table.row([
        charge.id,
        formatBRL(charge.amount.grossInCents),
        truncate(safeText(charge.externalId ?? '') || '-', 20),
        charge.settlement.estimatedAt ? shortLocalTime(charge.settlement.estimatedAt, timeZone) : '-',
        paint('yellow', lateness(lateMs)),
      ]),
  }
}
