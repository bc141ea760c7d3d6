/**
 * `svc status` for people: one block per item (what, how many, the oldest or the ids, what to
 * do), or one line saying nothing needs a person; times in the machine's zone. Piped: one line
 * per item, `kind<TAB>count` then that kind's fields, as every piped row: centavos, RFC 3339
 * instants, ids comma-separated (see `statusRow`).
 */
import { formatBRL } from '../domain/money.js'
import { formatLocalTime } from '../domain/time.js'
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
      return `${item.count} refund(s) since ${formatLocalTime(item.since)} (${formatBRL(item.grossInCents)}): ${item.charges.map((c) => safeText(c.externalId ?? c.id)).join(', ')}`
    case 'webhook_inactive':
      return `webhook endpoint deactivated (${item.environment}): ${safeText(item.url)}`
    case 'failed_forwards':
      return `${item.count} delivery(ies) never reached your app: ${item.events.map((e) => `${e.eventId} ${safeText(e.type)}`).join(', ')}`
    case 'split_failed':
      return `${item.count} split(s) failed: ${item.events.map((e) => e.chargeId ?? e.eventId).join(', ')}`
    case 'withdrawal_failed':
      return `${item.count} withdrawal(s) failed: ${item.events.map((e) => e.eventId).join(', ')}`
    case 'failed_deliveries':
      return `${item.count} delivery(ies) the sandbox gave up on: ${item.deliveries.map((d) => `${d.eventId} ${safeText(d.type)} (${safeText(d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : 'no answer'))})`).join(', ')}`
  }
}

/**
 * The piped fields after `kind` and `count`: overdue_settlements grossInCents oldestId
 * oldestEstimatedAt lateMs; refunds grossInCents since chargeIds; webhook_inactive environment
 * url; failed_forwards, withdrawal_failed and failed_deliveries eventIds; split_failed chargeIds
 * (the event id where the event named no charge).
 */
function statusFields(item: StatusItem): Array<string | number> {
  switch (item.kind) {
    case 'overdue_settlements':
      return [item.grossInCents, item.oldest.id, item.oldest.estimatedAt, item.oldest.lateMs]
    case 'refunds':
      return [item.grossInCents, item.since, item.charges.map((c) => c.id).join(',')]
    case 'webhook_inactive':
      return [item.environment, item.url]
    case 'failed_forwards':
    case 'withdrawal_failed':
      return [item.events.map((e) => e.eventId).join(',')]
    case 'split_failed':
      return [item.events.map((e) => e.chargeId ?? e.eventId).join(',')]
    case 'failed_deliveries':
      return [item.deliveries.map((d) => d.eventId).join(',')]
  }
}

export function statusRow(item: StatusItem): string {
  return `${[item.kind, item.count, ...statusFields(item)].map((f) => safeText(String(f), 'tsv')).join('\t')}\n`
}

export function statusView(report: StatusReport, paint: Paint, tty: boolean): string {
  if (!tty) return report.items.map(statusRow).join('')
  if (report.items.length === 0) return `${paint('green', '✓')} Nothing needs a person.\n`
  return report.items.map((i) => `${paint('yellow', '!')} ${headline(i)}\n  ${paint('dim', `→ ${i.hint}`)}\n`).join('')
}
