/**
 * How the panel's answers look in a terminal (tables, labelled views) and piped (tab-separated
 * rows or `key<TAB>value` lines, no header, stable column order, raw values).
 */
import { maskSecret } from '../config/mask.js'
import type { Paint, Style } from '../output/color.js'
import { renderTable } from '../output/table.js'
import type { DeliveryState, PanelAccountSettings, PanelDelivery, PanelKey, PanelWebhookEndpoint } from './client.js'

const STATE_STYLE: Record<DeliveryState, Style> = { pending: 'yellow', succeeded: 'green', failed: 'red', skipped: 'gray' }

/** `in 10s`, `in 2m`, `in 3h 5m`: the wait until a retry, on the sandbox's clock. */
export function formatIn(ms: number): string {
  if (ms <= 0) return 'due now'
  const s = Math.round(ms / 1000)
  if (s < 60) return `in ${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `in ${m}m${s % 60 ? ` ${s % 60}s` : ''}`
  const h = Math.floor(m / 60)
  return `in ${h}h${m % 60 ? ` ${m % 60}m` : ''}`
}

function lastOutcome(d: PanelDelivery): string {
  if (d.lastStatus !== undefined) return String(d.lastStatus)
  return d.lastError ?? ''
}

export function deliveriesTable(rows: PanelDelivery[], sandboxNow: number, paint: Paint): string {
  const columns = [
    { header: 'EVENT ID' },
    { header: 'TYPE' },
    { header: 'URL', width: 40 },
    { header: 'ATTEMPTS', align: 'right' as const },
    { header: 'LAST STATUS', width: 24 },
    { header: 'NEXT RETRY' },
    { header: 'STATE' },
  ]
  const cells = rows.map((d) => [
    d.eventId,
    d.type,
    d.url,
    String(d.attempts),
    lastOutcome(d),
    d.nextRetryAt ? formatIn(Date.parse(d.nextRetryAt) - sandboxNow) : '',
    paint(STATE_STYLE[d.state] ?? 'bold', d.state),
  ])
  return renderTable(columns, cells, paint)
}

/** Piped: `eventId type url attempts lastStatus nextRetryAt state`, tab-separated. */
export function deliveriesTsv(rows: PanelDelivery[]): string {
  return rows.map((d) => [d.eventId, d.type, d.url, d.attempts, lastOutcome(d), d.nextRetryAt ?? '', d.state].join('\t') + '\n').join('')
}

/** One delivery in full (terminal): every attempt with its answer, then the body that was sent. */
export function deliveryDetail(d: PanelDelivery, paint: Paint): string {
  const out: string[] = []
  for (const a of d.attemptLog ?? []) {
    const outcome = a.status !== undefined && a.status >= 200 && a.status < 300 ? paint('green', String(a.status)) : paint('red', a.error ?? String(a.status))
    const manual = a.manual ? paint('dim', ' (resend)') : ''
    out.push(`  #${a.attempt}  ${a.at}  ${outcome}  ${a.durationMs} ms${manual}${a.response ? `  ${paint('dim', oneLine(a.response, 60))}` : ''}`)
  }
  const attempts = out.length ? `\n${paint('bold', 'Attempts')}\n${out.join('\n')}\n` : ''
  return `${attempts}\n${paint('bold', 'Body sent')}\n${d.body}\n`
}

export function endpointView(ep: PanelWebhookEndpoint, paint: Paint): string {
  const state = ep.active ? paint('green', 'active') : paint('red', `deactivated${ep.deactivatedAt ? ` since ${ep.deactivatedAt}` : ''}`)
  const rows: Array<[string, string]> = [
    ['URL', paint('bold', ep.url)],
    ['State', state],
    ['Last success', ep.lastSuccessAt ?? paint('dim', 'none yet')],
  ]
  const text = labelled(rows, paint)
  return ep.active ? text : `${text}${paint('dim', `Save the URL again to reactivate it: svc sandbox webhook set ${ep.url} --env ${ep.environment}`)}\n`
}

export function endpointLines(ep: PanelWebhookEndpoint): string {
  return fieldLines([
    ['environment', ep.environment],
    ['url', ep.url],
    ['active', ep.active],
    ['deactivatedAt', ep.deactivatedAt],
    ['lastSuccessAt', ep.lastSuccessAt],
  ])
}

/** The panel answers keys masked; mask again only what is not (defence in depth). */
function shownKey(key: string): string {
  return key.includes('…') ? key : maskSecret(key) || key
}

export function keysTable(keys: PanelKey[], paint: Paint): string {
  const cells = keys.map((k) => [shownKey(k.key), k.environment, k.revoked ? paint('red', 'revoked') : paint('green', 'active'), k.createdAt])
  return renderTable([{ header: 'KEY' }, { header: 'ENV' }, { header: 'STATE' }, { header: 'CREATED' }], cells, paint)
}

export function keysTsv(keys: PanelKey[]): string {
  return keys.map((k) => `${shownKey(k.key)}\t${k.environment}\t${k.revoked ? 'revoked' : 'active'}\t${k.createdAt}\n`).join('')
}

const SETTING_LABELS: Array<[keyof PanelAccountSettings, string]> = [
  ['feeBps', 'Fee (bps)'],
  ['feeFixedInCents', 'Fixed fee (centavos)'],
  ['settlementDelayHours', 'Settlement hold (h)'],
  ['activated', 'Activated'],
  ['blocked', 'Blocked'],
  ['merchantIdPresent', 'Merchant id present'],
  ['qrValiditySeconds', 'QR validity (s)'],
]

export function settingsView(s: PanelAccountSettings, paint: Paint): string {
  return labelled(
    SETTING_LABELS.map(([k, label]) => [label, String(s[k])]),
    paint,
  )
}

export function settingsLines(s: PanelAccountSettings): string {
  return fieldLines(SETTING_LABELS.map(([k]) => [k, s[k]]))
}

function labelled(rows: Array<[string, string]>, paint: Paint): string {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}\n`).join('')
}

function fieldLines(rows: Array<[string, string | number | boolean | undefined]>): string {
  return rows
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}\t${v}\n`)
    .join('')
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
