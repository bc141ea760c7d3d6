/**
 * Realistic event bodies for the check battery (spec 2.8): a `charge.settled` carrying the full
 * Charge in the single-charge read's shape, a `withdrawal.paid` carrying `data.withdrawal` with
 * its `pix.endToEndId`, and an event type no handler can know. Ids are fresh per run, so a
 * correct handler's deduplication never swallows a first delivery.
 */
import { randomBytes } from 'node:crypto'
import { generatePixPayload } from '@brazilian-utils/brazilian-utils/generate-pix-payload'
import type { Charge, SvcEvent } from '../../contract/schemas.js'
import { eventIdAt } from '../../domain/event-id.js'
import { computeAmount } from '../../domain/money.js'
import { maskTaxNumber } from '../../domain/tax-number.js'
import type { Environment } from '../../contract/schemas.js'

const HOUR_MS = 3_600_000

export function hexId(bytes = 12): string {
  return randomBytes(bytes).toString('hex')
}

export interface EventContext {
  /** Epoch milliseconds of the run; every instant in the bodies is derived from it. */
  nowMs: number
  environment: Environment
}

const iso = (ms: number) => new Date(ms).toISOString()

export function settledCharge(ctx: EventContext): Charge {
  const id = hexId()
  const created = ctx.nowMs - 26 * HOUR_MS
  const paid = created + 2 * 60_000
  const amount = computeAmount(15_000, { feeBps: 199, feeFixedInCents: 100 })
  const qrCode = generatePixPayload({
    key: 'pix@example.com',
    merchantName: 'Loja Exemplo',
    merchantCity: 'Sao Paulo',
    amount: amount.grossInCents / 100,
    txid: id,
  })
  return {
    id,
    externalId: `order-check-${id.slice(0, 8)}`,
    status: 'settled',
    environment: ctx.environment,
    amount: { ...amount },
    pix: { qrCode: qrCode ?? '', expiresAt: iso(created + HOUR_MS) },
    settlement: {
      delayHours: 24,
      paidAt: iso(paid),
      estimatedAt: iso(paid + 24 * HOUR_MS),
      settledAt: iso(ctx.nowMs - 60_000),
      blockchainTxId: `0x${hexId(32)}`,
    },
    payer: { taxNumber: maskTaxNumber('52998224725'), name: 'MARIA DA SILVA' },
    description: 'svc webhooks check',
    metadata: { source: 'svc webhooks check' },
    createdAt: iso(created),
    updatedAt: iso(ctx.nowMs - 60_000),
  }
}

export function chargeEvent(ctx: EventContext, type: string, charge: Charge): SvcEvent {
  return { id: eventIdAt(ctx.nowMs, hexId(6)), type, createdAt: iso(ctx.nowMs), environment: ctx.environment, data: { charge } }
}

/** Fields of the withdrawal record are "not shown" in the spec; this is a plausible read. */
export function withdrawalPaidEvent(ctx: EventContext): SvcEvent {
  const at = new Date(ctx.nowMs)
  const stamp = at.toISOString().replace(/[-T:]/g, '').slice(0, 12)
  const withdrawal = {
    id: hexId(),
    status: 'paid',
    environment: ctx.environment,
    amountInCents: 12_500,
    pix: { key: 'maria@example.com', endToEndId: `E00000000${stamp}${hexId(6).slice(0, 11)}` },
    createdAt: iso(ctx.nowMs - 5 * 60_000),
    updatedAt: iso(ctx.nowMs),
  }
  return { id: eventIdAt(ctx.nowMs, hexId(6)), type: 'withdrawal.paid', createdAt: iso(ctx.nowMs), environment: ctx.environment, data: { withdrawal } }
}

/** New types can be added (spec 6.3): the handler must answer 2xx and ignore the body. */
export const UNKNOWN_EVENT_TYPE = 'svc_check.unknown_type'

export function unknownTypeEvent(ctx: EventContext): SvcEvent {
  return {
    id: eventIdAt(ctx.nowMs, hexId(6)),
    type: UNKNOWN_EVENT_TYPE,
    createdAt: iso(ctx.nowMs),
    environment: ctx.environment,
    data: { object: { id: hexId(), note: 'an event type your handler does not know: answer 2xx and ignore it' } },
  }
}
