/**
 * Payer tax numbers: CPF (11 digits), numeric CNPJ and the alphanumeric CNPJ in force since
 * July 2026. Check digits come from @brazilian-utils (the library of record), never by hand.
 */
import { isValidCnpj } from '@brazilian-utils/brazilian-utils/is-valid-cnpj'
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf'

export type TaxNumberKind = 'cpf' | 'cnpj'

/** Strips the usual punctuation (`.`, `-`, `/`, spaces) and upper-cases letters. */
export function normalizeTaxNumber(raw: string): string {
  return raw.replace(/[\s./-]/g, '').toUpperCase()
}

/**
 * The library judges the raw text, punctuation included, so that what we accept is exactly what
 * the library of record accepts (stripping every space first let `8 73 589 176 93` through).
 */
export function taxNumberKind(raw: string): TaxNumberKind | undefined {
  if (isValidCpf(raw)) return 'cpf'
  if (isValidCnpj(raw, { version: 2 })) return 'cnpj'
  return undefined
}

export function isValidTaxNumber(raw: string): boolean {
  if (!/^[\s0-9A-Za-z./-]+$/.test(raw)) return false
  return taxNumberKind(raw) !== undefined
}

/** Masks a tax number as the API does: only some middle digits visible (`***.456.789-**`). */
export function maskTaxNumber(raw: string): string {
  const n = normalizeTaxNumber(raw)
  if (n.length === 11) return `***.${n.slice(3, 6)}.${n.slice(6, 9)}-**`
  if (n.length === 14) return `**.${n.slice(2, 5)}.${n.slice(5, 8)}/****-**`
  return '*'.repeat(n.length)
}
