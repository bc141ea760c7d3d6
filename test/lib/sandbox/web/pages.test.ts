/** The web panel's delivery log marks what `--webhook-faults` injected: a lost event, and each injected attempt. */
import { describe, expect, it } from 'vitest'
import type { DeliveryRecord } from '../../../../src/lib/contract/panel.js'
import { deliveryTable } from '../../../../src/lib/sandbox/web/pages.js'

const base: DeliveryRecord = {
  eventId: 'evt_000000000000000000000001',
  type: 'charge.settled',
  environment: 'test',
  url: 'http://127.0.0.1:3000/hooks',
  attempts: 1,
  state: 'succeeded',
  createdAt: '2026-11-22T12:00:00.000Z',
  body: '{}',
}

describe('the web panel delivery log', () => {
  it('shows a lost event as lost (injected), and names the fault of each injected attempt', () => {
    const lost = String(deliveryTable([{ ...base, injected: ['lose'] }], 'test', 'csrf'))
    expect(lost).toContain('lost (injected)')
    expect(lost).not.toContain('>succeeded<')
    const retried: DeliveryRecord = {
      ...base,
      attempts: 2,
      injected: ['fail-first'],
      attemptLog: [
        { attempt: 1, at: '2026-11-22T12:00:00.000Z', url: base.url, error: 'ECONNRESET', durationMs: 0, manual: false, injected: ['fail-first'] },
        { attempt: 2, at: '2026-11-22T12:00:10.000Z', url: base.url, status: 200, durationMs: 2, manual: false },
      ],
    }
    const page = String(deliveryTable([retried], 'test', 'csrf'))
    expect(page).toContain('injected: fail-first')
    expect(page).toContain('<td>1 (injected: fail-first)</td>')
    expect(page).toContain('<td>2</td>')
    expect(String(deliveryTable([base], 'test', 'csrf'))).not.toContain('injected')
  })
})
