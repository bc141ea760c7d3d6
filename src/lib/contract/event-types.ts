/** Event types of spec 6.3. Consumers must accept types not listed here (spec 9). */
export const EVENT_TYPES = [
  'charge.awaiting_payment',
  'charge.paid_pending_settlement',
  'charge.settled',
  'charge.expired',
  'charge.canceled',
  'charge.failed',
  'charge.refunded',
  'charge.split.completed',
  'charge.split.failed',
  'withdrawal.processing',
  'withdrawal.paid',
  'withdrawal.failed',
  'product.paid',
  'charge.test',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

export const WEBHOOK_HEADERS = {
  eventId: 'x-svc-event-id',
  eventType: 'x-svc-event-type',
  timestamp: 'x-svc-timestamp',
  signature: 'x-svc-signature',
} as const

/** The service's test event (POST /v1/webhooks/test): a sample charge, none of the account's. */
export const TEST_EVENT_TYPE = 'charge.test'
