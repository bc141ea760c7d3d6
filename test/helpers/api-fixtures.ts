/** Valid API objects (spec part 2) for client and command tests. */
import type { Account, Charge } from '../../src/lib/contract/schemas.js'

// https: a plain-http base URL that is not loopback draws a warning (the key would travel in clear).
export const BASE_URL = 'https://api.svc.test'
export const TEST_KEY = 'svc_test_4f9c2a7be1d04c6f8a3b5e7d9c1f2a4b'
export const LIVE_KEY = 'svc_live_9a8b7c6d5e4f30211f2e3d4c5b6a7988'

export function charge(overrides: Partial<Charge> = {}): Charge {
  return {
    id: '65a1f0c2b3d4e5f60718293a',
    status: 'awaiting_payment',
    environment: 'test',
    amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1420 },
    pix: { qrCode: '00020101021226830014br.gov.bcb.pix2561pix.example/qr/v2/65a16304ABCD', expiresAt: '2026-11-20T15:00:00Z' },
    settlement: { delayHours: 24 },
    payer: { taxNumber: '***.456.789-**' },
    createdAt: '2026-11-20T14:00:00Z',
    updatedAt: '2026-11-20T14:00:00Z',
    ...overrides,
  }
}

export function account(overrides: Partial<Account> = {}): Account {
  return {
    merchantId: 'mch_7Hq2xK9',
    email: 'loja@example.com.br',
    environment: 'test',
    plan: { id: 'plan_pro', name: 'Pro', feeBps: 199 },
    feeFixedInCents: 50,
    limits: { minChargeInCents: 1000, maxChargeInCents: 500000 },
    settlementDelayHours: 24,
    webhook: { url: 'https://loja.example.com.br/webhooks/svc', active: true },
    ...overrides,
  }
}

export function errorBody(code: string, message: string, extra: { details?: Array<{ field: string; message: string }>; requestId?: string } = {}) {
  return { error: { code, message, ...(extra.details ? { details: extra.details } : {}), requestId: extra.requestId ?? 'req_8f2c1d' } }
}

/** An Error as a dropped connection raises it (nock needs an Error object, not a plain one, for undici). */
export function connectionReset(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
}
