import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebhooksEvents from '../../../src/commands/webhooks/events.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { runCommand } from '../../helpers/run-command.js'
import { chargeEvent, signedHeaders } from '../../lib/webhooks/fixtures.js'

let store: EventStore
beforeAll(async () => {
  store = await EventStore.open()
  const add = (id: string, type: string, over: object = {}, body: Uint8Array = Buffer.from(chargeEvent(id, type))) =>
    store.record({ receivedAt: `2026-11-22T12:00:0${id.slice(-1)}.000Z`, source: 'service', eventId: id, type, headers: signedHeaders(body, { id, type }), body, verification: 'verified', outcome: 'forwarded', answeredStatus: 200, forwardStatus: 200, latencyMs: 7, forwardUrl: 'http://localhost:3000/', ...over })
  add('evt_1', 'charge.awaiting_payment')
  add('evt_2', 'charge.settled', { outcome: 'failed', answeredStatus: 502, forwardStatus: 500 })
  add('evt_3', 'withdrawal.paid', { verification: 'failed', verifyReason: 'timestamp_too_old', outcome: 'rejected', answeredStatus: 400, forwardStatus: undefined, latencyMs: undefined }, Buffer.from([0xff, 0x00]))
})
afterAll(() => store.close())

describe('svc webhooks events', () => {
  it('prints tab-separated rows, newest first, when piped', async () => {
    const r = await runCommand(WebhooksEvents, [])
    expect(r.exitCode).toBe(0)
    const rows = r.stdout.trim().split('\n').map((l) => l.split('\t'))
    expect(rows.map((c) => c[1])).toEqual(['evt_3', 'evt_2', 'evt_1'])
    expect(rows[0]).toEqual(['2026-11-22T12:00:03.000Z', 'evt_3', 'withdrawal.paid', 'timestamp_too_old', 'rejected', '400', '', '', '1', 'service'])
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
    expect(lines[0]).toMatch(/^RECEIVED\s+EVENT ID\s+TYPE\s+VERIFIED\s+OUTCOME\s+APP\s+LATENCY\s+TRY$/)
    expect(lines[1]).toContain('timestamp_too_old')
    expect(lines[3]).toMatch(/evt_1\s+charge\.awaiting_payment\s+verified\s+forwarded\s+200\s+7 ms\s+#1/)
  })

  it('says so on stderr when nothing matches', async () => {
    const r = await runCommand(WebhooksEvents, ['--type', 'product.paid'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('No deliveries')
  })
})
