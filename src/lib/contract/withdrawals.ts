/**
 * Withdrawals (spec 2.8, 4.8, 6.3): the asset sent out as an instant payment to a Pix key. The
 * spec names `GET /v1/withdrawals/{id}` and `data.withdrawal.pix.endToEndId`; the other fields
 * are "not shown": these are the sandbox's choices (README, "Sandbox choices").
 */
import * as z from 'zod'
import { WITHDRAWAL_STATUSES } from '../domain/withdrawal-states.js'

const dateTime = z.iso.datetime({ offset: true })

export const WithdrawalSchema = z.looseObject({
  id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be 24 hexadecimal characters'),
  status: z.enum(WITHDRAWAL_STATUSES),
  environment: z.enum(['live', 'test']),
  amountInCents: z.number().int(),
  pix: z.looseObject({
    /** The Pix key paid. */
    key: z.string(),
    /** The instant payment's end-to-end id: the proof, present once paid. */
    endToEndId: z.string().optional(),
  }),
  failureReason: z.string().optional(),
  createdAt: dateTime,
  updatedAt: dateTime,
})
export type Withdrawal = z.infer<typeof WithdrawalSchema>

/** The sandbox panel's request that starts a withdrawal (the real service starts them itself). */
export const WithdrawalCreateRequestSchema = z.strictObject({
  amountInCents: z
    .number({ error: 'amountInCents must be an integer number of centavos' })
    .int('amountInCents must be an integer number of centavos')
    .min(100, 'amountInCents must be at least 100')
    .max(10_000_000, 'amountInCents must be at most 10000000'),
  pixKey: z.string().min(1, 'pixKey is required').max(77, 'pixKey must be at most 77 characters'),
  /** How the simulated provider ends it (default paid). */
  outcome: z.enum(['paid', 'failed'], { error: 'outcome must be paid or failed' }).optional(),
})
export type WithdrawalCreateRequest = z.infer<typeof WithdrawalCreateRequestSchema>
