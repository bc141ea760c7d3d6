import { describe, expect, it } from 'vitest'
import { chargeTable, chargeTsvRow } from '../../../src/lib/output/charge-list-view.js'
import { chargeFieldLines, renderChargeView } from '../../../src/lib/output/charge-view.js'
import { painter, stripAnsi } from '../../../src/lib/output/color.js'
import { charge } from '../../helpers/api-fixtures.js'

const now = new Date('2026-11-20T14:30:00Z')

describe('charge list rows', () => {
  it('TSV keeps the documented column order and escapes a tab inside the order id', () => {
    expect(chargeTsvRow(charge({ externalId: 'a\tb' }))).toBe('65a1f0c2b3d4e5f60718293a\tawaiting_payment\t1500\ta\\tb\t2026-11-20T14:00:00Z\n')
  })

  it('the terminal table shows R$, local time and age, and colours the status', () => {
    const t = chargeTable(painter(true), 120, () => now)
    const row = t.row(charge({ status: 'settled' }))
    expect(row).toContain('\u001B[32msettled')
    expect(stripAnsi(row)).toContain('R$ 15,00')
    expect(stripAnsi(row)).toContain('30 min ago')
  })
})

describe('one charge', () => {
  const paid = charge({
    status: 'paid_pending_settlement',
    externalId: 'order-1',
    description: 'Pedido 1',
    metadata: { sku: 'XPTO' },
    payer: { taxNumber: '***.456.789-**', name: 'Maria Silva' },
    settlement: { delayHours: 24, paidAt: '2026-11-20T14:10:00Z', estimatedAt: '2026-11-21T14:10:00Z' },
  })

  it('the human view shows gross, fee (plan and fixed part), net, payer, metadata and settlement', () => {
    const text = stripAnsi(renderChargeView(paid, { paint: painter(true), now }))
    expect(text).toContain('TEST')
    expect(text).toMatch(/Gross\s+R\$ 15,00/)
    expect(text).toMatch(/Fee\s+R\$ 0,80 \(1,99% \+ R\$ 0,50\)/)
    expect(text).toMatch(/Net\s+R\$ 14,20/)
    expect(text).toContain('Maria Silva (***.456.789-**)')
    expect(text).toMatch(/sku\s+XPTO/)
    expect(text).toMatch(/Paid\s+.*20 min ago/)
    expect(text).toContain('after a 24 h hold')
  })

  it('without colour the view has no escape codes', () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(renderChargeView(paid, { paint: painter(false), now })).not.toMatch(/\u001B\[/)
  })

  it('piped lines carry raw values (centavos, RFC 3339) and skip absent fields', () => {
    const lines = chargeFieldLines(paid)
    expect(lines).toContain('grossInCents\t1500\n')
    expect(lines).toContain('paidAt\t2026-11-20T14:10:00Z\n')
    expect(lines).toContain('metadata.sku\tXPTO\n')
    expect(lines).not.toContain('settledAt')
    expect(lines.startsWith('id\t65a1f0c2b3d4e5f60718293a\nstatus\tpaid_pending_settlement\n')).toBe(true)
  })
})
