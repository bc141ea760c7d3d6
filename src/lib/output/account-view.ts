/**
 * How `svc account` shows the merchant account (GET /v1/account): a labelled view on a terminal,
 * `key<TAB>value` lines with the API's raw values when piped. The account's texts come from the
 * server: shown through safeText.
 */
import type { Account } from '../contract/schemas.js'
import { formatBps, formatBRL } from '../domain/money.js'
import { environmentBadge, type Paint } from './color.js'
import { safeText } from './safe-text.js'

/** On a terminal: a labelled view; `reactivate`, how to reactivate an inactive webhook endpoint, next to it. */
export function accountView(a: Account, paint: Paint, reactivate?: string): string {
  const badge = environmentBadge(paint, a.environment)
  const fixed = formatBRL(a.feeFixedInCents)
  const rows: Array<[string, string]> = [
    // The account's texts come from the server: shown with their control characters escaped.
    ['Merchant', `${safeText(a.merchantId)} (${safeText(a.email)})`],
    ['Environment', a.environment],
    ['Plan', `${safeText(a.plan.name)}: ${formatBps(a.plan.feeBps)} + ${fixed} per charge`],
    ['Fixed fee', `${fixed} per charge`],
    ['Limits', `${formatBRL(a.limits.minChargeInCents)} to ${formatBRL(a.limits.maxChargeInCents)} per charge`],
    ['Settlement', `${a.settlementDelayHours} h hold after payment`],
    ['Webhook', a.webhook ? `${safeText(a.webhook.url)} ${a.webhook.active ? paint('green', '(active)') : paint('red', '(inactive)')}` : paint('dim', 'not configured')],
  ]
  // Next to "(inactive)": how to reactivate it (the service sends nothing to it until then).
  if (reactivate) rows.push(['', paint('dim', safeText(reactivate))])
  const width = Math.max(...rows.map(([k]) => k.length))
  const lines = rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}`)
  return `${badge} ${paint('bold', `Account ${safeText(a.merchantId)}`)}\n\n${lines.join('\n')}\n`
}

/** The piped form: one `key<TAB>value` per line, raw API values, stable order. */
export function accountLines(a: Account): string {
  const rows: Array<[string, string | number | boolean | undefined]> = [
    ['merchantId', a.merchantId],
    ['email', a.email],
    ['environment', a.environment],
    ['plan.id', a.plan.id],
    ['plan.name', a.plan.name],
    ['plan.feeBps', a.plan.feeBps],
    ['feeFixedInCents', a.feeFixedInCents],
    ['limits.minChargeInCents', a.limits.minChargeInCents],
    ['limits.maxChargeInCents', a.limits.maxChargeInCents],
    ['settlementDelayHours', a.settlementDelayHours],
    ['webhook.url', a.webhook?.url],
    ['webhook.active', a.webhook?.active],
  ]
  return rows
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}\t${safeText(String(v), 'tsv')}\n`)
    .join('')
}
