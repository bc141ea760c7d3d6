import { afterEach, describe, expect, it } from 'vitest'
import { type ShutdownSignal, shutdownSignal, untilStopSignal } from '../../../src/lib/input/shutdown.js'

// process.emit calls the listeners only: Node's default action (ending the process) does not run.
const open: ShutdownSignal[] = []
afterEach(() => {
  for (const s of open.splice(0)) s.dispose()
})

describe('stopping a long-running command', () => {
  it('the first of SIGINT, SIGTERM or SIGHUP aborts, and is the one remembered', () => {
    const s = shutdownSignal()
    open.push(s)
    expect(s.signal.aborted).toBe(false)
    process.emit('SIGHUP', 'SIGHUP')
    process.emit('SIGINT', 'SIGINT')
    expect(s.signal.aborted).toBe(true)
    expect(s.reason).toBe('SIGHUP')
  })

  it('a detached sandbox outlives its terminal: no stop on SIGHUP', () => {
    const s = shutdownSignal({ hangup: false })
    open.push(s)
    const before = process.listenerCount('SIGHUP')
    process.emit('SIGTERM', 'SIGTERM')
    expect(s.reason).toBe('SIGTERM')
    expect(process.listenerCount('SIGHUP')).toBe(before)
  })

  it('leaves no listener behind once disposed', () => {
    const counts = () => ['SIGINT', 'SIGTERM', 'SIGHUP'].map((sig) => process.listenerCount(sig))
    const before = counts()
    shutdownSignal().dispose()
    expect(counts()).toEqual(before)
  })

  it('untilStopSignal resolves with the signal that came', async () => {
    const waiting = untilStopSignal()
    process.emit('SIGTERM', 'SIGTERM')
    expect(await waiting).toBe('SIGTERM')
  })
})
