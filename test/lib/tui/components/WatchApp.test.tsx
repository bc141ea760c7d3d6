import { render } from 'ink-testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Charge } from '../../../../src/lib/contract/schemas.js'
import { ChargeWatcher } from '../../../../src/lib/tui/view-models/charge-watcher.js'
import { WatchApp } from '../../../../src/lib/tui/components/WatchApp.js'
import { LANE_LEGEND } from '../../../../src/lib/tui/text/lane-cells.js'
import { renderAt } from '../../../helpers/render-at.js'
import { charge, fakeApi } from '../../../helpers/watch-api.js'
import { clockTime } from '../../../../src/lib/tui/text/format.js'

const A = 'a'.repeat(24)
const B = 'b'.repeat(24)

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

describe('WatchApp', () => {
  it('fits 80×24 and 120×40: one header, lanes that never wrap, details included, the frame below the last row', async () => {
    const states: Record<string, string> = {}
    for (let i = 0; i < 30; i++) states[i.toString(16).padStart(24, '0')] = ['awaiting_payment', 'paid_pending_settlement', 'settled', 'expired', 'refunded'][i % 5]!
    const w = new ChargeWatcher({ client: fakeApi(states), recent: 30 })
    await w.poll()
    for (const [columns, rows] of [
      [80, 24],
      [120, 40],
    ] as const) {
      const app = renderAt(<WatchApp watcher={w} scope="the 30 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, columns, rows)
      mounted.push(app)
      await vi.waitFor(() => expect(app.lastFrame()).toContain('refunded'), { interval: 10 })
      const check = () => {
        const lines = (app.lastFrame() ?? '').split('\n')
        for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(columns)
        expect(lines.length).toBeLessThan(rows)
        expect(lines.filter((l) => l.includes('watching'))).toHaveLength(1)
        expect(lines[lines.length - 1]).toMatch(/^↑\/↓ select/)
      }
      check()
      app.stdin.write('\r')
      await vi.waitFor(() => expect(app.lastFrame()).toContain('updated'), { interval: 10 })
      check()
    }
  })

  it('draws a lane per charge as polls arrive, shows details on Enter and quits on q', async () => {
    const states: Record<string, string> = { [A]: 'awaiting_payment', [B]: 'expired' }
    const w = new ChargeWatcher({ client: fakeApi(states) })
    const onQuit = vi.fn()
    const app = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={onQuit} />, 140, 24)
    mounted.push(app)
    const frame = () => (app.lastFrame() ?? '').replace(/\s+/g, ' ')
    expect(frame()).toContain('loading…')
    await w.poll()
    await vi.waitFor(() => expect(frame()).toContain('● awaiting_payment'), { interval: 10 })
    expect(frame()).toContain('● expired')
    states[A] = 'settled'
    await w.poll()
    await vi.waitFor(() => expect(frame()).toContain('● settled'), { interval: 10 })
    expect(frame()).toContain('poll #2')
    app.stdin.write('\r')
    await vi.waitFor(() => expect(frame()).toContain('blockchain tx 0xfeedbeef'), { interval: 10 })
    app.stdin.write('q')
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalled(), { interval: 10 })
  })

  it('one drawing and one legend with the listener: past states are ● (reached), a failed charge passed awaiting_payment (issue 16 item 11)', async () => {
    const states: Record<string, string> = { [A]: 'settled', [B]: 'failed' }
    const w = new ChargeWatcher({ client: fakeApi(states) })
    const app = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 140, 24)
    mounted.push(app)
    const frame = () => (app.lastFrame() ?? '').replace(/\s+/g, ' ')
    await w.poll()
    await vi.waitFor(() => expect(frame()).toContain('● settled'), { interval: 10 })
    expect(frame()).toContain('● created ─ ● awaiting_payment ─ ● paid_pending_settlement ─ ● settled')
    expect(frame()).toContain('● created ─ ● awaiting_payment ─ ○ paid_pending_settlement ─ ○ settled ─ ● failed')
    expect(frame().replace(LANE_LEGEND, '')).not.toContain('◌')
    expect(frame()).toContain(LANE_LEGEND)
  })

  it('states passed between two polls are drawn reached, not "not reached"', async () => {
    const states: Record<string, string> = { [A]: 'awaiting_payment' }
    const w = new ChargeWatcher({ client: fakeApi(states) })
    const app = render(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />)
    mounted.push(app)
    const frame = () => (app.lastFrame() ?? '').replace(/\s+/g, ' ')
    await w.poll()
    states[A] = 'settled'
    await w.poll()
    await vi.waitFor(() => expect(frame()).toContain('● settled'), { interval: 10 })
    expect(frame()).toContain('● paid_pending_settlement')
  })

  it('a split charge keeps its amount in its lane (issue 24 item 7)', async () => {
    const split = { status: 'completed', destinations: [{ txId: 'tx1' }, { txId: 'tx2' }] }
    const api = {
      getCharge: vi.fn(),
      listCharges: vi.fn(async () => ({ data: [{ ...charge(A, 'settled'), amount: { ...charge(A, 'settled').amount, grossInCents: 4990 }, split } as Charge], hasMore: false })),
    }
    const w = new ChargeWatcher({ client: api })
    await w.poll()
    expect(w.getSnapshot().lanes[0]).toMatchObject({ grossInCents: 4990, split: { status: 'completed', parts: 2 } })
    const app = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 180, 24)
    mounted.push(app)
    await vi.waitFor(() => expect(app.lastFrame()).toContain('2 parts'), { interval: 10 })
    expect(app.lastFrame()).toContain('R$ 49,90')
  })

  it('one clock: the poll time is on the service clock, as the lanes are, and says so when it is off the local one (issue 24 item 15)', async () => {
    const local = new Date('2026-11-22T12:05:33Z')
    const service = new Date('2026-11-22T16:05:33Z')
    const api = { ...fakeApi({ [A]: 'settled' }), serverNow: () => service }
    const w = new ChargeWatcher({ client: api, now: () => local })
    await w.poll()
    expect(w.getSnapshot().lastPollAt).toBe(service.toISOString())
    expect(w.getSnapshot().serviceClock).toBe(true)
    const app = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 120, 24)
    mounted.push(app)
    await vi.waitFor(() => expect(app.lastFrame()).toContain('poll #1'), { interval: 10 })
    expect(app.lastFrame()).toContain(`at ${clockTime(service.toISOString())} (service clock)`)

    const same = new ChargeWatcher({ client: { ...fakeApi({ [A]: 'settled' }), serverNow: () => local }, now: () => local })
    await same.poll()
    expect(same.getSnapshot().serviceClock).toBe(false)
  })

  it("shows a split charge's outcome whole at 120 columns, and its division in the details (issue 29 item 15)", async () => {
    const split = {
      status: 'completed',
      completedAt: '2026-11-22T12:01:00Z',
      destinations: [
        { wallet: '0x1111111111111111111111111111111111111111', shareBps: 7000, amountInCents: 1004, txId: '0xaaaa000000000000000000000000000000000000000000000000000000000001' },
        { wallet: '0x2222222222222222222222222222222222222222', shareBps: 3000, amountInCents: 431, txId: '0xbbbb000000000000000000000000000000000000000000000000000000000002' },
      ],
    }
    const settled = charge(A, 'settled')
    const amount = { ...settled.amount, grossInCents: 123_456 }
    const api = { getCharge: vi.fn(), listCharges: vi.fn(async () => ({ data: [{ ...settled, amount, split } as Charge], hasMore: false })) }
    const w = new ChargeWatcher({ client: api })
    await w.poll()
    const app = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 120, 30)
    mounted.push(app)
    await vi.waitFor(() => expect(app.lastFrame()).toContain('aaaaaa…aaaa'), { interval: 10 })
    const lane = (app.lastFrame() ?? '').split('\n').find((l) => l.includes('aaaaaa…aaaa'))!
    expect(lane).toMatch(/split ✓ 2 parts\s*$/)
    expect(lane).toContain('R$ 1.234,56')
    // Narrow, the states' names give way before the amount and the outcome.
    const narrow = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 60, 30)
    mounted.push(narrow)
    await vi.waitFor(() => expect(narrow.lastFrame()).toContain('aaaaaa…aaaa'), { interval: 10 })
    expect((narrow.lastFrame() ?? '').split('\n').find((l) => l.includes('aaaaaa…aaaa'))).toMatch(/R\$ 1\.234,56 .*split ✓/)
    app.stdin.write('\r')
    await vi.waitFor(() => expect(app.lastFrame()).toContain('updated'), { interval: 10 })
    const details = app.lastFrame() ?? ''
    expect(details).toMatch(/split\s+completed at .+, 2 destinations/)
    expect(details).toMatch(/70%\s+R\$ 10,04 → 0x11111111…1111 tx 0xaaaa…0001/)
    expect(details).toMatch(/30%\s+R\$ 4,31 → 0x22222222…2222 tx 0xbbbb…0002/)
  })

  it('at 60 columns: the header, the amounts and "q quit" stay; an old charge is dated; the details show no raw ISO time (issue 29 item 21)', async () => {
    // The service's clock says two days later than the charge's last change.
    const service = new Date('2026-11-24T12:00:00Z')
    const old = { ...charge(A, 'settled'), updatedAt: '2026-11-22T12:00:00Z', settlement: { delayHours: 24, paidAt: '2026-11-21T12:00:00Z', settledAt: '2026-11-22T12:00:00Z' } } as Charge
    const fresh = { ...charge(B, 'awaiting_payment'), updatedAt: service.toISOString() } as Charge
    const api = { getCharge: vi.fn(), listCharges: vi.fn(async () => ({ data: [fresh, old], hasMore: false })), serverNow: () => service }
    const w = new ChargeWatcher({ client: api, now: () => service })
    await w.poll()
    const app = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 60, 30)
    mounted.push(app)
    await vi.waitFor(() => expect(app.lastFrame()).toContain('aaaaaa…aaaa'), { interval: 10 })
    const lines = (app.lastFrame() ?? '').split('\n')
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(60)
    expect(lines[0]).toMatch(/TEST .*the 10 newest charges/)
    expect(lines[0]).not.toContain('…')
    const laneA = lines.find((l) => l.includes('aaaaaa…aaaa'))!
    const laneB = lines.find((l) => l.includes('bbbbbb…bbbb'))!
    expect(laneA).toContain('R$ 15,00')
    expect(laneB).toContain('R$ 15,00')
    expect(lines.at(-1)).toContain('q quit')
    app.stdin.write('\u001B[B')
    app.stdin.write('\r')
    await vi.waitFor(() => expect(app.lastFrame()).toContain('updated'), { interval: 10 })
    const details = app.lastFrame() ?? ''
    expect(details).not.toMatch(/\d{4}-\d\d-\d\dT/)
    expect(details).toMatch(/settled\s+22\/11 \d\d:\d\d/)
    expect(details).toMatch(/paid\s+21\/11 \d\d:\d\d/)
    for (const l of details.split('\n')) expect([...l].length, l).toBeLessThanOrEqual(60)
    // Where the lanes have room for their times: the old charge's carries its date, today's is a
    // time of day, both on the service's clock.
    const at80 = renderAt(<WatchApp watcher={w} scope="the 10 newest charges" environment="test" intervalMs={2000} onQuit={() => {}} />, 80, 30)
    mounted.push(at80)
    await vi.waitFor(() => expect(at80.lastFrame()).toContain('aaaaaa…aaaa'), { interval: 10 })
    const wide = (at80.lastFrame() ?? '').split('\n')
    expect(wide.find((l) => l.includes('aaaaaa…aaaa'))).toMatch(/R\$ 15,00 22\/11 \d\d:\d\d$/)
    expect(wide.find((l) => l.includes('bbbbbb…bbbb'))).toMatch(new RegExp(`R\\$ 15,00 ${clockTime(service.toISOString())}$`))
  })
})
