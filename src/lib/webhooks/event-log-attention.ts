/**
 * What in a listener's local event log needs a person (`svc status`, CLI.md 0.4): events whose
 * forward to the app failed and never succeeded since, and `charge.split.failed` /
 * `withdrawal.failed` events received. Reads the log read-only (never creates or migrates it,
 * never holds a body): when no listener ever ran on this machine there is nothing to read.
 */
import { existsSync } from 'node:fs'

export interface AttentionEvent {
  eventId: string
  type: string
  receivedAt: string
  chargeId?: string
  /** How many times the listener received it (failed forwards). */
  deliveries?: number
  forwardStatus?: number
  error?: string
}

export interface EventLogAttention {
  path: string
  failedForwards: AttentionEvent[]
  failureEvents: AttentionEvent[]
}

export const FAILURE_EVENT_TYPES = ['charge.split.failed', 'withdrawal.failed'] as const

interface Row {
  event_id: string
  event_type: string | null
  received_at: string
  charge_id: string | null
  n?: number
  forward_status: number | null
  error: string | null
}

const toEvent = (r: Row): AttentionEvent => ({
  eventId: r.event_id,
  type: r.event_type ?? 'unknown',
  receivedAt: r.received_at,
  ...(r.charge_id ? { chargeId: r.charge_id } : {}),
  ...(r.n !== undefined ? { deliveries: Number(r.n) } : {}),
  ...(r.forward_status !== null ? { forwardStatus: r.forward_status } : {}),
  ...(r.error ? { error: r.error } : {}),
})

/** Undefined when there is no event log at `path`. `since` is an instant (the log's times are the listener's clock). */
export async function readEventLogAttention(path: string, since: Date): Promise<EventLogAttention | undefined> {
  if (!existsSync(path)) return undefined
  const { DatabaseSync } = await import('node:sqlite')
  const db = new DatabaseSync(path, { readOnly: true, timeout: 5000 })
  try {
    const sinceIso = since.toISOString()
    // The newest failed delivery of each event, unless a later one reached the app (a retry by the service).
    const failed = db
      .prepare(
        `SELECT d.event_id, d.event_type, MAX(d.received_at) AS received_at, d.charge_id, COUNT(*) AS n, d.forward_status, d.error
         FROM deliveries d
         WHERE d.outcome = 'failed' AND d.event_id IS NOT NULL AND d.received_at >= ?
           AND NOT EXISTS (SELECT 1 FROM deliveries s WHERE s.event_id = d.event_id AND s.seq > d.seq AND s.outcome IN ('forwarded', 'duplicate'))
         GROUP BY d.event_id ORDER BY received_at`,
      )
      .all(sinceIso) as unknown as Row[]
    const failures = db
      .prepare(
        `SELECT event_id, event_type, MIN(received_at) AS received_at, charge_id, NULL AS forward_status, NULL AS error
         FROM deliveries
         WHERE event_type IN (${FAILURE_EVENT_TYPES.map(() => '?').join(', ')}) AND event_id IS NOT NULL AND verification != 'failed' AND received_at >= ?
         GROUP BY event_id ORDER BY received_at`,
      )
      .all(...FAILURE_EVENT_TYPES, sinceIso) as unknown as Row[]
    return { path, failedForwards: failed.map(toEvent), failureEvents: failures.map(toEvent) }
  } finally {
    db.close()
  }
}
