import { describe, expect, it } from 'vitest'
import { statesBefore } from '../../../../src/lib/domain/charge-states.js'
import { LaneBook, laneColumns } from '../../../../src/lib/tui/view-models/lanes.js'
import { LANE_LEGEND, laneCells } from '../../../../src/lib/tui/text/lane-cells.js'

const at = '2026-11-22T12:00:00Z'

describe('LaneBook', () => {
  it('follows a charge along the transition table and infers the states before the first one seen', () => {
    const book = new LaneBook()
    book.apply('c1', { status: 'paid_pending_settlement', at })
    const lane = book.get('c1')!
    expect(lane.steps.map((s) => [s.status, Boolean(s.inferred)])).toEqual([
      ['created', false],
      ['awaiting_payment', true],
      ['paid_pending_settlement', false],
    ])
    expect(book.apply('c1', { status: 'settled', at })).toEqual({ outOfOrder: false, changed: true })
    expect(book.get('c1')!.current).toBe('settled')
    expect(book.apply('c1', { status: 'settled', at }).changed).toBe(false)
  })

  it('flags an arrival that cannot follow the current state, and keeps the later state current', () => {
    const book = new LaneBook()
    book.apply('c1', { status: 'settled', at })
    expect(book.apply('c1', { status: 'awaiting_payment', at }).outOfOrder).toBe(true)
    expect(book.apply('c1', { status: 'expired', at }).outOfOrder).toBe(true)
    expect(book.get('c1')!.current).toBe('settled')
  })

  it('draws the happy path, then the other states a charge reached', () => {
    const book = new LaneBook()
    book.apply('c1', { status: 'awaiting_payment', at })
    book.apply('c1', { status: 'canceled', at })
    book.apply('c1', { status: 'paid_pending_settlement', at })
    expect(laneColumns(book.get('c1')!)).toEqual(['created', 'awaiting_payment', 'paid_pending_settlement', 'settled', 'canceled'])
    expect(book.get('c1')!.steps.every((s) => !s.outOfOrder)).toBe(true)
    expect(statesBefore('refunded')).toEqual(['created', 'awaiting_payment', 'paid_pending_settlement'])
  })

  it('keeps only the most recently updated lanes', () => {
    const book = new LaneBook(2)
    book.apply('a', { status: 'awaiting_payment', at })
    book.apply('b', { status: 'awaiting_payment', at })
    book.apply('a', { status: 'paid_pending_settlement', at })
    book.apply('c', { status: 'awaiting_payment', at })
    expect(book.list().map((l) => l.chargeId)).toEqual(['c', 'a'])
  })

  it('a charge first seen failed passed awaiting_payment (it died unpaid), marked ◌ by the listener (issue 16 item 11)', () => {
    const book = new LaneBook()
    book.apply('c1', { status: 'failed', at })
    expect(book.get('c1')!.steps.map((s) => [s.status, Boolean(s.inferred)])).toEqual([
      ['created', false],
      ['awaiting_payment', true],
      ['failed', false],
    ])
  })

  it('created, which no event announces, is drawn reached and never "event not received" (issue 24 item 14)', () => {
    const book = new LaneBook()
    book.apply('c1', { status: 'awaiting_payment', at, eventId: 'evt_1' })
    const cells = laneCells(book.get('c1')!)
    const full = cells[1]!.forms[0]!.map((p) => p.text).join('')
    expect(full).toContain('● created')
    expect(full).not.toContain('◌')
    expect(LANE_LEGEND).toContain('● reached')
  })
})
