/** The CSV columns of a sandbox delivery (`svc sandbox deliveries --csv`), declared once. */
import type { CsvColumn } from '../output/csv.js'
import type { PanelDelivery } from './panel-client.js'

export const DELIVERY_CSV_COLUMNS: readonly CsvColumn<PanelDelivery>[] = [
  { header: 'eventId', value: (d) => d.eventId },
  { header: 'type', value: (d) => d.type },
  { header: 'environment', value: (d) => d.environment },
  { header: 'createdAt', value: (d) => d.createdAt },
  { header: 'url', value: (d) => d.url },
  { header: 'state', value: (d) => d.state },
  { header: 'attempts', value: (d) => d.attempts },
  { header: 'lastStatus', value: (d) => d.lastStatus },
  { header: 'lastError', value: (d) => d.lastError },
  { header: 'nextRetryAt', value: (d) => d.nextRetryAt },
  { header: 'firstAttemptAt', value: (d) => d.firstAttemptAt },
  { header: 'injected', value: (d) => d.injected?.join(',') },
]
