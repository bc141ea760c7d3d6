import { describe, expect, it } from 'vitest'
import { isValidTaxNumber, maskTaxNumber, normalizeTaxNumber, taxNumberKind } from '../../../src/lib/domain/tax-number.js'

const CPF = '52998224725'
const CNPJ = '11222333000181'

describe('payer tax numbers', () => {
  it('accepts a CPF and a CNPJ with or without their usual punctuation, and says which it is', () => {
    expect(taxNumberKind(CPF)).toBe('cpf')
    expect(taxNumberKind('529.982.247-25')).toBe('cpf')
    expect(taxNumberKind(CNPJ)).toBe('cnpj')
    expect(taxNumberKind('11.222.333/0001-81')).toBe('cnpj')
    expect(isValidTaxNumber('529.982.247-25')).toBe(true)
  })

  it('refuses a wrong check digit, a wrong length and characters a tax number never has', () => {
    expect(isValidTaxNumber('52998224726')).toBe(false)
    expect(isValidTaxNumber('5299822472')).toBe(false)
    expect(isValidTaxNumber('529;982;247;25')).toBe(false)
    expect(taxNumberKind('00000000000')).toBeUndefined()
  })

  it('normalizes punctuation away and upper-cases the letters of an alphanumeric CNPJ', () => {
    expect(normalizeTaxNumber('529.982.247-25')).toBe(CPF)
    expect(normalizeTaxNumber('12.abc.345/01de-35')).toBe('12ABC34501DE35')
  })

  it('masks as the API does: only some middle digits visible', () => {
    expect(maskTaxNumber('529.982.247-25')).toBe('***.982.247-**')
    expect(maskTaxNumber(CNPJ)).toBe('**.222.333/****-**')
    expect(maskTaxNumber('123')).toBe('***')
  })
})
