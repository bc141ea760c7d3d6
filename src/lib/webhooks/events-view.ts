/**
 * How `svc webhooks events` shows the event log. JSON: one object per delivery with its headers
 * and body (as text when it is UTF-8, else base64, so nothing is lost). Piped: tab-separated
 * rows in a stable column order. Terminal: a table.
 */
import { type Paint, painter } from '../output/color.js'
import type { IO } from '../output/io.js'
import type { ListView } from '../output/list-printer.js'
import { safeText } from '../output/safe-text.js'
import { type Column, type FitStep, fitTable, renderTable, visibleWidth } from '../output/table.js'
import { EVENT_LOG_CSV_COLUMNS } from './events-csv.js'
import type { LoggedDelivery } from './event-store.js'

export function deliveryJson(r: LoggedDelivery): Record<string, unknown> {
  let text: string | undefined
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(r.body)
  } catch {
    text = undefined
  }
  return {
    seq: r.seq,
    receivedAt: r.receivedAt,
    source: r.source,
    eventId: r.eventId ?? null,
    type: r.type ?? null,
    chargeId: r.chargeId ?? null,
    received: r.attempt,
    verification: r.verification,
    verifyReason: r.verifyReason ?? null,
    outcome: r.outcome,
    status: r.answeredStatus || null,
    forwardUrl: r.forwardUrl ?? null,
    // The app it went to (or would have), as `webhooks listen` routed it; null when no target matched.
    target: r.forwardUrl ?? null,
    // The --forward pattern that routed it there, as on the listener's NDJSON line; null for the default target.
    route: r.route ?? null,
    forwardStatus: r.forwardStatus ?? null,
    latencyMs: r.latencyMs ?? null,
    error: r.error ?? null,
    headers: r.headers,
    ...(text !== undefined ? { body: text } : { bodyBase64: Buffer.from(r.body).toString('base64') }),
    // A refused delivery keeps only the start of its body.
    ...(r.bodySize !== undefined ? { bodyTruncated: true, bodySize: r.bodySize } : {}),
  }
}

const clean = (s: string | number | undefined) => safeText(String(s ?? ''), 'tsv')

function verificationCell(r: LoggedDelivery): string {
  return r.verification === 'failed' ? (r.verifyReason ?? 'failed') : r.verification
}

export function deliveryTsvRow(r: LoggedDelivery): string {
  return `${[r.receivedAt, r.eventId, r.type, verificationCell(r), r.outcome, r.answeredStatus || '', r.forwardStatus, r.latencyMs, r.attempt, r.source, r.forwardUrl].map(clean).join('\t')}\n`
}

const OUTCOME_STYLE = { forwarded: 'green', failed: 'red', rejected: 'red', duplicate: 'gray', skipped: 'gray' } as const

interface EventsColumn extends Column {
  key: string
  cell: (r: LoggedDelivery) => string
  paint?: (r: LoggedDelivery, text: string, paint: Paint) => string
}

const GAP = 2

function receivedLong(r: LoggedDelivery): string {
  return new Date(r.receivedAt).toLocaleString('pt-BR', { hour12: false }).replace(',', '')
}

function receivedShort(records: LoggedDelivery[]): (r: LoggedDelivery) => string {
  const day = (r: LoggedDelivery) => new Date(r.receivedAt).toDateString()
  const oneDay = records.every((r) => day(r) === day(records[0]!))
  return (r) => {
    const d = new Date(r.receivedAt)
    const time = d.toTimeString().slice(0, 8)
    return oneDay ? time : `${d.toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit' })} ${time.slice(0, 5)}`
  }
}

/**
 * The terminal table, fitted to `width` columns (a wrapped row is unreadable) by the tables' one
 * fitter (fitTable). Narrower, in this order: the date goes when every row is from one day (else
 * the year and seconds), then the times received, the latency, the middle of the event ids
 * (--json and the piped form keep them whole), the middle of the targets, the app's status, the
 * end of the type, the targets' middle again; the target goes only below about 80 columns.
 */
export function eventLogTable(records: LoggedDelivery[], paint: Paint, width = Number.POSITIVE_INFINITY): string {
  const columns: EventsColumn[] = [
    { key: 'received', header: 'RECEIVED', cell: receivedLong },
    { key: 'id', header: 'EVENT ID', cut: 'middle', cell: (r) => safeText(r.eventId ?? '-') },
    { key: 'type', header: 'TYPE', cell: (r) => safeText(r.type ?? '-') },
    {
      key: 'verified',
      header: 'VERIFIED',
      cell: (r) => (r.verification === 'verified' ? 'verified' : r.verification === 'skipped' ? 'UNVERIFIED' : safeText(verificationCell(r))),
      paint: (r, t, p) => p(r.verification === 'verified' ? 'green' : r.verification === 'skipped' ? 'yellow' : 'red', t),
    },
    { key: 'outcome', header: 'OUTCOME', cell: (r) => (r.source === 'replay' ? `${r.outcome} (replay)` : r.outcome), paint: (r, t, p) => p(OUTCOME_STYLE[r.outcome], t) },
    { key: 'app', header: 'APP', align: 'right', cell: (r) => (r.forwardStatus !== undefined ? String(r.forwardStatus) : '-') },
    { key: 'latency', header: 'LATENCY', align: 'right', cell: (r) => (r.latencyMs !== undefined ? `${r.latencyMs} ms` : '-') },
    { key: 'try', header: 'TIMES', align: 'right', cell: (r) => `${r.attempt}×` },
  ]
  // Routed to several apps: which one each went to (`http://` left out: the targets are local apps; --json and piped keep the URL whole).
  if (new Set(records.map((r) => r.forwardUrl ?? '')).size > 1) columns.push({ key: 'target', header: 'TARGET', cut: 'halves', cell: (r) => safeText(r.forwardUrl?.replace(/^http:\/\//, '') ?? '-') })
  const natural = columns.reduce((sum, c) => sum + Math.max(visibleWidth(c.header), ...records.map((r) => visibleWidth(c.cell(r)))), 0) + GAP * (columns.length - 1)
  if (natural > width) columns[0] = { ...columns[0]!, cell: receivedShort(records) }
  const at = (key: string) => columns.findIndex((c) => c.key === key)
  const rows = records.map((r) => columns.map((c) => (c.paint ? c.paint(r, c.cell(r), paint) : c.cell(r))))
  const steps: FitStep[] = [
    { index: at('try'), drop: true },
    { index: at('latency'), drop: true },
    { index: at('id'), min: 13 },
    ...(at('target') === -1 ? [] : [{ index: at('target'), min: 24 }]),
    { index: at('app'), drop: true },
    { index: at('type'), min: 16 },
    ...(at('target') === -1 ? [] : [{ index: at('target'), min: 16 }, { index: at('target'), drop: true } as const]),
    { index: at('type'), min: 4 },
  ]
  const fitted = fitTable(columns, rows, width, steps)
  return renderTable(fitted.columns, fitted.cells, paint)
}

/** The event log for the one list printer: each page a table fitted to the terminal, -q the event ids. */
export function eventLogListView(io: IO): ListView<LoggedDelivery> {
  return {
    table: { page: (records) => eventLogTable([...records], painter(io.color), io.columns) },
    tsv: deliveryTsvRow,
    id: (r) => r.eventId,
    json: deliveryJson,
    csv: EVENT_LOG_CSV_COLUMNS,
  }
}
