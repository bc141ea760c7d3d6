import { LANE_LEGEND } from '../../../../src/lib/tui/text/lane-cells.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Charge } from '../../../../src/lib/contract/schemas.js'
import { ListenApp } from '../../../../src/lib/tui/components/ListenApp.js'
import { ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import { StatusLog } from '../../../../src/lib/tui/view-models/status-log.js'
import { ChargeConfirmer } from '../../../../src/lib/webhooks/confirm.js'
import type { LoggedDelivery } from '../../../../src/lib/webhooks/event-store.js'
import { summarizeEvent } from '../../../../src/lib/webhooks/event-summary.js'
import { chargeEvent } from '../../../helpers/webhooks.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { renderAt } from '../../../helpers/render-at.js'
import { ApiError } from '../../../../src/lib/errors.js'
import { deliveryLine } from '../../../../src/lib/webhooks/ndjson.js'
import { clockTime } from '../../../../src/lib/tui/text/format.js'

const CHARGE = 'c0ffee'.padEnd(24, '0')
let seq = 0

function delivery(type: string, over: Partial<LoggedDelivery> = {}, chargeId = CHARGE) {
  const body = Buffer.from(chargeEvent(`evt_${++seq}`, type, chargeId))
  return heardDelivery({
    seq,
    receivedAt: new Date(Date.UTC(2026, 10, 22, 12, 0, seq)).toISOString(),
    eventId: `evt_${seq}`,
    type,
    chargeId,
    headers: { 'content-type': 'application/json', 'x-svc-event-id': `evt_${seq}`, 'x-svc-event-type': type },
    body,
    forwardStatus: 200,
    latencyMs: 3,
    forwardUrl: 'http://localhost:3000/',
    ...over,
  })
}

/** An API whose charges are in the states the test says. */
function api(states: Record<string, string>) {
  return new ChargeConfirmer(async (id) => ({ id, status: states[id] ?? 'awaiting_payment', environment: 'test' }) as unknown as Charge)
}

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
  seq = 0
})

/** Mounted on a wide terminal (160×40) unless the test gives a size. */
function mount(feed: ListenFeed, over: { skipVerify?: boolean; onReplay?: (id: string) => Promise<string>; onQuit?: () => void; size?: [number, number]; registration?: string } = {}) {
  const [columns, rows] = over.size ?? [160, 40]
  const app = renderAt(
    <ListenApp
      feed={feed}
      listening="http://127.0.0.1:4242/"
      forward="http://localhost:3000/"
      environment="test"
      skipVerify={over.skipVerify ?? false}
      onReplay={over.onReplay ?? (async () => 'ok')}
      onQuit={over.onQuit ?? (() => {})}
      registration={over.registration}
    />,
    columns,
    rows,
  )
  mounted.push(app)
  return app
}

/** The last frame with wrapped lines joined, so that a phrase is found wherever the terminal broke it. */
type Mounted = { lastFrame(): string | undefined }
const frame = (app: Mounted) => (app.lastFrame() ?? '').replace(/\s+/g, ' ')
const until = (app: Mounted, text: string) => vi.waitFor(() => expect(frame(app)).toContain(text), { timeout: 3000, interval: 10 })

describe('ListenApp', () => {
  it('draws deliveries and the charge lane as events arrive, each confirmed by the API', async () => {
    const states: Record<string, string> = { [CHARGE]: 'awaiting_payment' }
    const feed = new ListenFeed({ confirmer: api(states) })
    const app = mount(feed)
    await until(app, 'waiting for deliveries')
    feed.add(delivery('charge.awaiting_payment'))
    await feed.settled()
    await until(app, '✔ confirmed')
    expect(frame(app)).toContain('● awaiting_payment')
    expect(frame(app)).toContain('○ settled')
    states[CHARGE] = 'settled'
    feed.add(delivery('charge.paid_pending_settlement'))
    feed.add(delivery('charge.settled'))
    await feed.settled()
    await until(app, '● settled')
    expect(frame(app)).toContain('✔ confirmed (now settled)')
    expect(frame(app)).toContain('charge.paid_pending_settlement')
    expect(frame(app)).toContain('3 deliveries · 3 forwarded')
    // The same legend as charges watch (issue 16 item 11).
    expect(frame(app)).toContain(LANE_LEGEND)
  })

  it('flags a replayed event the charge has moved on from as stale, and leaves the lane alone (issue 16 item 12)', async () => {
    const states: Record<string, string> = { [CHARGE]: 'awaiting_payment' }
    const feed = new ListenFeed({ confirmer: api(states) })
    const app = mount(feed)
    feed.add(delivery('charge.awaiting_payment'))
    await feed.settled()
    await until(app, '✔ confirmed')
    states[CHARGE] = 'canceled'
    const replay = delivery('charge.awaiting_payment', { source: 'replay' })
    feed.add({ record: replay.record, skipVerify: false })
    await feed.settled()
    await until(app, '⚠ stale: says awaiting_payment, the charge is now canceled')
    expect(feed.getSnapshot().lanes[0]!.current).toBe('awaiting_payment')
    expect(feed.getSnapshot().deliveries[0]!.verdict).toEqual({ kind: 'stale', announced: 'awaiting_payment', api: 'canceled' })
    // The lane's own verdict is the delivery's, not the replay's.
    expect(feed.getSnapshot().lanes[0]!.verdict?.kind).toBe('confirmed')
  })

  it("shows the service's own test event green as a test event, never asks the API about its sample charge (issue 24 item 3)", async () => {
    const getCharge = vi.fn(async () => {
      throw new ApiError({ status: 404, code: 'charge_not_found', message: 'not found' })
    })
    const feed = new ListenFeed({ confirmer: new ChargeConfirmer(getCharge) })
    const app = mount(feed)
    feed.add(delivery('charge.test', {}, '0'.repeat(24)))
    await feed.settled()
    await until(app, '✔ test event')
    expect(frame(app)).not.toContain('mismatch')
    expect(frame(app)).not.toContain('forged')
    expect(getCharge).not.toHaveBeenCalled()
    expect(feed.getSnapshot().deliveries[0]!.verdict).toEqual({ kind: 'test' })
    expect(feed.getSnapshot().lanes).toHaveLength(0)
    const line = deliveryLine(delivery('charge.test', {}, '0'.repeat(24)))
    expect(line).toMatchObject({ type: 'charge.test', test: true, verified: true })
    expect(line).not.toHaveProperty('chargeId')
  })

  it('flags a mismatch with the API and an out-of-order arrival', async () => {
    const feed = new ListenFeed({ confirmer: api({ [CHARGE]: 'awaiting_payment' }) })
    const app = mount(feed, { skipVerify: true })
    feed.add({ ...delivery('charge.settled', { verification: 'skipped', verifyReason: 'signature_mismatch' }), skipVerify: true })
    await feed.settled()
    await until(app, '✘ mismatch')
    expect(frame(app)).toContain('the event says settled, the API says awaiting_payment')
    expect(frame(app)).toContain('SIGNATURES ARE NOT CHECKED')
    expect(frame(app)).toContain('UNVERIFIED')
    feed.add(delivery('charge.awaiting_payment'))
    await until(app, 'out of order')
  })

  it('with several targets, says on each row and in the details which app the event went to', async () => {
    const feed = new ListenFeed({ showTargets: true })
    const app = mount(feed)
    feed.add(delivery('charge.split.completed', { forwardUrl: 'http://localhost:4000/split', route: 'charge.split.*' }))
    feed.add(delivery('charge.settled'))
    await until(app, '⇢ charge.split.*=http://localhost:4000/split')
    expect(frame(app)).toContain('⇢ http://localhost:3000/')
    app.stdin.write('\u001B[B')
    app.stdin.write('\r')
    await until(app, 'target charge.split.*=http://localhost:4000/split → 200')
  })

  it('with one target, leaves it out of the rows (the header says it)', async () => {
    const feed = new ListenFeed()
    const app = mount(feed)
    feed.add(delivery('charge.settled'))
    await until(app, 'charge.settled')
    expect(frame(app)).not.toContain('⇢')
  })

  it('moves the selection, opens details, filters, replays and quits with the keys', async () => {
    const onReplay = vi.fn(async (id: string) => `replayed ${id} → 200`)
    const onQuit = vi.fn()
    const feed = new ListenFeed()
    const app = mount(feed, { onReplay, onQuit })
    feed.add(delivery('charge.awaiting_payment'))
    feed.add(delivery('withdrawal.paid', { chargeId: undefined }))
    await until(app, 'withdrawal.paid')
    app.stdin.write('\u001B[B') // ↓ to the older delivery
    await vi.waitFor(() => expect((app.lastFrame() ?? '').split('\n').find((l) => l.includes('›'))).toContain('charge.awaiting_payment'), { interval: 10 })
    app.stdin.write('\r')
    await until(app, 'x-svc-event-id: evt_1')
    app.stdin.write('r')
    await until(app, 'replayed evt_1 → 200')
    expect(onReplay).toHaveBeenCalledWith('evt_1')
    app.stdin.write('f')
    await until(app, 'view: charges')
    expect(frame(app)).not.toContain('withdrawal.paid')
    app.stdin.write('q')
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalled(), { interval: 10 })
  })

  it('shows withdrawal, split and product events as what they are', async () => {
    const feed = new ListenFeed()
    const app = mount(feed)
    const add = (type: string, data: object) => {
      const body = Buffer.from(JSON.stringify({ id: `evt_${type}`, type, createdAt: '2026-11-22T12:00:00Z', environment: 'live', data }))
      const d = delivery(type, { body, chargeId: undefined })
      feed.add({ ...d, summary: summarizeEvent(body) })
    }
    add('withdrawal.paid', { withdrawal: { id: 'wd_123', status: 'paid', pix: { endToEndId: 'E2E999' } } })
    add('charge.split.completed', {
      charge: {
        id: CHARGE,
        split: [
          { txId: 'tx_abcdef123456', amountInCents: 700 },
          { txId: 'tx_2', amountInCents: 800 },
        ],
      },
    })
    add('product.paid', { productPayment: { product: 'Ebook', valueInCents: 4990, netValueInCents: 4700, buyerEmail: 'ana@example.com' } })
    await until(app, 'product.paid')
    const f = frame(app)
    expect(f).toContain('withdrawal wd_123 paid e2e E2E999')
    expect(f).toContain('split: 2 destinations')
    expect(f).toContain('product Ebook R$ 49,90 (net R$ 47,00) ana@example.com')
  })

  it('shows control characters from a delivery as visible escapes, never sends them to the terminal', async () => {
    const feed = new ListenFeed()
    const app = mount(feed, { skipVerify: true })
    const type = 'product.paid\u001b[2J'
    const body = Buffer.from(JSON.stringify({ id: 'evt_\u001b]0;pwned\u0007', type, data: { productPayment: { product: 'Ebook\u001b[31mRED', buyerEmail: 'a\u009b2Jb@x' } } }))
    const d = delivery(type, { body, chargeId: undefined, eventId: 'evt_\u001b]0;pwned\u0007', headers: { 'x-svc-event-type': type } })
    feed.add({ ...d, summary: summarizeEvent(body), skipVerify: true })
    await until(app, 'product.paid')
    app.stdin.write('\r')
    await until(app, 'headers')
    const all = app.frames.join('')
    expect(all).toContain('product.paid\\x1b[2J')
    expect(all).toContain('Ebook\\x1b[31mRED')
    expect(all).toContain('a\\x9b2Jb@x')
    expect(all).toContain('x-svc-event-type: product.paid\\x1b[2J')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal control sequences are the point
    expect(all).not.toMatch(/\u001b\[2J|\u001b\]0|\u009b|\u0007/)
  })

  describe('fits the terminal', () => {
    /** Two charges paid then settled, each event confirmed while the API is already a step ahead. */
    async function busyFeed() {
      const second = 'beef'.padEnd(24, '0')
      const states: Record<string, string> = { [CHARGE]: 'settled', [second]: 'settled' }
      const feed = new ListenFeed({ confirmer: api(states) })
      for (let i = 0; i < 20; i++) feed.add(delivery('charge.test', { chargeId: undefined }))
      for (const id of [CHARGE, second]) {
        for (const type of ['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled']) feed.add(delivery(type, {}, id))
      }
      await feed.settled()
      return feed
    }
    const lines = (app: Mounted) => (app.lastFrame() ?? '').split('\n')
    const registration = "registered as the sandbox's test webhook URL · verifying with whsec_…52be"

    for (const [columns, rows] of [
      [120, 40],
      [80, 24],
    ] as const) {
      it(`at ${columns}×${rows}: no line wraps, the frame stays below the last row, and the verdicts stay on their rows`, async () => {
        const feed = await busyFeed()
        const app = mount(feed, { size: [columns, rows], registration })
        await until(app, 'charge.settled')
        app.stdin.write('\u001B[B') // the paid_pending_settlement before the newest: confirmed, and the API says it is now settled
        await vi.waitFor(() => expect(lines(app).find((l) => l.startsWith('›'))).toContain('charge.paid_pending_settlement'), { interval: 10 })
        const shown = lines(app)
        for (const l of shown) expect([...l].length, l).toBeLessThanOrEqual(columns)
        expect(shown.length).toBeLessThan(rows)
        const selected = shown.find((l) => l.startsWith('›'))!
        expect(selected).toMatch(columns >= 120 ? /✔ confirmed \(now settled\)$/ : /✔ now settled$/)
        expect(shown.find((l) => l.startsWith('beef00…0000'))).toMatch(columns >= 120 ? /● settled/ : /●settled/)
        expect(shown[1]).toBe(registration)
        expect(shown[shown.length - 1]).toMatch(/^↑\/↓ select · Enter details/)
        app.stdin.write('\r')
        await until(app, 'x-svc-event-type')
        for (const l of lines(app)) expect([...l].length, l).toBeLessThanOrEqual(columns)
        expect(lines(app).length).toBeLessThan(rows)
      })
    }

    it('at 60×30: the header keeps both addresses, the lanes their amounts, the key line "q quit" (issue 29 item 21)', async () => {
      const feed = await busyFeed()
      const app = mount(feed, { size: [60, 30], registration })
      await until(app, 'charge.settled')
      const shown = lines(app)
      for (const l of shown) expect([...l].length, l).toBeLessThanOrEqual(60)
      expect(shown.length).toBeLessThan(30)
      expect(shown[0]).toMatch(/TEST .*127\.0\.0\.1:4242\/ → .*localhost:3000\/$/)
      expect(shown.find((l) => l.startsWith('beef00…0000'))).toContain('R$ 15,00')
      expect(shown.find((l) => l.startsWith('c0ffee…0000'))).toContain('R$ 15,00')
      expect(shown.find((l) => l.includes('deliveries'))).toMatch(/^26 deliveries · 26 forwarded/)
      expect(shown.at(-1)).toMatch(/· q quit$/)
      app.stdin.write('\r')
      await until(app, 'x-svc-event-type')
      for (const l of lines(app)) expect([...l].length, l).toBeLessThanOrEqual(60)
      expect(lines(app).at(-1)).toMatch(/· q quit$/)
    })

    it('shows what reached stderr as its last status lines, never inside the rows', async () => {
      const status = new StatusLog()
      const feed = await busyFeed()
      const app = renderAt(<ListenApp feed={feed} listening="http://127.0.0.1:4242/" forward="http://localhost:3000/" skipVerify={false} onReplay={async () => ''} onQuit={() => {}} status={status} />, 80, 24)
      mounted.push(app)
      status.write('[svc] GET /v1/charges/c0ffee 200 3ms req_1\n[svc] GET /v1/charges/beef 200 2ms req_2\n')
      await until(app, 'req_2')
      const shown = lines(app)
      expect(shown.slice(-3, -1)).toEqual(['[svc] GET /v1/charges/c0ffee 200 3ms req_1', '[svc] GET /v1/charges/beef 200 2ms req_2'])
      expect(shown.length).toBeLessThan(24)
    })
  })

  it('keeps memory bounded however many deliveries arrive', () => {
    const feed = new ListenFeed({ maxDeliveries: 50, maxLanes: 5 })
    for (let i = 0; i < 500; i++) feed.add(delivery('charge.awaiting_payment', {}, i.toString(16).padStart(24, '0')))
    const s = feed.getSnapshot()
    expect(s.deliveries).toHaveLength(50)
    expect(s.lanes).toHaveLength(5)
    expect(s.counts.total).toBe(500)
  })

  it("one clock with charges watch: a lane's time is the event's own (the service's), a row's is its arrival; one date format (issue 29 item 21)", async () => {
    const feed = new ListenFeed()
    // Sent by the service two days before this listener got it (a retry after a long outage).
    const late = delivery('charge.settled', { receivedAt: '2026-11-24T12:00:00.000Z' })
    feed.add(late)
    feed.add(delivery('charge.awaiting_payment', { receivedAt: '2026-11-24T12:00:05.000Z' }, 'beef'.padEnd(24, '0')))
    const state = feed.getSnapshot()
    expect(state.lanes.find((l) => l.chargeId === CHARGE)!.steps.at(-1)!.at).toBe('2026-11-22T12:00:00.000Z')
    const app = mount(feed, { size: [140, 30] })
    await until(app, 'charge.settled')
    const shown = (app.lastFrame() ?? '').split('\n')
    // Both lanes' events were created on 22/11 (the helper's createdAt); the service was last seen that day.
    expect(shown.find((l) => l.startsWith('c0ffee…0000'))).toMatch(/R\$ 15,00 \d\d:\d\d:\d\d/)
    // The rows: arrivals, on this machine's clock.
    expect(shown.find((l) => l.includes('charge.settled'))).toContain(clockTime('2026-11-24T12:00:00.000Z'))
    app.stdin.write('\u001B[B')
    app.stdin.write('\r')
    await until(app, 'x-svc-event-type')
    // The details box says when in the same format (the body below is the raw bytes, ISO times and all).
    const head = (app.lastFrame() ?? '').split('\n').find((l) => l.includes('received 1× here'))!
    expect(head).toContain(`charge.settled · ${clockTime('2026-11-24T12:00:00.000Z')} · received 1× here`)
    expect(head).not.toMatch(/\d{4}-\d\d-\d\dT/)
  })
})
