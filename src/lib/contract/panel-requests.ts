/**
 * The request bodies of the sandbox panel (`/_sandbox/…`), checked by the sandbox before any
 * work. Their wire answers are in panel.ts; the bodies of withdrawals and product sales are with
 * their resources (withdrawals.ts, product-sales.ts).
 */
import * as z from 'zod'
import { isHttpUrl } from './url.js'

const EnvSchema = z.enum(['test', 'live'])
/** `clock advance` moves at most a year at once. */
export const MAX_CLOCK_ADVANCE_MS = 366 * 24 * 3600 * 1000

export const WebhookPutSchema = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((u) => isHttpUrl(u), 'must be an absolute http:// or https:// URL'),
  env: EnvSchema.optional(),
})

export const KeyCreateSchema = z.strictObject({ env: EnvSchema.optional() })
export const KeyRevokeSchema = z.strictObject({ key: z.string().min(1).max(200), env: EnvSchema.optional() })

export const AccountPatchSchema = z.strictObject({
  feeBps: z.int().min(0).max(10_000).optional(),
  feeFixedInCents: z.int().min(0).max(100_000).optional(),
  settlementDelayHours: z
    .int()
    .min(0)
    .max(24 * 90)
    .optional(),
  activated: z.boolean().optional(),
  blocked: z.boolean().optional(),
  merchantIdPresent: z.boolean().optional(),
  qrValiditySeconds: z
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .optional(),
  holdSettlements: z.boolean().optional(),
})

export const ClockAdvanceSchema = z.strictObject({ ms: z.int().min(1).max(MAX_CLOCK_ADVANCE_MS) })

export const WithdrawalAdvanceSchema = z.strictObject({ status: z.enum(['paid', 'failed'], { error: 'status must be paid or failed' }).optional() })
export const SplitRunSchema = z.strictObject({ outcome: z.enum(['completed', 'failed'], { error: 'outcome must be completed or failed' }).optional() })
