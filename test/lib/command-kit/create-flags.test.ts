import { describe, expect, it } from 'vitest'
import { createInputFromFlags, parseAmount, parseMetadata } from '../../../src/lib/command-kit/create-flags.js'
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

describe('createInputFromFlags', () => {
  it('builds the typed input from the flags given', () => {
    expect(createInputFromFlags({ amount: '1500', 'payer-tax-number': '52998224725', metadata: ['k=v'], 'idempotency-key': 'key-1' })).toMatchObject({
      amountInCents: 1500,
      payerTaxNumber: '52998224725',
      metadata: { k: 'v' },
      idempotencyKey: 'key-1',
    })
  })

  it('leaves a missing tax number for later, but still checks everything else', () => {
    expect(createInputFromFlags({ amount: '1500' })).toMatchObject({ amountInCents: 1500 })
    expect(() => createInputFromFlags({ amount: '100' })).toThrow(UsageError)
  })

  it('accepts the alphanumeric CNPJ', () => {
    expect(() => createInputFromFlags({ amount: '1500', 'payer-tax-number': '12.ABC.345/01DE-35' })).not.toThrow()
  })

  it('accepts the limits exactly', () => {
    expect(() =>
      createInputFromFlags({
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
        createInputFromFlags({ amount: '1500', 'external-id': '' })
      } catch (e) {
        return e as UsageError
      }
    })()
    expect(err?.details?.[0]).toEqual({ field: '--external-id (externalId)', message: 'must not be empty' })
  })
})

describe("the input's field paths, named as flags", () => {
  const details = (flags: Parameters<typeof createInputFromFlags>[0]) => {
    try {
      createInputFromFlags(flags)
    } catch (e) {
      return { message: (e as UsageError).message, details: (e as UsageError).details }
    }
    return undefined
  }

  it('names the flag and the API field, the text flags that could not be read first', () => {
    expect(details({ amount: '1.5', metadata: ['novalue'], 'payer-name': 'x'.repeat(121), 'idempotency-key': '' })).toEqual({
      message: '4 flags are invalid; nothing was sent.',
      details: [
        { field: '--amount (amountInCents)', message: 'must be an integer number of centavos (1500 = R$ 15,00), not "1.5"' },
        { field: '--metadata (metadata)', message: 'expected key=value, got "novalue"' },
        { field: '--payer-name (payerName)', message: 'must be at most 120 characters' },
        { field: '--idempotency-key (Idempotency-Key)', message: 'must not be empty' },
      ],
    })
  })

  it('says one bad --split value by itself, and the destinations as a whole as --split', () => {
    expect(details({ amount: '10000', split: ['a=7000', 'b'] })?.details).toEqual([{ field: '--split b', message: 'expected WALLET=BPS (e.g. wallet-a=7000 for 70 %)' }])
    expect(details({ amount: '10000', split: ['a=7000', 'b=2000'] })).toEqual({
      message: 'Invalid --split; nothing was sent.',
      details: [{ field: '--split', message: 'the shares must add up to 10000 basis points; these add up to 9000' }],
    })
  })
})
