import { describe, expect, it } from 'vitest'
import { WithdrawalCreateRequestSchema, WithdrawalSchema } from '../../../src/lib/contract/withdrawals.js'

describe('withdrawals in the contract', () => {
  it('a withdrawal answer is read with its proof of payment, and unknown fields are kept (spec 9)', () => {
    const w = WithdrawalSchema.parse({
      id: 'a'.repeat(24),
      status: 'paid',
      environment: 'test',
      amountInCents: 5000,
      pix: { key: 'dev@example.com', endToEndId: 'E123' },
      createdAt: '2026-11-22T12:00:00Z',
      updatedAt: '2026-11-22T12:00:05-03:00',
      future: 1,
    })
    expect(w.pix.endToEndId).toBe('E123')
    expect((w as Record<string, unknown>).future).toBe(1)
  })

  it('the sandbox’s start request refuses a bad amount or key with a message naming the field', () => {
    const bad = WithdrawalCreateRequestSchema.safeParse({ amountInCents: 50, pixKey: '' })
    expect(bad.success).toBe(false)
    const messages = bad.error!.issues.map((i) => i.message)
    expect(messages).toContain('amountInCents must be at least 100')
    expect(messages).toContain('pixKey is required')
    expect(WithdrawalCreateRequestSchema.safeParse({ amountInCents: 100, pixKey: 'k', extra: 1 }).success).toBe(false)
  })
})
