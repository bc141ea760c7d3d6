/**
 * How `svc webhooks events` shows the event log. JSON: one object per delivery with its headers
 * and body (as text when it is UTF-8, else base64, so nothing is lost). Piped: tab-separated
 * rows in a stable column order. Terminal: a table.
 */
import type { Paint } from '../output/color.js'
import { safeText } from '../output/safe-text.js'
import { type Column, renderTable, visibleWidth } from '../output/table.js'
import type { DeliveryRecord } from './event-store.js'

export const EVENTS_TSV_COLUMNS = ['receivedAt', 'eventId', 'type', 'verification', 'outcome', 'status', 'forwardStatus', 'latencyMs', 'received', 'source', 'target'] as const

export function deliveryJson(r: DeliveryRecord): Record<string, unknown> {
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

function verificationCell(r: DeliveryRecord): string {
  return r.verification === 'failed' ? (r.verifyReason ?? 'failed') : r.verification
}

export function deliveryTsvRow(r: DeliveryRecord): string {
  return `${[r.receivedAt, r.eventId, r.type, verificationCell(r), r.outcome, r.answeredStatus || '', r.forwardStatus, r.latencyMs, r.attempt, r.source, r.forwardUrl].map(clean).join('\t')}\n`
}

const OUTCOME_STYLE = { forwarded: 'green', failed: 'red', rejected: 'red', duplicate: 'gray', skipped: 'gray' } as const

import { middleTruncate } from '../output/table.js'

export { middleTruncate }

interface EventsColumn extends Column {
  key: string
  cell: (r: DeliveryRecord) => string
  paint?: (r: DeliveryRecord, text: string, paint: Paint) => string
}

const GAP = 2

function receivedLong(r: DeliveryRecord): string {
  return new Date(r.receivedAt).toLocaleString('pt-BR', { hour12: false }).replace(',', '')
}

function receivedShort(records: DeliveryRecord[]): (r: DeliveryRecord) => string {
  const day = (r: DeliveryRecord) => new Date(r.receivedAt).toDateString()
  const oneDay = records.every((r) => day(r) === day(records[0]!))
  return (r) => {
    const d = new Date(r.receivedAt)
    const time = d.toTimeString().slice(0, 8)
    return oneDay ? time : `${d.toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit' })} ${time.slice(0, 5)}`
  }
}

/**
 * The terminal table, fitted to `width` columns (a wrapped row is unreadable). Narrower, in
 * this order: the date goes when every row is from one day (else the year and seconds), then
 * the times received, the latency, the middle of the event ids (--json and the piped form keep them
 * whole), the app's status; the type is cut last.
 */
export function eventLogTable(records: DeliveryRecord[], paint: Paint, width = Number.POSITIVE_INFINITY): string {
  const columns: EventsColumn[] = [
    { key: 'received', header: 'RECEIVED', cell: receivedLong },
    { key: 'id', header: 'EVENT ID', cell: (r) => safeText(r.eventId ?? '-') },
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
  // Routed to several apps: which one each went to (the first column to go when narrow).
  if (new Set(records.map((r) => r.forwardUrl ?? '')).size > 1) columns.push({ key: 'target', header: 'TARGET', cell: (r) => safeText(r.forwardUrl ?? '-') })
  const natural = (cols: EventsColumn[]) => cols.reduce((sum, c) => sum + Math.max(visibleWidth(c.header), ...records.map((r) => visibleWidth(c.cell(r)))), 0) + GAP * (cols.length - 1)
  const steps: Array<(cols: EventsColumn[]) => EventsColumn[]> = [
    (cols) => cols.filter((c) => c.key !== 'target'),
    (cols) => cols.map((c) => (c.key === 'received' ? { ...c, cell: receivedShort(records) } : c)),
    (cols) => cols.filter((c) => c.key !== 'try'),
    (cols) => cols.filter((c) => c.key !== 'latency'),
    (cols) => cols.map((c) => (c.key === 'id' ? { ...c, cell: (r: DeliveryRecord) => middleTruncate(safeText(r.eventId ?? '-'), 13) } : c)),
    (cols) => cols.filter((c) => c.key !== 'app'),
  ]
  let cols = columns
  for (const step of steps) {
    if (natural(cols) <= width) break
    cols = step(cols)
  }
  // Still too wide: the type gives up what is missing (renderTable cuts it with …).
  const over = natural(cols) - width
  if (over > 0) cols = cols.map((c) => (c.key === 'type' ? { ...c, width: Math.max(visibleWidth(c.header), Math.max(...records.map((r) => visibleWidth(c.cell(r)))) - over) } : c))
  const rows = records.map((r) => cols.map((c) => (c.paint ? c.paint(r, c.cell(r), paint) : c.cell(r))))
  return renderTable(cols, rows, paint)
}
