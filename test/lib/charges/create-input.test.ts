import { describe, expect, it } from 'vitest'
import { completeRequest, parseAmount, parseCreateFlags, parseMetadata } from '../../../src/lib/charges/create-input.js'
import { UsageError } from '../../../src/lib/errors.js'

describe('parseAmount', () => {
  it.each(['1500', ' 1500 ', '500000'])('accepts integer centavos %j', (raw) => {
    expect(parseAmount(raw)).toBe(Number(raw.trim()))
  })
  it.each(['15.00', '15,00', '1e3', 'abc', '', 'R$ 15', '0x10', '1_000'])('refuses %j rather than guessing', (raw) => {
    expect(parseAmount(raw)).toMatchObject({ field: '--amount (amountInCents)' })
  })
})

describe('parseMetadata', () => {
  it('splits at the first = so values may contain =', () => {
    expect(parseMetadata(['a=b=c', 'empty='])).toEqual({ a: 'b=c', empty: '' })
  })
  it('refuses a key given twice', () => {
    expect(parseMetadata(['a=1', 'a=2'])).toMatchObject({ message: 'key "a" is given twice' })
  })
})

describe('parseCreateFlags', () => {
  it('builds the request body with only the flags given', () => {
    expect(parseCreateFlags({ amount: '1500', 'payer-tax-number': '52998224725', metadata: ['k=v'], 'idempotency-key': 'key-1' })).toEqual({
      body: { amountInCents: 1500, payerTaxNumber: '52998224725', metadata: { k: 'v' } },
      idempotencyKey: 'key-1',
    })
  })

  it('leaves a missing tax number for later, but still checks everything else', () => {
    expect(parseCreateFlags({ amount: '1500' })).toEqual({ body: { amountInCents: 1500 } })
    expect(() => parseCreateFlags({ amount: '100' })).toThrow(UsageError)
  })

  it('accepts the alphanumeric CNPJ', () => {
    expect(() => parseCreateFlags({ amount: '1500', 'payer-tax-number': '12.ABC.345/01DE-35' })).not.toThrow()
  })

  it('accepts the limits exactly', () => {
    expect(() =>
      parseCreateFlags({
        amount: '1000',
        'payer-tax-number': '52998224725',
        'payer-name': 'x'.repeat(120),
        'external-id': 'x'.repeat(128),
        description: 'x'.repeat(200),
        metadata: Array.from({ length: 20 }, (_, i) => `k${i}=${'v'.repeat(500)}`),
        'idempotency-key': 'k'.repeat(128),
      }),
    ).not.toThrow()
  })

  it('an empty --external-id is refused', () => {
    const err = (() => {
      try {
        parseCreateFlags({ amount: '1500', 'external-id': '' })
      } catch (e) {
        return e as UsageError
      }
    })()
    expect(err?.details?.[0]).toEqual({ field: '--external-id (externalId)', message: 'must not be empty' })
  })
})

describe('completeRequest', () => {
  it('adds the tax number and validates it', () => {
    expect(completeRequest({ amountInCents: 1500 }, '52998224725')).toEqual({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    expect(() => completeRequest({ amountInCents: 1500 }, '123')).toThrow(UsageError)
  })
})
