/**
 * How `svc webhooks events` shows the event log. JSON: one object per delivery with its headers
 * and body (as text when it is UTF-8, else base64, so nothing is lost). Piped: tab-separated
 * rows in a stable column order. Terminal: a table.
 */
import type { Paint } from '../output/color.js'
import { safeText } from '../output/safe-text.js'
import { renderTable } from '../output/table.js'
import type { DeliveryRecord } from './event-store.js'

export const EVENTS_TSV_COLUMNS = ['receivedAt', 'eventId', 'type', 'verification', 'outcome', 'status', 'forwardStatus', 'latencyMs', 'attempt', 'source'] as const

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
    attempt: r.attempt,
    verification: r.verification,
    verifyReason: r.verifyReason ?? null,
    outcome: r.outcome,
    status: r.answeredStatus || null,
    forwardUrl: r.forwardUrl ?? null,
    forwardStatus: r.forwardStatus ?? null,
    latencyMs: r.latencyMs ?? null,
    error: r.error ?? null,
    headers: r.headers,
    ...(text !== undefined ? { body: text } : { bodyBase64: Buffer.from(r.body).toString('base64') }),
  }
}

const clean = (s: string | number | undefined) => safeText(String(s ?? ''), 'tsv')

function verificationCell(r: DeliveryRecord): string {
  return r.verification === 'failed' ? (r.verifyReason ?? 'failed') : r.verification
}

export function deliveryTsvRow(r: DeliveryRecord): string {
  return `${[r.receivedAt, r.eventId, r.type, verificationCell(r), r.outcome, r.answeredStatus || '', r.forwardStatus, r.latencyMs, r.attempt, r.source].map(clean).join('\t')}\n`
}

const OUTCOME_STYLE = { forwarded: 'green', failed: 'red', rejected: 'red', duplicate: 'gray', skipped: 'gray' } as const

export function deliveriesTable(records: DeliveryRecord[], paint: Paint): string {
  const rows = records.map((r) => [
    new Date(r.receivedAt).toLocaleString('pt-BR', { hour12: false }).replace(',', ''),
    safeText(r.eventId ?? '-'),
    safeText(r.type ?? '-'),
    r.verification === 'verified' ? paint('green', 'verified') : r.verification === 'skipped' ? paint('yellow', 'UNVERIFIED') : paint('red', verificationCell(r)),
    paint(OUTCOME_STYLE[r.outcome], r.source === 'replay' ? `${r.outcome} (replay)` : r.outcome),
    r.forwardStatus !== undefined ? String(r.forwardStatus) : '-',
    r.latencyMs !== undefined ? `${r.latencyMs} ms` : '-',
    `#${r.attempt}`,
  ])
  return renderTable(
    [
      { header: 'RECEIVED' },
      { header: 'EVENT ID', width: 32 },
      { header: 'TYPE', width: 30 },
      { header: 'VERIFIED' },
      { header: 'OUTCOME' },
      { header: 'APP', align: 'right' },
      { header: 'LATENCY', align: 'right' },
      { header: 'TRY', align: 'right' },
    ],
    rows,
    paint,
  )
}
