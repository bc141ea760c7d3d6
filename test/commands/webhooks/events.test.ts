import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebhooksEvents from '../../../src/commands/webhooks/events.js'
import { painter } from '../../../src/lib/output/color.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { deliveryJson, deliveryTsvRow, eventLogTable } from '../../../src/lib/webhooks/events-view.js'
import { runCommand } from '../../helpers/run-command.js'
import { chargeEvent, signedHeaders } from '../../helpers/webhooks.js'

let store: EventStore
let add: (id: string, type: string, over?: object, body?: Uint8Array) => void
beforeAll(async () => {
  store = await EventStore.open()
  add = (id: string, type: string, over: object = {}, body: Uint8Array = Buffer.from(chargeEvent(id, type))) =>
    store.record({
      receivedAt: `2026-11-22T12:00:0${id.slice(-1)}.000Z`,
      source: 'service',
      eventId: id,
      type,
      headers: signedHeaders(body, { id, type }),
      body,
      verification: 'verified',
      outcome: 'forwarded',
      answeredStatus: 200,
      forwardStatus: 200,
      latencyMs: 7,
      forwardUrl: 'http://localhost:3000/',
      ...over,
    })
  add('evt_1', 'charge.awaiting_payment')
  add('evt_2', 'charge.settled', { outcome: 'failed', answeredStatus: 502, forwardStatus: 500 })
  add('evt_3', 'withdrawal.paid', { verification: 'failed', verifyReason: 'timestamp_too_old', outcome: 'rejected', answeredStatus: 400, forwardStatus: undefined, latencyMs: undefined }, Buffer.from([0xff, 0x00]))
})
afterAll(() => store.close())

describe('svc webhooks events', () => {
  it("reads the event log its run's factory opens, not the one the environment names", async () => {
    const own = await EventStore.open({ path: ':memory:' })
    const body = Buffer.from(chargeEvent('evt_own', 'charge.settled'))
    own.record({
      receivedAt: '2026-11-22T12:00:09.000Z',
      source: 'service',
      eventId: 'evt_own',
      type: 'charge.settled',
      headers: signedHeaders(body, { id: 'evt_own', type: 'charge.settled' }),
      body,
      verification: 'verified',
      outcome: 'forwarded',
      answeredStatus: 200,
    })
    const r = await runCommand(WebhooksEvents, [], { factory: { openEventStore: async () => own } })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('evt_own')
    expect(r.stdout).not.toContain('evt_1')
  })

  it('prints tab-separated rows, newest first, when piped', async () => {
    const r = await runCommand(WebhooksEvents, [])
    expect(r.exitCode).toBe(0)
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    expect(rows.map((c) => c[1])).toEqual(['evt_3', 'evt_2', 'evt_1'])
    expect(rows[0]).toEqual(['2026-11-22T12:00:03.000Z', 'evt_3', 'withdrawal.paid', 'timestamp_too_old', 'rejected', '400', '', '', '1', 'service', 'http://localhost:3000/'])
    expect(rows[1]!.slice(3, 9)).toEqual(['verified', 'failed', '502', '500', '7', '1'])
  })

  it('filters by type and limit, and prints JSON with the raw body (base64 when not UTF-8)', async () => {
    const r = await runCommand(WebhooksEvents, ['--type', 'charge.*', '--limit', '1', '--json'])
    const list = JSON.parse(r.stdout) as Array<Record<string, unknown>>
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ eventId: 'evt_2', type: 'charge.settled', outcome: 'failed', status: 502, forwardStatus: 500 })
    expect(JSON.parse(list[0]!.body as string)).toMatchObject({ id: 'evt_2' })
    const raw = await runCommand(WebhooksEvents, ['--event-id', 'evt_3', '--ndjson'])
    expect(JSON.parse(raw.stdout)).toMatchObject({ eventId: 'evt_3', bodyBase64: Buffer.from([0xff, 0x00]).toString('base64') })
  })

  it('draws a table on a terminal', async () => {
    const r = await runCommand(WebhooksEvents, ['--no-color'], { tty: true })
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^RECEIVED\s+EVENT ID\s+TYPE\s+VERIFIED\s+OUTCOME\s+APP\s+LATENCY\s+TIMES$/)
    expect(lines[1]).toContain('timestamp_too_old')
    expect(lines[3]).toMatch(/evt_1\s+charge\.awaiting_payment\s+verified\s+forwarded\s+200\s+7 ms\s+1×/)
  })

  it('fits the table to the terminal: whole ids at 120 columns, ids cut in the middle and fewer columns at 80', async () => {
    const wide = await EventStore.open({ path: ':memory:' })
    try {
      const ids = ['3f9a1c0d2b7e4a5f6c8d9e0a', '51458a2e87ba7d9c0887375b', '33d26bfac15bd0ab860934be'].map((h) => `evt_${h}`)
      const types = ['charge.settled', 'charge.paid_pending_settlement', 'charge.awaiting_payment']
      ids.forEach((id, i) => {
        const body = Buffer.from(chargeEvent(id, types[i]!))
        wide.record({
          receivedAt: `2026-11-22T12:00:0${i}.000Z`,
          source: 'service',
          eventId: id,
          type: types[i],
          headers: signedHeaders(body, { id, type: types[i] }),
          body,
          verification: 'verified',
          outcome: 'forwarded',
          answeredStatus: 200,
          forwardStatus: 200,
          latencyMs: 32,
          forwardUrl: 'http://localhost:3000/',
        })
      })
      const records = wide.list({ limit: 10 })
      const at120 = eventLogTable(records, painter(false), 120).trimEnd().split('\n')
      for (const l of at120) expect(l.length, l).toBeLessThanOrEqual(120)
      expect(at120[0]).toMatch(/^RECEIVED\s+EVENT ID\s+TYPE\s+VERIFIED\s+OUTCOME\s+APP\s+LATENCY\s+TIMES$/)
      expect(at120.slice(1).join('\n')).toContain('evt_51458a2e87ba7d9c0887375b  charge.paid_pending_settlement  verified  forwarded')
      const at80 = eventLogTable(records, painter(false), 80).trimEnd().split('\n')
      for (const l of at80) expect(l.length, l).toBeLessThanOrEqual(80)
      expect(at80[0]).toMatch(/^RECEIVED\s+EVENT ID\s+TYPE\s+VERIFIED\s+OUTCOME/)
      expect(at80[0]).not.toContain('TIMES')
      expect(at80.slice(1).join('\n')).toMatch(/evt_5145…375b\s+charge\.paid_pending_settlement\s+verified/)
      const run = await runCommand(WebhooksEvents, ['--no-color'], { tty: true, columns: 60 })
      for (const l of run.stdout.trimEnd().split('\n')) expect(l.length, l).toBeLessThanOrEqual(60)
    } finally {
      wide.close()
    }
  })

  it('keeps TARGET at ordinary widths when routing, cutting ids and targets in the middle (issue 29 items 17, 18)', async () => {
    const routed = await EventStore.open({ path: ':memory:' })
    try {
      const types = ['charge.paid_pending_settlement', 'withdrawal.paid', 'charge.settled']
      const targets = ['http://localhost:3055/payments/webhooks', 'http://localhost:3056/split-hooks', 'http://localhost:3055/payments/webhooks']
      types.forEach((type, i) => {
        const id = `evt_01a2325${i}7c0d2b7e4a5f69f3c`
        const body = Buffer.from(chargeEvent(id, type))
        routed.record({
          receivedAt: `2026-11-22T12:00:0${i}.000Z`,
          source: 'service',
          eventId: id,
          type,
          headers: {},
          body,
          verification: 'verified',
          outcome: 'forwarded',
          answeredStatus: 200,
          forwardStatus: 200,
          latencyMs: 12,
          forwardUrl: targets[i],
        })
      })
      const records = routed.list()
      for (const width of [80, 100, 120, 140]) {
        const lines = eventLogTable(records, painter(false), width).trimEnd().split('\n')
        for (const l of lines) expect(l.length, `${width}: ${l}`).toBeLessThanOrEqual(width)
        expect(lines[0], String(width)).toMatch(/TARGET$/)
        // Each row says which app: the two targets (one port and path apart) still read apart.
        const target = (type: string) =>
          lines
            .find((l) => l.includes(type))!
            .split(/\s{2,}/)
            .at(-1)!
        expect(target('withdrawal.paid'), String(width)).toMatch(/^localhost:3056\/split-hooks$|^local\S*…\S*t-hooks$/)
        expect(target('charge.settled'), String(width)).toMatch(/^localhost:3055\/payments\/webhooks$|^local\S*…\S*ebhooks$/)
        expect(target('charge.settled'), String(width)).toBe(target('charge.paid'))
        // Ids are never cut at the end (`evt_01a23257…`): whole, or their start and end.
        for (const l of lines.slice(1)) expect(l, String(width)).toMatch(/evt_01a2325\d7c0d2b7e4a5f69f3c|evt_01a2\S*…9f3c/)
      }
      const at60 = eventLogTable(records, painter(false), 60).trimEnd().split('\n')
      for (const l of at60) expect(l.length, l).toBeLessThanOrEqual(60)
      for (const l of at60.slice(1)) expect(l).toMatch(/evt_01a2\S*…9f3c/)
    } finally {
      routed.close()
    }
  })

  it('shows which app each delivery went to when the listener routed to several', async () => {
    const routed = await EventStore.open({ path: ':memory:' })
    try {
      const body = Buffer.from(chargeEvent('evt_x', 'charge.settled'))
      const base = { source: 'service', headers: {}, body, verification: 'verified', outcome: 'forwarded', answeredStatus: 200, forwardStatus: 200, latencyMs: 3 } as const
      routed.record({ ...base, receivedAt: '2026-11-22T12:00:01.000Z', eventId: 'evt_x', type: 'charge.settled', forwardUrl: 'http://localhost:4000/money', route: 'charge.settled' })
      routed.record({ ...base, receivedAt: '2026-11-22T12:00:02.000Z', eventId: 'evt_y', type: 'withdrawal.paid', forwardUrl: 'http://localhost:3000/' })
      const records = routed.list()
      const table = eventLogTable(records, painter(false), 200).trimEnd().split('\n')
      expect(table[0]).toMatch(/TIMES\s+TARGET$/)
      expect(table[2]).toMatch(/evt_x .* {2}localhost:4000\/money$/)
      // Narrow: the target stays at ordinary widths (issue 29 item 18); it goes only below 80 columns.
      expect(eventLogTable(records, painter(false), 90).split('\n')[0]).toContain('TARGET')
      expect(deliveryJson(records[0]!)).toMatchObject({ eventId: 'evt_y', target: 'http://localhost:3000/', route: null })
      expect(deliveryJson(records[1]!)).toMatchObject({ eventId: 'evt_x', target: 'http://localhost:4000/money', route: 'charge.settled' })
      expect(deliveryTsvRow(records[1]!).trimEnd().split('\t').at(-1)).toBe('http://localhost:4000/money')
    } finally {
      routed.close()
    }
  })

  it('--json names the route (the --forward pattern) beside the target URL, null for the default target', async () => {
    // Recorded as `webhooks listen --forward 'charge.refunded=localhost:4000'` does (last, so the tests above see three rows).
    add('evt_4', 'charge.refunded', { forwardUrl: 'http://localhost:4000/', route: 'charge.refunded' })
    const r = await runCommand(WebhooksEvents, ['--json'])
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>
    expect(rows.map((e) => [e.eventId, e.target, e.route])).toEqual([
      ['evt_4', 'http://localhost:4000/', 'charge.refunded'],
      ['evt_3', 'http://localhost:3000/', null],
      ['evt_2', 'http://localhost:3000/', null],
      ['evt_1', 'http://localhost:3000/', null],
    ])
  })

  it('says so on stderr when nothing matches', async () => {
    const r = await runCommand(WebhooksEvents, ['--type', 'product.paid'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('No deliveries')
  })
})
