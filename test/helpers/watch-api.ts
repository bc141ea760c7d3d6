import { vi } from 'vitest'
import type { Charge } from '../../src/lib/contract/schemas.js'
import { ApiError } from '../../src/lib/errors.js'

/** A charge in the given state, as the watcher and its view see it. */
export function charge(id: string, status: string): Charge {
  return {
    id,
    status,
    environment: 'test',
    amount: { grossInCents: 1500, feeBps: 100, feeFixedInCents: 50, feeInCents: 65, netInCents: 1435 },
    pix: { qrCode: '000201…', expiresAt: '2026-11-22T13:00:00Z' },
    settlement: { delayHours: 24, ...(status === 'settled' ? { blockchainTxId: '0xfeedbeef' } : {}) },
    payer: { taxNumber: '***.982.247-**' },
    createdAt: '2026-11-22T12:00:00Z',
    updatedAt: '2026-11-22T12:00:00Z',
  } as Charge
}

/** An API whose charges are in the states the test sets; unknown ids are 404. */
export function fakeApi(states: Record<string, string>) {
  return {
    getCharge: vi.fn(async (id: string) => {
      if (!states[id]) throw new ApiError({ status: 404, code: 'charge_not_found', message: 'not found' })
      return charge(id, states[id])
    }),
    listCharges: vi.fn(async () => ({ data: Object.keys(states).map((id) => charge(id, states[id]!)), hasMore: false })),
  }
}
