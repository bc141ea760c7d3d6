/**
 * How the panel's answers look in a terminal (tables fitted to its width, local times, money in
 * reais) and piped (tab-separated rows or `key<TAB>value` lines, no header, stable column order,
 * raw values: RFC 3339 times, centavos, basis points). What came from outside (event types,
 * URLs, the receiver's answers and errors, bodies) goes through safeText: a control character in
 * it is shown, never obeyed by the terminal, and cannot break a piped row.
 */
import { maskSecret } from '../config/mask.js'
import { formatBps, formatBRL } from '../domain/money.js'
import { formatLocalTime } from '../domain/time.js'
import { type Paint, painter, type Style } from '../output/color.js'
import type { IO } from '../output/io.js'
import type { ListView } from '../output/list-printer.js'
import { safeText } from '../output/safe-text.js'
import { type Column, fitTable, renderTable } from '../output/table.js'
import { DELIVERY_CSV_COLUMNS } from './delivery-csv.js'
import type { DeliveryViewState, NoWebhookEndpoint, PanelAccountSettings, PanelDelivery, PanelKey, PanelWebhookEndpoint } from './panel-client.js'

const STATE_STYLE: Record<DeliveryViewState, Style> = { pending: 'yellow', succeeded: 'green', failed: 'red', skipped: 'gray', lost: 'yellow', held: 'cyan' }

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

/** The state as shown: a lost event (`--webhook-faults lose`) says so, other injected faults are named. */
function stateText(d: PanelDelivery): string {
  if (d.injected?.includes('lose')) return 'lost (injected)'
  return d.injected?.length ? `${d.state} (injected: ${d.injected.join(', ')})` : d.state
}

function lastOutcome(d: PanelDelivery): string {
  if (d.lastStatus !== undefined) return String(d.lastStatus)
  return d.lastError ?? ''
}

/** A field of a piped row: tabs, newlines and backslashes escaped so that it stays one field. */
function tsv(value: string | number | boolean | undefined): string {
  return safeText(String(value ?? ''), 'tsv')
}

export function sandboxDeliveriesTable(rows: PanelDelivery[], sandboxNow: number, paint: Paint, totalWidth = 120): string {
  const columns: Column[] = [
    { header: 'EVENT ID', cut: 'middle' },
    { header: 'TYPE' },
    { header: 'URL' },
    { header: 'TRIES', align: 'right' },
    { header: 'ANSWER' },
    { header: 'RETRY' },
    { header: 'STATE' },
    { header: 'CREATED' },
  ]
  const cells = rows.map((d) => [
    safeText(d.eventId),
    safeText(d.type),
    safeText(d.url),
    String(d.attempts),
    safeText(lastOutcome(d)),
    d.nextRetryAt ? formatIn(Date.parse(d.nextRetryAt) - sandboxNow) : '',
    paint(d.injected?.includes('lose') ? 'yellow' : (STATE_STYLE[d.state] ?? 'bold'), stateText(d)),
    // When the event was made (local time): which deliveries failed today.
    shortLocal(d.createdAt),
  ])
  // A column empty on every row (RETRY when nothing is pending) goes first. Then the URL (the
  // same endpoint on most rows) gives way, then the type, then the count of tries and CREATED:
  // ANSWER is why a delivery failed, so it is cut only after them (--event-id shows all of it).
  // Event ids are cut last but for the state: they are what gets copied.
  const empty = columns.map((_, i) => i).filter((i) => cells.length > 0 && cells.every((r) => r[i] === ''))
  const fitted = fitTable(columns, cells, totalWidth, [
    ...empty.map((index) => ({ index, drop: true as const })),
    { index: 2, min: 20 },
    { index: 1, min: 18 },
    { index: 2, drop: true },
    { index: 1, min: 14 },
    { index: 3, drop: true },
    { index: 7, drop: true },
    { index: 4, min: 12 },
    { index: 0, min: 13 },
    { index: 6, min: 15 },
    { index: 4, min: 8 },
    { index: 4, drop: true },
    { index: 6, min: 9 },
  ])
  return renderTable(fitted.columns, fitted.cells, paint)
}

/**
 * Piped: `eventId type url attempts lastStatus nextRetryAt state injected`, tab-separated; the
 * last column is the faults `--webhook-faults` injected, comma-separated (empty when none), last
 * so that scripts reading the first seven keep working; then (0.4) createdAt, RFC 3339.
 */
export function deliveriesTsv(rows: PanelDelivery[]): string {
  return rows
    .map((d) => [d.eventId, d.type, d.url, d.attempts, lastOutcome(d), d.nextRetryAt, d.injected?.includes('lose') ? 'lost (injected)' : d.state, d.injected?.join(','), d.createdAt].map(tsv).join('\t') + '\n')
    .join('')
}

/**
 * The delivery log for the one list printer: each page a table fitted to the terminal, its RETRY
 * column counted on the sandbox's clock (`sandboxNow`, read for each page); --json `{"data":[…]}`,
 * the API's list object.
 */
export function deliveryListView(io: IO, sandboxNow: () => Promise<number>): ListView<PanelDelivery> {
  return {
    table: { page: async (rows) => sandboxDeliveriesTable([...rows], await sandboxNow(), painter(io.color), io.columns) },
    tsv: (d) => deliveriesTsv([d]),
    id: (d) => d.eventId,
    csv: DELIVERY_CSV_COLUMNS,
    jsonKey: 'data',
  }
}

/** `26/11 14:05`: day and time, local, compact enough for a fitted table. */
function shortLocal(iso: string): string {
  const d = new Date(iso)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${p(d.getDate())}/${p(d.getMonth() + 1)} ${p(d.getHours())}:${p(d.getMinutes())}`
}

/** One delivery in full (terminal): every attempt with its answer, then the body that was sent. */
export function deliveryDetail(d: PanelDelivery, paint: Paint): string {
  const out: string[] = []
  for (const a of d.attemptLog ?? []) {
    const outcome =
      a.status !== undefined && a.status >= 200 && a.status < 300 ? paint('green', String(a.status)) : a.injected?.includes('lose') ? paint('yellow', 'not sent') : paint('red', safeText(a.error ?? String(a.status)))
    const manual = (a.manual ? paint('dim', ' (resend)') : '') + (a.injected?.length ? paint('yellow', ` (injected: ${a.injected.join(', ')})`) : '')
    out.push(`  #${a.attempt}  ${formatLocalTime(a.at)}  ${outcome}  ${a.durationMs} ms${manual}${a.response ? `  ${paint('dim', safeText(oneLine(a.response, 60)))}` : ''}`)
  }
  const attempts = out.length ? `\n${paint('bold', 'Attempts')}\n${out.join('\n')}\n` : ''
  return `${attempts}\n${paint('bold', 'Body sent')}\n${safeText(d.body, 'multiline')}\n`
}

export function endpointView(ep: PanelWebhookEndpoint | NoWebhookEndpoint, paint: Paint): string {
  if (ep.url === null) {
    const rows = labelled([['URL', paint('dim', 'none set')]], paint)
    return `${rows}${paint('dim', `Set one with \`svc sandbox webhook set URL --env ${ep.environment}\`, or run \`svc webhooks listen\`.`)}\n`
  }
  const state = ep.active ? paint('green', 'active') : paint('red', `deactivated${ep.deactivatedAt ? ` since ${formatLocalTime(ep.deactivatedAt)}` : ''}`)
  const rows: Array<[string, string]> = [
    ['URL', paint('bold', safeText(ep.url))],
    ['State', state],
    ['Last success', ep.lastSuccessAt ? formatLocalTime(ep.lastSuccessAt) : paint('dim', 'none yet')],
  ]
  const text = labelled(rows, paint)
  return ep.active ? text : `${text}${paint('dim', `Save the URL again to reactivate it: svc sandbox webhook set ${safeText(ep.url)} --env ${ep.environment}`)}\n`
}

export function endpointLines(ep: PanelWebhookEndpoint | NoWebhookEndpoint): string {
  if (ep.url === null)
    return fieldLines([
      ['environment', ep.environment],
      ['url', ''],
    ])
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

export function keysTable(keys: PanelKey[], paint: Paint, totalWidth = 120): string {
  const cells = keys.map((k) => [safeText(shownKey(k.key)), k.environment, k.revoked ? paint('red', 'revoked') : paint('green', 'active'), formatLocalTime(k.createdAt)])
  const columns: Column[] = [{ header: 'KEY', cut: 'middle' }, { header: 'ENV' }, { header: 'STATE' }, { header: 'CREATED' }]
  const fitted = fitTable(columns, cells, totalWidth, [
    { index: 3, min: 10 },
    { index: 0, min: 14 },
  ])
  return renderTable(fitted.columns, fitted.cells, paint)
}

export function keysTsv(keys: PanelKey[]): string {
  return keys.map((k) => `${[shownKey(k.key), k.environment, k.revoked ? 'revoked' : 'active', k.createdAt].map(tsv).join('\t')}\n`).join('')
}

/** Each setting's label and how a person reads it; piped output keeps the raw value (centavos, bps, hours, seconds). */
const SETTINGS: Array<[keyof PanelAccountSettings, string, (s: PanelAccountSettings) => string]> = [
  ['feeBps', 'Fee', (s) => formatBps(s.feeBps)],
  ['feeFixedInCents', 'Fixed fee', (s) => formatBRL(s.feeFixedInCents)],
  ['settlementDelayHours', 'Settlement hold', (s) => `${s.settlementDelayHours} h`],
  ['activated', 'Activated', (s) => yesNo(s.activated)],
  ['blocked', 'Blocked', (s) => yesNo(s.blocked)],
  ['merchantIdPresent', 'Merchant id present', (s) => yesNo(s.merchantIdPresent)],
  ['qrValiditySeconds', 'QR validity', (s) => formatSeconds(s.qrValiditySeconds)],
  ['holdSettlements', 'Settlements held', (s) => yesNo(s.holdSettlements ?? false)],
]

export function settingsView(s: PanelAccountSettings, paint: Paint): string {
  return labelled(
    SETTINGS.map(([, label, show]) => [label, show(s)]),
    paint,
  )
}

export function settingsLines(s: PanelAccountSettings): string {
  return fieldLines(SETTINGS.map(([k]) => [k, s[k]]))
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no'
}

/** `90 s`, `15 min`, `1 h`, `1 h 30 min`, `2 d`: a whole number of seconds for a person. */
export function formatSeconds(total: number): string {
  if (total < 60 || total % 60 !== 0) return `${total} s`
  const minutes = total / 60
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (rest) return `${hours} h ${rest} min`
  return hours % 24 === 0 ? `${hours / 24} d` : `${hours} h`
}

function labelled(rows: Array<[string, string]>, paint: Paint): string {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}\n`).join('')
}

function fieldLines(rows: Array<[string, string | number | boolean | undefined]>): string {
  return rows
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}\t${tsv(v)}\n`)
    .join('')
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
