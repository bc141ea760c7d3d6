import { describe, expect, it } from 'vitest'
import { ProductSaleRequestSchema } from '../../../src/lib/contract/product-sales.js'

describe('a simulated product sale (the sandbox panel’s request)', () => {
  it('every field may be left out', () => {
    expect(ProductSaleRequestSchema.parse({})).toEqual({})
  })

  it('refuses a bad value, e-mail or means of payment, naming the field, and any field it does not know', () => {
    const bad = ProductSaleRequestSchema.safeParse({ valueInCents: 10.5, buyerEmail: 'nope', paidWith: 'card' })
    expect(bad.error!.issues.map((i) => i.message).sort()).toEqual(['buyerEmail must be an e-mail address', 'paidWith must be pix or asset', 'valueInCents must be an integer number of centavos'])
    expect(ProductSaleRequestSchema.safeParse({ price: 1 }).success).toBe(false)
  })
})
