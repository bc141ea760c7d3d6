/**
 * The web panel's live updates (web/live-stream.ts): a browser that opened `/panel/events` gets
 * one `change` event for a burst of changes (pages refetch at most ~8 times a second), a
 * keep-alive comment every 15 s, and its stream ends when the panel closes.
 */
import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LiveStream } from '../../../../src/lib/sandbox/web/live-stream.js'

function browser() {
  const req = new EventEmitter()
  const res = {
    head: undefined as unknown,
    written: '',
    ended: false,
    writeHead(status: number, headers: unknown) {
      this.head = { status, headers }
    },
    write(s: string) {
      this.written += s
    },
    end() {
      this.ended = true
    },
  }
  return { req, res, open: (live: LiveStream) => live.open(req as unknown as IncomingMessage, res as unknown as ServerResponse) }
}

const changes = (text: string) => text.split('event: change\ndata: 1\n\n').length - 1

describe('the panel live stream', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('answers as an event stream and says it is connected', () => {
    const live = new LiveStream()
    const b = browser()
    b.open(live)
    expect(b.res.head).toEqual({ status: 200, headers: expect.objectContaining({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' }) })
    expect(b.res.written).toBe(': connected\n\n')
    live.close()
  })

  it('sends one change for a burst of changes, to every open page', () => {
    const live = new LiveStream()
    const a = browser()
    const b = browser()
    a.open(live)
    b.open(live)
    live.changed()
    live.changed()
    live.changed()
    expect(changes(a.res.written)).toBe(0)
    vi.advanceTimersByTime(120)
    expect([changes(a.res.written), changes(b.res.written)]).toEqual([1, 1])
    live.changed()
    vi.advanceTimersByTime(120)
    expect(changes(a.res.written)).toBe(2)
    live.close()
  })

  it('keeps idle pages open with a comment every 15 s, and forgets a page that went away', () => {
    const live = new LiveStream()
    const a = browser()
    const b = browser()
    a.open(live)
    b.open(live)
    b.req.emit('close')
    vi.advanceTimersByTime(15_000)
    expect(a.res.written).toContain(': keep-alive\n\n')
    expect(b.res.written).not.toContain('keep-alive')
    live.changed()
    vi.advanceTimersByTime(120)
    expect(changes(b.res.written)).toBe(0)
    live.close()
  })

  it('ends every stream when the panel closes, and sends nothing after', () => {
    const live = new LiveStream()
    const a = browser()
    a.open(live)
    live.changed()
    live.close()
    expect(a.res.ended).toBe(true)
    vi.advanceTimersByTime(20_000)
    expect(a.res.written).toBe(': connected\n\n')
  })
})
