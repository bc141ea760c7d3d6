/**
 * Split charges (spec 4.8, 6.3): a charge whose settled asset is divided between destinations.
 * The spec names `POST /v1/split-charges` and says `data.charge.split` carries a transaction id
 * and an amount per destination; the request and the other fields are "not shown": these are the
 * sandbox's choices (README, "Sandbox choices").
 */
import * as z from 'zod'
import { ChargeCreateRequestSchema, ChargeSchema } from './schemas.js'

export const SPLIT_STATUSES = ['pending', 'completed', 'failed'] as const

export const SplitDestinationRequestSchema = z.strictObject({
  /** Where that share of the asset goes: a wallet address. */
  wallet: z.string().min(1, 'wallet is required').max(128, 'wallet must be at most 128 characters'),
  /** Share of the net amount, in basis points; the shares add up to 10000. */
  shareBps: z.number({ error: 'shareBps must be an integer' }).int('shareBps must be an integer').min(1, 'shareBps must be at least 1').max(10_000, 'shareBps must be at most 10000'),
})

export const SplitChargeCreateRequestSchema = ChargeCreateRequestSchema.extend({
  split: z
    .array(SplitDestinationRequestSchema, { error: 'split must be a list of destinations' })
    .min(2, 'split needs at least 2 destinations')
    .max(10, 'split takes at most 10 destinations')
    .refine((d) => d.reduce((sum, x) => sum + x.shareBps, 0) === 10_000, 'the shares (shareBps) must add up to 10000')
    .refine((d) => new Set(d.map((x) => x.wallet)).size === d.length, 'each wallet may appear once'),
})
export type SplitChargeCreateRequest = z.infer<typeof SplitChargeCreateRequestSchema>

export const SplitSchema = z.looseObject({
  status: z.enum(SPLIT_STATUSES),
  destinations: z.array(
    z.looseObject({
      wallet: z.string(),
      shareBps: z.number().int(),
      amountInCents: z.number().int(),
      /** The on-chain transaction that paid this destination, once the split completed. */
      txId: z.string().optional(),
    }),
  ),
  failureReason: z.string().optional(),
  completedAt: z.iso.datetime({ offset: true }).optional(),
})
export type Split = z.infer<typeof SplitSchema>

export const SplitChargeSchema = ChargeSchema.extend({ split: SplitSchema })
export type SplitCharge = z.infer<typeof SplitChargeSchema>
