import { describe, expect, it } from 'vitest'
import type { ProductPayment } from '../../../../src/lib/contract/product-sales.js'
import type { Withdrawal } from '../../../../src/lib/contract/withdrawals.js'
import { productSalesPage, withdrawalsPage } from '../../../../src/lib/sandbox/web/resource-pages.js'

const withdrawal = (over: Partial<Withdrawal> = {}): Withdrawal => ({
  id: 'a'.repeat(24),
  status: 'paid',
  environment: 'test',
  amountInCents: 123456,
  pix: { key: 'dev@example.com', endToEndId: 'E00000000202611221200abcdefghijk' },
  createdAt: '2026-11-22T12:00:00Z',
  updatedAt: '2026-11-22T12:00:05Z',
  ...over,
})

describe('the panel’s withdrawals and sales pages', () => {
  it('says how to start a withdrawal when there is none, naming the environment', () => {
    expect(withdrawalsPage([], 'live').value).toContain('<code>svc trigger withdrawal.paid --env live</code>')
    expect(withdrawalsPage([], 'test').value).toContain('<code>svc trigger withdrawal.paid</code>')
  })

  it('shows a paid withdrawal’s amount and end-to-end id, a failed one’s reason, and escapes the Pix key', () => {
    const page = withdrawalsPage([withdrawal(), withdrawal({ id: 'b'.repeat(24), status: 'failed', pix: { key: '<img src=x>' }, failureReason: 'key not found' })], 'test').value
    expect(page).toMatch(/R\$\s?1\.234,56/)
    expect(page).toContain('E00000000202611221200abcdefghijk')
    expect(page).toContain('key not found')
    expect(page).toContain('&lt;img src=x&gt;')
    expect(page).not.toContain('<img src=x>')
  })

  it('says sales are live only, and escapes what the buyer typed', () => {
    const sale: ProductPayment = {
      id: 'ps_1',
      product: { id: 'p1', name: 'Curso <b>Pix</b>' },
      valueInCents: 9900,
      netValueInCents: 9500,
      buyerEmail: 'a@b.c',
      paidWith: 'pix',
      paidAt: '2026-11-22T12:00:00Z',
    }
    const page = productSalesPage([sale], 'test').value
    expect(page).toContain('happen only in the live environment')
    expect(page).toContain('Curso &lt;b&gt;Pix&lt;/b&gt;')
    expect(productSalesPage([], 'live').value).toContain('<code>svc trigger product.paid</code>')
  })
})
