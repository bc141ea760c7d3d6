/**
 * How one charge looks: the human view (terminal) and the `key<TAB>value` lines (pipes). The
 * human view shows money as `R$ 15,00` and times in local time with a relative hint; the piped
 * form keeps the API's raw values (centavos, RFC 3339) so scripts can cut and compare them.
 */
import type { Charge } from '../contract/schemas.js'
import { STATUS_TONE } from '../domain/charge-states.js'
import { formatBps, formatBRL } from '../domain/money.js'
import { splitOf } from '../contract/charge-split.js'
import { formatLocalTime, relativeTime } from '../domain/time.js'
import { environmentBadge, type Paint, TONE_STYLE } from './color.js'
import { safeText } from './safe-text.js'

export function paintStatus(paint: Paint, status: Charge['status']): string {
  return paint(TONE_STYLE[STATUS_TONE[status]] ?? 'bold', status)
}

/** `happened`: an event in the past (see relativeTime), never shown as in the future. */
function when(iso: string, now: Date, happened = false): string {
  return `${formatLocalTime(iso)} (${relativeTime(new Date(iso), now, { happened })})`
}

export interface ViewOptions {
  paint: Paint
  /** The server's "now" (ApiClient.serverNow), so relative times follow its clock, not ours. */
  now?: Date
  /** A line above the fields, e.g. "Charge created". */
  headline?: string
  /** The QR drawn for the terminal (qr.ts); shown with the copy-and-paste string. */
  qr?: string
}

/** The labelled fields of a charge, in reading order, for a terminal. */
export function chargeFields(charge: Charge, paint: Paint, now: Date = new Date()): Array<[string, string]> {
  const { amount, pix, settlement, payer } = charge
  const fields: Array<[string, string]> = [
    ['ID', paint('bold', charge.id)],
    ['Status', paintStatus(paint, charge.status)],
    ['Gross', formatBRL(amount.grossInCents)],
    ['Fee', `${formatBRL(amount.feeInCents)} (${formatBps(amount.feeBps)} + ${formatBRL(amount.feeFixedInCents)})`],
    ['Net', paint('bold', formatBRL(amount.netInCents))],
  ]
  if (charge.status === 'awaiting_payment' || charge.status === 'created') fields.push(['Expires', when(pix.expiresAt, now)])
  else fields.push(['QR expiry', formatLocalTime(pix.expiresAt)])
  // Outside data (the merchant's, the payer's, the bank's) is shown with its control characters escaped.
  if (charge.externalId) fields.push(['External ID', safeText(charge.externalId)])
  const taxNumber = safeText(payer.taxNumber)
  fields.push(['Payer', payer.name ? `${safeText(payer.name)} (${taxNumber})` : taxNumber])
  if (charge.description) fields.push(['Description', safeText(charge.description)])
  for (const [k, v] of Object.entries(charge.metadata ?? {})) fields.push([`  ${safeText(k)}`, safeText(v)])
  if (settlement.paidAt) fields.push(['Paid', when(settlement.paidAt, now, true)])
  if (settlement.estimatedAt && !settlement.settledAt) fields.push(['Settles', `${when(settlement.estimatedAt, now)}, after a ${settlement.delayHours} h hold`])
  if (settlement.settledAt) fields.push(['Settled', when(settlement.settledAt, now, true)])
  if (settlement.blockchainTxId) fields.push(['Blockchain tx', safeText(settlement.blockchainTxId)])
  const split = splitOf(charge)
  if (split) {
    const tone = split.status === 'completed' ? 'green' : split.status === 'failed' ? 'red' : 'yellow'
    fields.push(['Split', `${paint(tone, split.status)}${split.failureReason ? ` — ${safeText(split.failureReason)}` : ''}`])
    for (const d of split.destinations) {
      fields.push([`  ${(d.shareBps / 100).toLocaleString('pt-BR')}%`, `${formatBRL(d.amountInCents)} → ${safeText(d.wallet)}${d.txId ? paint('dim', ` tx ${safeText(d.txId)}`) : ''}`])
    }
  }
  fields.push(['Created', when(charge.createdAt, now, true)])
  return fields
}

export function labelled(fields: Array<[string, string]>, paint: Paint): string {
  const width = Math.max(...fields.map(([k]) => k.length))
  const metaHeader = fields.some(([k]) => k.startsWith('  ') && !/%$/.test(k))
  const lines: string[] = []
  let metaShown = false
  for (const [k, v] of fields) {
    if (k.startsWith('  ') && !/%$/.test(k) && metaHeader && !metaShown) {
      lines.push(`  ${paint('dim', 'Metadata')}`)
      metaShown = true
    }
    lines.push(`  ${paint('dim', k.padEnd(width))}  ${v}`)
  }
  return lines.join('\n')
}

/** The whole human view: badge and headline, QR and copy-and-paste string, then the fields. */
export function renderChargeView(charge: Charge, opts: ViewOptions): string {
  const { paint } = opts
  const parts: string[] = []
  parts.push(`${environmentBadge(paint, charge.environment)} ${opts.headline ?? `Charge ${charge.id}`}`)
  if (opts.qr !== undefined) {
    parts.push(opts.qr.replace(/\n+$/, ''))
    parts.push(`${paint('dim', 'Pix copy-and-paste:')}\n${safeText(charge.pix.qrCode)}`)
  }
  parts.push(labelled(chargeFields(charge, paint, opts.now), paint))
  return `${parts.join('\n\n')}\n`
}

/**
 * `key<TAB>value` lines with the API's raw values: the piped form of one charge. A tab, newline,
 * backslash or other control character inside a value is escaped (`\t`, `\n`, `\\`, `\x1b`), so
 * each field stays on its own line and `cut -f2` gets the whole value.
 */
export function chargeFieldLines(charge: Charge): string {
  const { amount, pix, settlement, payer } = charge
  const rows: Array<[string, string | number | undefined]> = [
    ['id', charge.id],
    ['status', charge.status],
    ['environment', charge.environment],
    ['grossInCents', amount.grossInCents],
    ['feeInCents', amount.feeInCents],
    ['netInCents', amount.netInCents],
    ['externalId', charge.externalId],
    ['payerTaxNumber', payer.taxNumber],
    ['payerName', payer.name],
    ['description', charge.description],
    ...Object.entries(charge.metadata ?? {}).map(([k, v]): [string, string] => [`metadata.${k}`, v]),
    ['qrCode', pix.qrCode],
    ['expiresAt', pix.expiresAt],
    ['paidAt', settlement.paidAt],
    ['estimatedAt', settlement.estimatedAt],
    ['settledAt', settlement.settledAt],
    ['blockchainTxId', settlement.blockchainTxId],
    ['split.status', splitOf(charge)?.status],
    ['split.failureReason', splitOf(charge)?.failureReason],
    ...(splitOf(charge)?.destinations ?? []).flatMap(
      (d, i): Array<[string, string | number | undefined]> => [
        [`split.${i}.wallet`, d.wallet],
        [`split.${i}.shareBps`, d.shareBps],
        [`split.${i}.amountInCents`, d.amountInCents],
        [`split.${i}.txId`, d.txId],
      ],
    ),
    ['createdAt', charge.createdAt],
    ['updatedAt', charge.updatedAt],
  ]
  return rows
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${safeText(k, 'tsv')}\t${safeText(String(v), 'tsv')}\n`)
    .join('')
}
