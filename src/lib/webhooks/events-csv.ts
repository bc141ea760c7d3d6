/** The CSV columns of the listener's event log (`svc webhooks events --csv`), declared once beside deliveryJson. */
import type { CsvColumn } from '../output/csv.js'
import type { LoggedDelivery } from './event-store.js'

export const EVENT_LOG_CSV_COLUMNS: readonly CsvColumn<LoggedDelivery>[] = [
  { header: 'receivedAt', value: (r) => r.receivedAt },
  { header: 'eventId', value: (r) => r.eventId },
  { header: 'type', value: (r) => r.type },
  { header: 'verification', value: (r) => r.verification },
  { header: 'verifyReason', value: (r) => r.verifyReason },
  { header: 'outcome', value: (r) => r.outcome },
  { header: 'answeredStatus', value: (r) => r.answeredStatus },
  { header: 'forwardStatus', value: (r) => r.forwardStatus },
  { header: 'latencyMs', value: (r) => r.latencyMs },
  { header: 'received', value: (r) => r.attempt },
  { header: 'source', value: (r) => r.source },
  { header: 'target', value: (r) => r.forwardUrl },
  { header: 'error', value: (r) => r.error },
]
