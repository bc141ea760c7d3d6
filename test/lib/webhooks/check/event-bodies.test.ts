/**
 * The check battery's deliveries are the service's own: every body it sends of a known type passes
 * that type's schema (contract/event-schemas.ts), and its unknown type passes through.
 */
import { describe, expect, it } from 'vitest'
import { parseWebhookEvent } from '../../../../src/lib/contract/event-schemas.js'
import { chargeEvent, settledCharge, unknownTypeEvent, withdrawalPaidEvent } from '../../../../src/lib/webhooks/check/battery-events.js'

const ctx = { nowMs: Date.parse('2026-11-24T12:00:00Z'), environment: 'test' as const }

describe('webhooks check bodies', () => {
  it('charge.settled and withdrawal.paid pass their schemas; the unknown type passes through', () => {
    expect(parseWebhookEvent(chargeEvent(ctx, 'charge.settled', settledCharge(ctx))).known).toBe(true)
    expect(parseWebhookEvent(withdrawalPaidEvent(ctx)).known).toBe(true)
    expect(parseWebhookEvent(unknownTypeEvent(ctx))).toMatchObject({ known: false, event: { type: 'svc_check.unknown_type' } })
  })

  it('a known type with a body its schema refuses is an error naming the field', () => {
    const bad = withdrawalPaidEvent(ctx) as unknown as { data: { withdrawal: { pix: { endToEndId?: string } } } }
    delete bad.data.withdrawal.pix.endToEndId
    expect(() => parseWebhookEvent(bad)).toThrow(/endToEndId/)
  })
})
