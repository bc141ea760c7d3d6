/**
 * How one withdrawal looks, like a charge (charge-view.ts): labelled fields on a terminal,
 * `key<TAB>value` lines with the raw API values when piped.
 */
import type { Withdrawal } from '../contract/withdrawals.js'
import { formatBRL } from '../domain/money.js'
import { formatLocalTime, relativeTime } from '../domain/time.js'
import { labelled } from './charge-view.js'
import { environmentBadge, type Paint } from './color.js'
import { safeText } from './safe-text.js'

const TONE = { processing: 'yellow', paid: 'green', failed: 'red' } as const

export function renderWithdrawalView(w: Withdrawal, opts: { paint: Paint; now?: Date }): string {
  const { paint } = opts
  const now = opts.now ?? new Date()
  const when = (iso: string) => `${formatLocalTime(iso)} (${relativeTime(new Date(iso), now, { happened: true })})`
  const fields: Array<[string, string]> = [
    ['ID', paint('bold', w.id)],
    ['Status', paint(TONE[w.status], w.status)],
    ['Amount', paint('bold', formatBRL(w.amountInCents))],
    ['Pix key', safeText(w.pix.key)],
  ]
  if (w.pix.endToEndId) fields.push(['End-to-end id', safeText(w.pix.endToEndId)])
  if (w.failureReason) fields.push(['Failure', safeText(w.failureReason)])
  fields.push(['Created', when(w.createdAt)], ['Updated', when(w.updatedAt)])
  return `${environmentBadge(paint, w.environment)} Withdrawal ${w.id}\n\n${labelled(fields, paint)}\n`
}

export function withdrawalFieldLines(w: Withdrawal): string {
  const rows: Array<[string, string | number | undefined]> = [
    ['id', w.id],
    ['status', w.status],
    ['environment', w.environment],
    ['amountInCents', w.amountInCents],
    ['pixKey', w.pix.key],
    ['endToEndId', w.pix.endToEndId],
    ['failureReason', w.failureReason],
    ['createdAt', w.createdAt],
    ['updatedAt', w.updatedAt],
  ]
  return rows
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}\t${safeText(String(v), 'tsv')}\n`)
    .join('')
}
