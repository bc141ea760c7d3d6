/**
 * `svc status` for people: one block per item (what, how many, the oldest or the ids, what to
 * do), or one line saying nothing needs a person. Piped: `kind<TAB>count<TAB>detail` lines.
 */
import { formatBRL } from '../domain/money.js'
import type { StatusItem, StatusReport } from './status.js'
import type { Paint } from '../output/color.js'
import { safeText } from '../output/safe-text.js'

function lateness(ms: number): string {
  const h = Math.floor(ms / 3_600_000)
  return h >= 48 ? `${Math.floor(h / 24)} d` : h >= 1 ? `${h} h` : `${Math.floor(ms / 60_000)} min`
}

function headline(item: StatusItem): string {
  switch (item.kind) {
    case 'overdue_settlements':
      return `${item.count} settlement(s) overdue (${formatBRL(item.grossInCents)}); oldest ${item.oldest.id}${item.oldest.externalId ? ` (${safeText(item.oldest.externalId)})` : ''}, ${lateness(item.oldest.lateMs)} late`
    case 'refunds':
      return `${item.count} refund(s) since ${item.since} (${formatBRL(item.grossInCents)}): ${item.charges.map((c) => safeText(c.externalId ?? c.id)).join(', ')}`
    case 'webhook_inactive':
      return `webhook endpoint deactivated (${item.environment}): ${safeText(item.url)}`
    case 'failed_forwards':
      return `${item.count} delivery(ies) never reached your app: ${item.events.map((e) => `${e.eventId} ${safeText(e.type)}`).join(', ')}`
    case 'split_failed':
      return `${item.count} split(s) failed: ${item.events.map((e) => e.chargeId ?? e.eventId).join(', ')}`
    case 'withdrawal_failed':
      return `${item.count} withdrawal(s) failed: ${item.events.map((e) => e.eventId).join(', ')}`
  }
}

export function statusView(report: StatusReport, paint: Paint, tty: boolean): string {
  if (!tty) return report.items.map((i) => `${i.kind}\t${i.count}\t${safeText(headline(i), 'tsv')}\n`).join('')
  if (report.items.length === 0) return `${paint('green', '✓')} Nothing needs a person.\n`
  return report.items.map((i) => `${paint('yellow', '!')} ${headline(i)}\n  ${paint('dim', `→ ${i.hint}`)}\n`).join('')
}
