import { describe, expect, it, vi } from 'vitest'
import { StatusLog } from '../../../../src/lib/tui/view-models/status-log.js'

describe('StatusLog: stderr text while a live view owns the screen', () => {
  it('shows complete lines only, joining writes cut mid-line, and tells the view of each new line', () => {
    const log = new StatusLog()
    const changed = vi.fn()
    log.subscribe(changed)
    log.write('[svc] GET /v1/charges 2')
    expect(log.getSnapshot()).toEqual([])
    expect(changed).not.toHaveBeenCalled()
    log.write('00 3ms\n\n')
    expect(log.getSnapshot()).toEqual(['[svc] GET /v1/charges 200 3ms'])
    expect(changed).toHaveBeenCalledTimes(1)
  })

  it('keeps the last lines only, and on drain prints them all, a half line included, saying how many were not kept', () => {
    const log = new StatusLog(2)
    log.write('one\ntwo\nthree\nfour\nhalf')
    expect(log.getSnapshot()).toEqual(['three', 'four'])
    expect(log.drain()).toBe('(2 earlier lines not kept)\nthree\nfour\nhalf\n')
    expect(log.drain()).toBe('')
  })

  it('stops telling a view that unsubscribed', () => {
    const log = new StatusLog()
    const changed = vi.fn()
    log.subscribe(changed)()
    log.write('line\n')
    expect(changed).not.toHaveBeenCalled()
  })
})
