import { describe, expect, it } from 'vitest'
import { createSpinner } from '../../../src/lib/output/spinner.js'
import { testIO } from '../../helpers/test-io.js'

describe('createSpinner', () => {
  it('writes nothing at all when stderr is not a terminal', () => {
    const { io: piped, out, err } = testIO()
    const s = createSpinner(piped, 'Waiting')
    s.update('still waiting')
    s.stop('done')
    expect({ out: out(), err: err() }).toEqual({ out: '', err: '' })
  })

  it('on a terminal draws on stderr only, and erases its line when stopped', () => {
    const { io: tty, out, err } = testIO({ tty: true })
    const s = createSpinner(tty, 'Waiting for settled')
    s.update('Waiting for settled · paid_pending_settlement')
    s.stop()
    expect(out()).toBe('')
    expect(err()).toContain('Waiting for settled · paid_pending_settlement')
    expect(err().endsWith('\r\u001B[2K')).toBe(true)
  })
})
