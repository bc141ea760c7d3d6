import { describe, expect, it } from 'vitest'
import { type FrameRow, fitLine, plain } from '../../../../src/lib/tui/text/fit.js'
import { ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import { type ListenFrameInput, listenFrame } from '../../../../src/lib/tui/view-models/listen-frame.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { chargeEvent } from '../../../helpers/webhooks.js'

const keys = (rows: FrameRow[]) => rows.map((r) => r.key)
const text = (row: FrameRow | undefined, width = 100) => (row?.kind === 'text' ? row.text : row?.kind === 'fit' ? plain(fitLine(row.segments, width)) : row?.kind)

function frame(feed: ListenFeed, over: Partial<ListenFrameInput> = {}) {
  return listenFrame({
    state: feed.getSnapshot(),
    listening: 'http://127.0.0.1:4242/',
    forward: 'http://localhost:3000/',
    environment: 'test',
    skipVerify: false,
    columns: 100,
    height: 30,
    filter: 'all',
    details: false,
    statusLines: [],
    ...over,
  })
}

/** A feed that heard `n` deliveries of charge events, one charge each. */
function heard(n: number): ListenFeed {
  const feed = new ListenFeed({})
  for (let i = 1; i <= n; i++) {
    const charge = String(i).padStart(24, '0')
    feed.add(
      heardDelivery({ seq: i, eventId: `evt_${i}`, type: 'charge.paid_pending_settlement', body: Buffer.from(chargeEvent(`evt_${i}`, 'charge.paid_pending_settlement', charge)), forwardStatus: 200, latencyMs: 3 }),
    )
  }
  return feed
}

describe("webhooks listen's frame as rows", () => {
  it('before any delivery: the header, the registration, the counts, both sections saying they wait, and the keys', () => {
    const feed = new ListenFeed({})
    feed.setRegistration('registering…')
    const f = frame(feed)
    expect(keys(f.rows)).toEqual(['header', 'registration', 'counts', 'gap:charges', 'charges', 'no-charges', 'gap:deliveries', 'deliveries', 'no-deliveries', 'keys'])
    expect(text(f.rows[0])).toBe(' TEST  listening http://127.0.0.1:4242/ → forwarding http://localhost:3000/')
    expect(f.rows[1]).toEqual({ kind: 'text', text: 'registering…', style: { dim: true }, key: 'registration' })
    expect(text(f.rows[2])).toBe('0 deliveries · 0 forwarded · 0 failed · 0 rejected · 0 duplicates · 0 filtered · view: all')
    expect(text(f.rows.at(-1))).toBe('↑/↓ select · Enter details · r replay · f filter (all) · q quit')
    expect(f.visible).toEqual([])
  })

  it('gives each charge a lane and each delivery a row, and shouts --skip-verify', () => {
    const f = frame(heard(2), { skipVerify: true })
    expect(keys(f.rows)).toContain('skip-verify')
    expect(text(f.rows.find((r) => r.key === 'skip-verify'))).toContain('SIGNATURES ARE NOT CHECKED')
    expect(keys(f.rows).filter((k) => k?.startsWith('lane:'))).toHaveLength(2)
    const deliveries = f.rows.filter((r) => r.key?.startsWith('delivery:'))
    expect(deliveries).toHaveLength(2)
    expect(text(deliveries[0])).toContain('charge.paid_pending_settlement')
    expect(text(deliveries[0])).toContain('→ 200')
  })

  it('stays below the terminal height, scrolling the deliveries around the selected one', () => {
    const feed = heard(30)
    const newest = feed.getSnapshot().deliveries[0]!.seq
    const f = frame(feed, { height: 20, selected: 5, statusLines: ['one', 'two', 'three'] })
    expect(f.rows.length).toBeLessThanOrEqual(19)
    expect(f.visible[f.index]!.seq).toBe(5)
    expect(keys(f.rows)).toContain('delivery:5')
    expect(keys(f.rows)).not.toContain(`delivery:${newest}`)
    expect(f.rows.filter((r) => r.key?.startsWith('status:')).map((r) => text(r))).toEqual(['two', 'three'])
  })

  it('replaces the lanes with the details box, the view’s own part, for the selected delivery', () => {
    const f = frame(heard(3), { details: true, selected: 2 })
    expect(keys(f.rows).some((k) => k?.startsWith('lane:'))).toBe(false)
    expect(f.rows.find((r) => r.kind === 'other')).toMatchObject({ id: 'details', key: 'details' })
    expect(f.details?.seq).toBe(2)
  })

  it('lets the filter through only what it names, and shows notices in the frame', () => {
    const feed = heard(2)
    feed.notice('replayed evt_1 → 200')
    const f = frame(feed, { filter: 'problems' })
    expect(f.visible).toEqual([])
    expect(keys(f.rows)).toContain('no-deliveries')
    expect(f.rows.find((r) => r.key === 'notice:0')).toEqual({ kind: 'text', text: 'replayed evt_1 → 200', style: { color: 'cyan' }, key: 'notice:0' })
    expect(text(f.rows.at(-1))).toContain('f filter (problems)')
  })
})
