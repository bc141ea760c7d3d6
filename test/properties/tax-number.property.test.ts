/**
 * Payer tax numbers: our validation (used by the CLI's flags and the sandbox's bodies) agrees
 * with the library of record, @brazilian-utils, on generated CPFs, numeric CNPJs and
 * alphanumeric CNPJs (version 2), punctuated or not, and on random mutations of them.
 */
import { formatCnpj } from '@brazilian-utils/brazilian-utils/format-cnpj'
import { formatCpf } from '@brazilian-utils/brazilian-utils/format-cpf'
import { generateCnpj } from '@brazilian-utils/brazilian-utils/generate-cnpj'
import { generateCpf } from '@brazilian-utils/brazilian-utils/generate-cpf'
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj'
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isValidTaxNumber } from '../../src/lib/domain/tax-number.js'

const oracle = (s: string) => isValidCpf(s) || isValidCnpj(s, { version: 2 })

/** A valid number as the library generates it, in one of the ways a user may type it. */
const validArb = fc.tuple(fc.constantFrom('cpf', 'cnpj', 'cnpj2'), fc.constantFrom('raw', 'formatted', 'lower', 'spaced'), fc.nat()).map(([kind, style]) => {
  const raw = kind === 'cpf' ? generateCpf() : generateCnpj(kind === 'cnpj2' ? { version: 2 } : 1)
  const formatted = kind === 'cpf' ? formatCpf(raw) : formatCnpj(raw, { version: 2 })
  if (style === 'formatted') return formatted
  if (style === 'lower') return formatted.toLowerCase()
  if (style === 'spaced') return ` ${formatted.replace(/[./-]/g, ' ')} `
  return raw
})

const charArb = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz./- _*#'.split(''))

/** One edit a typo (or an attacker) could make. */
const mutate = (s: string, kind: number, at: number, c: string): string => {
  const i = s.length ? at % s.length : 0
  switch (kind) {
    case 0:
      return s.slice(0, i) + c + s.slice(i + 1)
    case 1:
      return s.slice(0, i) + s.slice(i + 1)
    case 2:
      return s.slice(0, i) + c + s.slice(i)
    default:
      return i + 1 < s.length ? s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2) : s + c
  }
}

describe('tax-number validation agrees with @brazilian-utils (properties)', () => {
  it('accepts every number the library generates, in every usual spelling', () => {
    fc.assert(
      fc.property(validArb, (s) => {
        expect(oracle(s)).toBe(true)
        expect(isValidTaxNumber(s)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('agrees with the library after random mutations (one to three edits)', () => {
    const edits = fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat(), charArb), { minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(validArb, edits, (s, ops) => {
        const mutated = ops.reduce((acc, [k, at, c]) => mutate(acc, k, at, c), s)
        expect(isValidTaxNumber(mutated), JSON.stringify({ s, mutated })).toBe(oracle(mutated))
      }),
      { numRuns: 2000 },
    )
  })

  it('agrees with the library on arbitrary short strings of tax-number characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: charArb, minLength: 0, maxLength: 20 }), (s) => {
        expect(isValidTaxNumber(s), JSON.stringify(s)).toBe(oracle(s))
      }),
      { numRuns: 1000 },
    )
  })
})
