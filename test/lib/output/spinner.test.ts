import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createIO } from '../../../src/lib/output/io.js'
import { createSpinner } from '../../../src/lib/output/spinner.js'

function io(tty: boolean) {
  const out = new PassThrough()
  const err = new PassThrough()
  const text = { out: '', err: '' }
  out.on('data', (c) => (text.out += c))
  err.on('data', (c) => (text.err += c))
  return { io: createIO({ stdout: out, stderr: err, isStdoutTTY: tty, isStderrTTY: tty, env: {} }), text }
}

describe('createSpinner', () => {
  it('writes nothing at all when stderr is not a terminal', () => {
    const { io: piped, text } = io(false)
    const s = createSpinner(piped, 'Waiting')
    s.update('still waiting')
    s.stop('done')
    expect(text).toEqual({ out: '', err: '' })
  })

  it('on a terminal draws on stderr only, and erases its line when stopped', () => {
    const { io: tty, text } = io(true)
    const s = createSpinner(tty, 'Waiting for settled')
    s.update('Waiting for settled · paid_pending_settlement')
    s.stop()
    expect(text.out).toBe('')
    expect(text.err).toContain('Waiting for settled · paid_pending_settlement')
    expect(text.err.endsWith('\r\u001B[2K')).toBe(true)
  })
})
