/**
 * One schema per event type of spec 6.3, as a union discriminated on `type`: the sandbox builds
 * bodies that pass them, `svc trigger` and the tests read deliveries with them, and the library's
 * verifyWebhook types what it returns. Kept apart from events.ts (type names and headers, no
 * zod) so the listener's start does not load zod. An unknown type is never an error (spec 6.3,
 * 9): parseWebhookEvent passes it through as an UnknownWebhookEvent.
 */
import * as z from 'zod'
import { ProductPaymentSchema } from './product-sales.js'
import { ChargeSchema, EnvironmentSchema } from './schemas.js'
import { SplitSchema } from './split-charges.js'
import { WithdrawalSchema } from './withdrawals.js'
import type { EventType } from './event-types.js'

const dateTime = z.iso.datetime({ offset: true })

function event<T extends EventType, D extends z.ZodType>(type: T, data: D) {
  return z.looseObject({ id: z.string().min(1), type: z.literal(type), createdAt: dateTime, environment: EnvironmentSchema, data })
}

const chargeData = z.looseObject({ charge: ChargeSchema })
const splitData = z.looseObject({ charge: ChargeSchema.extend({ status: z.literal('settled'), split: SplitSchema }) })
const withdrawalData = z.looseObject({ withdrawal: WithdrawalSchema })

export const ChargeAwaitingPaymentEvent = event('charge.awaiting_payment', chargeData)
export const ChargePaidPendingSettlementEvent = event('charge.paid_pending_settlement', chargeData)
export const ChargeSettledEvent = event('charge.settled', chargeData)
export const ChargeExpiredEvent = event('charge.expired', chargeData)
export const ChargeCanceledEvent = event('charge.canceled', chargeData)
export const ChargeFailedEvent = event('charge.failed', chargeData)
export const ChargeRefundedEvent = event('charge.refunded', chargeData)
export const ChargeSplitCompletedEvent = event('charge.split.completed', splitData)
export const ChargeSplitFailedEvent = event('charge.split.failed', splitData)
export const WithdrawalProcessingEvent = event('withdrawal.processing', withdrawalData)
export const WithdrawalPaidEvent = event('withdrawal.paid', z.looseObject({ withdrawal: WithdrawalSchema.extend({ pix: z.looseObject({ key: z.string(), endToEndId: z.string().min(1) }) }) }))
export const WithdrawalFailedEvent = event('withdrawal.failed', withdrawalData)
export const ProductPaidEvent = z.looseObject({
  id: z.string().min(1),
  type: z.literal('product.paid'),
  createdAt: dateTime,
  environment: z.literal('live'),
  data: z.looseObject({ productPayment: ProductPaymentSchema }),
})
export const ChargeTestEvent = event('charge.test', chargeData)

export const WebhookEventSchema = z.discriminatedUnion('type', [
  ChargeAwaitingPaymentEvent,
  ChargePaidPendingSettlementEvent,
  ChargeSettledEvent,
  ChargeExpiredEvent,
  ChargeCanceledEvent,
  ChargeFailedEvent,
  ChargeRefundedEvent,
  ChargeSplitCompletedEvent,
  ChargeSplitFailedEvent,
  WithdrawalProcessingEvent,
  WithdrawalPaidEvent,
  WithdrawalFailedEvent,
  ProductPaidEvent,
  ChargeTestEvent,
])
/** An event of one of the 14 types of spec 6.3, typed by its `type`. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>

/** An event of a type this version does not know: passed through, never an error. */
export interface UnknownWebhookEvent {
  id: string
  type: string
  createdAt?: string
  environment?: string
  data?: unknown
  [field: string]: unknown
}

export type ParsedWebhookEvent = { known: true; event: WebhookEvent } | { known: false; event: UnknownWebhookEvent }

const KNOWN = new Set<string>(WebhookEventSchema.options.map((o) => o.shape.type.value))

/**
 * Reads an event body. A known type must match its schema (a ZodError names the field that does
 * not); an unknown type passes through with whatever it carries, as long as it has an id and type.
 */
export function parseWebhookEvent(body: unknown): ParsedWebhookEvent {
  const type = (body as { type?: unknown } | null)?.type
  if (typeof type === 'string' && KNOWN.has(type)) return { known: true, event: WebhookEventSchema.parse(body) }
  const unknown = z.looseObject({ id: z.string().min(1), type: z.string().min(1) }).parse(body)
  return { known: false, event: unknown as UnknownWebhookEvent }
}
