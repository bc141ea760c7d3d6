/**
 * Product checkout sales (spec 2.8, 6.3): `product.paid`, once per sale, always in the live
 * environment; `data.productPayment` carries the product, the value, the net value and
 * `buyerEmail`. The other fields are "not shown": these are the sandbox's choices.
 */
import * as z from 'zod'

export const ProductPaymentSchema = z.looseObject({
  id: z.string(),
  product: z.looseObject({ id: z.string(), name: z.string() }),
  valueInCents: z.number().int(),
  netValueInCents: z.number().int(),
  buyerEmail: z.string(),
  /** How the buyer paid: an instant payment or the settlement asset. */
  paidWith: z.enum(['pix', 'asset']),
  paidAt: z.iso.datetime({ offset: true }),
})
export type ProductPayment = z.infer<typeof ProductPaymentSchema>

/** The sandbox panel's request that simulates one sale. */
export const ProductSaleRequestSchema = z.strictObject({
  productName: z.string().min(1, 'productName is required').max(120, 'productName must be at most 120 characters').optional(),
  valueInCents: z
    .number({ error: 'valueInCents must be an integer number of centavos' })
    .int('valueInCents must be an integer number of centavos')
    .min(100, 'valueInCents must be at least 100')
    .max(10_000_000, 'valueInCents must be at most 10000000')
    .optional(),
  buyerEmail: z.email('buyerEmail must be an e-mail address').optional(),
  paidWith: z.enum(['pix', 'asset'], { error: 'paidWith must be pix or asset' }).optional(),
})
export type ProductSaleRequest = z.infer<typeof ProductSaleRequestSchema>
