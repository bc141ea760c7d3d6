/**
 * A charge to create as a typed input: every bad field named by its path (no flag, no argument),
 * all at once; a field the door could not read is not checked again.
 */
import { describe, expect, it } from 'vitest'
import { completeRequest, readCreateInput } from '../../../src/lib/charges/create-input.js'
import { InputError } from '../../../src/lib/charges/operator-input.js'

function issuesOf(run: () => unknown) {
  try {
    run()
  } catch (e) {
    if (e instanceof InputError) return e.issues
    throw e
  }
  return []
}

describe('readCreateInput', () => {
  it('splits the request body from the idempotency key, keeping only the fields given', () => {
    expect(readCreateInput({ amountInCents: 1500, payerTaxNumber: '52998224725', metadata: { k: 'v' }, externalId: undefined, idempotencyKey: 'key-1' })).toEqual({
      body: { amountInCents: 1500, payerTaxNumber: '52998224725', metadata: { k: 'v' } },
      idempotencyKey: 'key-1',
    })
    expect(readCreateInput({ amountInCents: 1500 })).toEqual({ body: { amountInCents: 1500 } })
  })

  it('names every bad field by its path, with the schema message less the field name', () => {
    expect(issuesOf(() => readCreateInput({ amountInCents: 100, payerTaxNumber: '123', externalId: '', idempotencyKey: 'k'.repeat(129) }))).toEqual([
      { path: 'amountInCents', message: 'must be at least 1000 (R$ 10,00)' },
      { path: 'payerTaxNumber', message: 'is not a valid CPF or CNPJ (check digits do not match)' },
      { path: 'externalId', message: 'must not be empty' },
      { path: 'idempotencyKey', message: 'must be at most 128 characters' },
    ])
  })

  it("checks a split's destinations as a whole", () => {
    expect(
      issuesOf(() =>
        readCreateInput({
          amountInCents: 10_000,
          split: [
            { wallet: 'a', shareBps: 5000 },
            { wallet: 'a', shareBps: 5000 },
          ],
        }),
      ),
    ).toEqual([{ path: 'split', message: 'each wallet may appear once; a is given twice' }])
    expect(issuesOf(() => readCreateInput({ amountInCents: 10_000, split: [{ wallet: 'a', shareBps: 10_000 }] }))).toEqual([{ path: 'split', message: 'needs at least 2 destinations' }])
  })

  it('a field the door could not read is not checked again, and the input is still refused', () => {
    expect(issuesOf(() => readCreateInput({ amountInCents: 0, description: 'ok' }, new Set(['amountInCents'])))).toEqual([])
    expect(() => readCreateInput({ amountInCents: 0 }, new Set(['amountInCents']))).toThrow(InputError)
  })
})

describe('completeRequest', () => {
  it('adds the tax number and validates it', () => {
    expect(completeRequest({ amountInCents: 1500 }, '52998224725')).toEqual({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    expect(issuesOf(() => completeRequest({ amountInCents: 1500 }, '123'))).toEqual([{ path: 'payerTaxNumber', message: 'is not a valid CPF or CNPJ (check digits do not match)' }])
  })
})
