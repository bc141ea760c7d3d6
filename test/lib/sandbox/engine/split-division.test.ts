import { describe, expect, it } from 'vitest'
import type { Charge } from '../../../../src/lib/contract/schemas.js'
import { SPLIT_FAILS_AMOUNT, SPLIT_FAILURE_REASON, divide, divisionRefusal } from '../../../../src/lib/sandbox/engine/split-division.js'

const AT = Date.parse('2026-01-01T00:01:00Z')

function settledSplit(gross = 10_000, over: Record<string, unknown> = {}): Charge {
  return {
    id: 'c1',
    status: 'settled',
    environment: 'test',
    amount: { grossInCents: gross, feeInCents: 0, netInCents: gross },
    pix: { qrCode: 'x', expiresAt: '2026-01-01T00:00:00.000Z' },
    settlement: { delayHours: 0, settledAt: '2026-01-01T00:00:00.000Z' },
    payer: { taxNumber: '***' },
    split: {
      status: 'pending',
      destinations: [
        { walletAddress: 'a', amountInCents: 6_000 },
        { walletAddress: 'b', amountInCents: 4_000 },
      ],
    },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  } as unknown as Charge
}

describe('split division', () => {
  it('completes with a txId per destination and a charge.split.completed event carrying the charge', () => {
    const { charge, event } = divide(settledSplit(), AT)
    const split = (charge as unknown as { split: { status: string; completedAt: string; destinations: Array<{ txId?: string }> } }).split
    expect(split.status).toBe('completed')
    expect(split.completedAt).toBe(new Date(AT).toISOString())
    expect(split.destinations.every((d) => typeof d.txId === 'string' && d.txId.length > 0)).toBe(true)
    expect(event.type).toBe('charge.split.completed')
    expect(event.resourceKey).toBe('charge:c1')
    expect(JSON.parse(event.body).data.charge.split.status).toBe('completed')
  })

  it('fails for the failing amount, and as the panel asks otherwise', () => {
    const failed = divide(settledSplit(SPLIT_FAILS_AMOUNT), AT)
    expect(failed.event.type).toBe('charge.split.failed')
    expect((failed.charge as unknown as { split: { failureReason: string } }).split.failureReason).toBe(SPLIT_FAILURE_REASON)
    expect(divide(settledSplit(), AT, 'failed').event.type).toBe('charge.split.failed')
  })

  it('refuses a charge without a split, or one not settled, naming its state', () => {
    expect(divisionRefusal(settledSplit())).toBeUndefined()
    expect(divisionRefusal(settledSplit(10_000, { split: undefined }))?.code).toBe('invalid_transition')
    expect(divisionRefusal(settledSplit(10_000, { status: 'refunded' }))?.message).toContain('refunded')
  })
})
