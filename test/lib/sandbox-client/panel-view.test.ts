import { describe, expect, it } from 'vitest'
import { painter } from '../../../src/lib/output/color.js'
import { visibleWidth } from '../../../src/lib/output/table.js'
import type { PanelDelivery } from '../../../src/lib/sandbox-client/panel-client.js'
import { sandboxDeliveriesTable, formatSeconds } from '../../../src/lib/sandbox-client/panel-view.js'

const NOW = Date.parse('2026-11-22T12:00:00Z')
const plain = painter(false)

function delivery(over: Partial<PanelDelivery> = {}): PanelDelivery {
  return {
    eventId: 'evt_3f2a9c01d4e5b6a7c8d9e0f1',
    type: 'charge.paid_pending_settlement',
    environment: 'test',
    url: 'https://merchant.example.com/api/v2/payments/webhooks/pix?tenant=acme-industries',
    attempts: 3,
    lastError: 'timeout: no answer within 10 s',
    nextRetryAt: new Date(NOW + 125_000).toISOString(),
    state: 'pending',
    createdAt: new Date(NOW).toISOString(),
    body: '{}',
    ...over,
  }
}

const rows = [delivery(), delivery({ eventId: 'evt_000000000000000000000001', type: 'charge.settled', state: 'succeeded', lastStatus: 200, nextRetryAt: undefined })]

describe('sandboxDeliveriesTable', () => {
  it.each([60, 80, 100, 120, 160])('fits %i columns', (columns) => {
    const text = sandboxDeliveriesTable(rows, NOW, plain, columns)
    expect(Math.max(...text.split('\n').map(visibleWidth))).toBeLessThanOrEqual(columns)
  })

  it('narrow, cuts event ids in the middle, so that rows still differ (issue 29 item 17)', () => {
    for (const columns of [60, 72]) {
      const lines = sandboxDeliveriesTable(rows, NOW, plain, columns).trimEnd().split('\n')
      expect(lines[1], String(columns)).toMatch(/^evt_3f2a\S*…e0f1 /)
      expect(lines[2], String(columns)).toMatch(/^evt_0000\S*…0001 /)
    }
  })

  it('keeps event ids whole from 80 columns up, dropping the URL first; a wide terminal shows everything', () => {
    const narrow = sandboxDeliveriesTable(rows, NOW, plain, 80)
    expect(narrow).toContain('evt_3f2a9c01d4e5b6a7c8d9e0f1')
    expect(narrow).not.toContain('URL')
    const wide = sandboxDeliveriesTable(rows, NOW, plain, 240)
    expect(wide).toContain(rows[0]!.url)
    expect(wide).toContain('charge.paid_pending_settlement')
    expect(wide).toContain('timeout: no answer within 10 s')
    expect(wide).toContain('in 2m 5s')
  })
})

it('formatSeconds reads a QR validity for a person', () => {
  expect([45, 90, 900, 3600, 5400, 86_400, 172_800].map(formatSeconds)).toEqual(['45 s', '90 s', '15 min', '1 h', '1 h 30 min', '1 d', '2 d'])
})

describe("outside data (the receiver's answers, event types, URLs, bodies)", () => {
  const hostile = delivery({
    type: 'charge.\u001b]0;pwned\u0007settled',
    lastError: 'boom\u001b[2J\tthen\nmore',
    attemptLog: [{ attempt: 1, at: new Date(NOW).toISOString(), url: 'x', status: 500, response: 'oops\u001b[31mred\u009b', durationMs: 3, manual: false }],
    body: '{"a":"\u001b[2J"}\n\r{"b":1}',
  })

  it('reaches the terminal as visible escapes, never as control characters', async () => {
    const { deliveryDetail } = await import('../../../src/lib/sandbox-client/panel-view.js')
    const text = sandboxDeliveriesTable([hostile], NOW, plain, 240) + deliveryDetail(hostile, plain)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for raw control characters
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
    expect(text).toContain('charge.\\x1b]0;pwned\\x07settled')
    expect(text).toContain('\\x1b[2J')
  })

  it('cannot break a piped row: one line, nine fields', async () => {
    const { deliveriesTsv } = await import('../../../src/lib/sandbox-client/panel-view.js')
    const out = deliveriesTsv([{ ...hostile, lastStatus: undefined }])
    expect(out.split('\n')).toHaveLength(2)
    expect(out.split('\t')).toHaveLength(9)
    expect(out).toContain('boom\\x1b[2J\\tthen\\nmore')
  })
})

describe('injected webhook faults (--webhook-faults)', () => {
  it('marks a lost event and the attempts that were injected, in the table, the piped rows and the detail', async () => {
    const { deliveriesTsv, deliveryDetail } = await import('../../../src/lib/sandbox-client/panel-view.js')
    const lost = delivery({ state: 'succeeded', nextRetryAt: undefined, lastError: undefined, injected: ['lose'] })
    const retried = delivery({
      eventId: 'evt_000000000000000000000002',
      state: 'succeeded',
      nextRetryAt: undefined,
      lastError: undefined,
      lastStatus: 200,
      injected: ['fail-first'],
      attemptLog: [
        { attempt: 1, at: new Date(NOW).toISOString(), url: 'http://x', error: 'ECONNRESET', durationMs: 0, manual: false, injected: ['fail-first'] },
        { attempt: 2, at: new Date(NOW + 10_000).toISOString(), url: 'http://x', status: 200, durationMs: 3, manual: false },
      ],
    })
    const table = sandboxDeliveriesTable([lost, retried], NOW, plain, 240)
    expect(table).toContain('lost (injected)')
    expect(table).toContain('succeeded (injected: fail-first)')
    expect(deliveriesTsv([lost]).split('\t').slice(6, 8)).toEqual(['lost (injected)', 'lose'])
    // Issue 29 items 19, 20: the states the faults layer shows, as the log sends them.
    const held = delivery({ state: 'held', attempts: 0, nextRetryAt: undefined, lastError: undefined, injected: ['reorder'] })
    expect(sandboxDeliveriesTable([held], NOW, plain, 240)).toContain('held (injected: reorder)')
    expect(deliveriesTsv([held]).split('\t').slice(6, 8)).toEqual(['held', 'reorder'])
    expect(
      deliveriesTsv([{ ...lost, state: 'lost' }])
        .split('\t')
        .slice(6, 8),
    ).toEqual(['lost (injected)', 'lose'])
    // The piped rows keep the marker a terminal shows (trial report item 7): the faults, last, comma-separated.
    const duplicated = delivery({ state: 'succeeded', nextRetryAt: undefined, lastError: undefined, lastStatus: 200, injected: ['fail-first', 'duplicate'] })
    expect(deliveriesTsv([duplicated]).split('\t').slice(6, 8)).toEqual(['succeeded', 'fail-first,duplicate'])
    expect(
      deliveriesTsv([delivery({ state: 'succeeded', nextRetryAt: undefined, lastError: undefined, lastStatus: 200 })])
        .split('\t')
        .slice(6, 8),
    ).toEqual(['succeeded', ''])
    const detail = deliveryDetail(retried, plain)
    expect(detail).toMatch(/#1 .*ECONNRESET.*\(injected: fail-first\)/)
    expect(detail).not.toMatch(/#2 .*injected/)
  })
})

describe('sandboxDeliveriesTable: failed deliveries (newcomer trial)', () => {
  const failed = [
    delivery({ eventId: 'evt_01a2189619cc2bc40e9929a9', type: 'charge.expired', url: 'http://127.0.0.1:9/webhooks/pix', attempts: 1, lastError: 'endpoint deactivated', nextRetryAt: undefined, state: 'failed' }),
    delivery({ eventId: 'evt_01a2185f2b4c23723049b892', type: 'charge.awaiting_payment', url: 'http://127.0.0.1:9/webhooks/pix', attempts: 10, lastError: 'ECONNREFUSED', nextRetryAt: undefined, state: 'failed' }),
  ]

  it.each([80, 120])('at %i columns: the empty RETRY column goes and ANSWER (the why) stays whole, ids whole', (columns) => {
    const text = sandboxDeliveriesTable(failed, NOW, plain, columns)
    expect(Math.max(...text.split('\n').map(visibleWidth))).toBeLessThanOrEqual(columns)
    expect(text.split('\n')[0]).not.toContain('RETRY')
    expect(text).toContain('endpoint deactivated')
    expect(text).toContain('ECONNREFUSED')
    expect(text).toContain('evt_01a2185f2b4c23723049b892')
  })

  it('at 120 the time column stays', () => {
    expect(sandboxDeliveriesTable(failed, NOW, plain, 120).split('\n')[0]).toMatch(/CREATED$/)
  })
})
