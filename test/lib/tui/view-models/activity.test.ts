import { describe, expect, it } from 'vitest'
import { ActivityBook, withdrawalColumns } from '../../../../src/lib/tui/view-models/activity.js'

describe('ActivityBook: the withdrawal and product-sale lanes', () => {
  it('draws a withdrawal processing then paid, even when the paid event arrives first', () => {
    const book = new ActivityBook()
    book.apply('withdrawal', 'wd_1', { status: 'paid', at: '2026-11-22T12:00:05Z', detail: 'E2E123' })
    book.apply('withdrawal', 'wd_1', { status: 'processing', at: '2026-11-22T12:00:00Z', amountInCents: 5000 })
    const [lane] = book.list()
    expect(lane!.steps.map((s) => s.status)).toEqual(['processing', 'paid'])
    // A late "processing" does not undo the end it reached.
    expect(lane!.current).toBe('paid')
    expect([lane!.amountInCents, lane!.detail]).toEqual([5000, 'E2E123'])
    expect(withdrawalColumns(lane!)).toEqual(['processing', 'paid'])
  })

  it('a failed withdrawal ends in a failed column', () => {
    const book = new ActivityBook()
    book.apply('withdrawal', 'wd_2', { status: 'processing', at: '2026-11-22T12:00:00Z' })
    book.apply('withdrawal', 'wd_2', { status: 'failed', at: '2026-11-22T12:00:09Z' })
    expect(withdrawalColumns(book.list()[0]!)).toEqual(['processing', 'failed'])
  })

  it('keeps the lanes updated last, newest first, at most max', () => {
    const book = new ActivityBook(2)
    book.apply('product', 'ps_1', { status: 'paid', at: '2026-11-22T12:00:00Z' })
    book.apply('withdrawal', 'wd_1', { status: 'processing', at: '2026-11-22T12:00:01Z' })
    book.apply('product', 'ps_1', { status: 'paid', at: '2026-11-22T12:00:02Z' })
    book.apply('product', 'ps_2', { status: 'paid', at: '2026-11-22T12:00:03Z' })
    expect(book.list().map((l) => l.id)).toEqual(['ps_2', 'ps_1'])
  })
})
