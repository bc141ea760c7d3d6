import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf'
import { describe, expect, it } from 'vitest'
import { type PayerContext, resolvePayerTaxNumber, testCpfFrom } from '../../../src/lib/charges/payer.js'
import { UsageError } from '../../../src/lib/errors.js'

function ctx(overrides: Partial<PayerContext> = {}) {
  const notes: string[] = []
  const questions: string[] = []
  const c: PayerContext = {
    environment: 'test',
    canPrompt: false,
    ask: async (q) => {
      questions.push(q)
      return ''
    },
    note: (t) => notes.push(t),
    ...overrides,
  }
  return { c, notes, questions }
}

describe('resolvePayerTaxNumber', () => {
  it('uses the flag when given, asking nothing', async () => {
    const { c, questions } = ctx({ canPrompt: true })
    expect(await resolvePayerTaxNumber('529.982.247-25', c)).toBe('529.982.247-25')
    expect(questions).toEqual([])
  })

  it('asks on a terminal and accepts a valid answer', async () => {
    const { c, questions } = ctx({ canPrompt: true, environment: 'live', ask: async () => ' 52998224725 ' })
    expect(await resolvePayerTaxNumber(undefined, c)).toBe('52998224725')
    void questions
  })

  it('asks again after an invalid answer and takes the next valid one (issue 16 item 22)', async () => {
    const answers = ['111.111.111-11', '529.982.247-25']
    const { c, notes } = ctx({ canPrompt: true, environment: 'live', ask: async () => answers.shift()! })
    expect(await resolvePayerTaxNumber(undefined, c)).toBe('529.982.247-25')
    expect(notes.join('')).toContain('Not a valid CPF or CNPJ (the check digits do not match). Try again, or press Enter to stop.')
  })

  it('rejects an invalid answer given three times with exit 2, naming the flag', async () => {
    const { c } = ctx({ canPrompt: true, ask: async () => '111.111.111-11' })
    const err = await resolvePayerTaxNumber(undefined, c).catch((e) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect(err.exitCode).toBe(2)
    expect(err.details[0].field).toBe('--payer-tax-number (payerTaxNumber)')
  })

  it('rejects an empty answer with exit 2', async () => {
    const { c } = ctx({ canPrompt: true })
    await expect(resolvePayerTaxNumber(undefined, c)).rejects.toMatchObject({ exitCode: 2 })
  })

  it('without a terminal in the test environment: a generated valid CPF, announced on stderr', async () => {
    const { c, notes } = ctx()
    const cpf = await resolvePayerTaxNumber(undefined, c)
    expect(isValidCpf(cpf)).toBe(true)
    expect(notes.join('')).toContain('generated test CPF')
  })

  it('a generated test CPF follows the seed: the same inputs give the same CPF, others another (issue 36.4)', async () => {
    const a = await resolvePayerTaxNumber(undefined, ctx({ seed: 'externalId\u0000order-3001' }).c)
    const again = await resolvePayerTaxNumber(undefined, ctx({ seed: 'externalId\u0000order-3001' }).c)
    const other = await resolvePayerTaxNumber(undefined, ctx({ seed: 'externalId\u0000order-3002' }).c)
    expect(again).toBe(a)
    expect(other).not.toBe(a)
    expect(isValidCpf(a)).toBe(true)
  })

  it('derives a valid CPF, never nine equal digits, from any seed', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) {
      const cpf = testCpfFrom(`seed-${i}`)
      expect(cpf).toMatch(/^\d{11}$/)
      expect(isValidCpf(cpf)).toBe(true)
      seen.add(cpf)
    }
    expect(seen.size).toBeGreaterThan(1990)
  })

  it('without a terminal in the live environment: exit 2, never a made-up number', async () => {
    const { c } = ctx({ environment: 'live' })
    await expect(resolvePayerTaxNumber(undefined, c)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('--payer-tax-number') })
  })

  it("names the field in the door's words when it gives them (svc mcp: its argument)", async () => {
    const words = { label: 'payerTaxNumber', name: 'payerTaxNumber' }
    const live = ctx({ environment: 'live' }).c
    await expect(resolvePayerTaxNumber(undefined, { ...live, words })).rejects.toMatchObject({
      message: 'payerTaxNumber is required with a live key when no terminal is attached to ask for it.',
      hint: "Pass payerTaxNumber with the payer's CPF or CNPJ.",
    })
    const { c, notes } = ctx()
    await resolvePayerTaxNumber(undefined, { ...c, words })
    expect(notes.join('')).toMatch(/^No payerTaxNumber given: using the generated test CPF/)
  })
})
