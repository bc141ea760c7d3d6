import { Text } from 'ink'
import { describe, expect, it, vi } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { CLEAR_SCREEN, captureWrites, clearOnNarrowing, runUntilExit } from '../../../../src/lib/tui/mount/run-view.js'
import { StatusLog } from '../../../../src/lib/tui/view-models/status-log.js'
import { Keys, Screen } from '../../../helpers/render-at.js'

const streams = (columns = 80, rows = 24) => ({
  stdout: new Screen(columns, rows),
  stderr: new Screen(columns, rows),
  stdin: new Keys(),
})

describe('mounting a live view', () => {
  it('captures stderr into the status log while the view is up, then gives the stream back as it was', () => {
    const stderr = new Screen(80, 24)
    const own = stderr.write
    const log = new StatusLog()
    const restore = captureWrites(stderr as unknown as NodeJS.WritableStream, log)
    const done = vi.fn()
    stderr.write('warning: x\n', done)
    expect(stderr.frames).toEqual([])
    expect(log.getSnapshot()).toEqual(['warning: x'])
    restore()
    expect(stderr.write).toBe(own)
  })

  it('clears the screen when the terminal gets narrower, not when it gets wider', () => {
    const stdout = new Screen(100, 24)
    const stop = clearOnNarrowing(stdout as unknown as NodeJS.WritableStream)
    stdout.resize(120, 24)
    expect(stdout.frames).toEqual([])
    stdout.resize(70, 24)
    expect(stdout.frames).toEqual([CLEAR_SCREEN])
    stop()
    expect(stdout.listenerCount('resize')).toBe(0)
  })

  it('runs until stop fires, then prints what reached stderr meanwhile', async () => {
    const s = streams()
    const stop = new AbortController()
    const running = runUntilExit((status) => <Text>view up ({status.getSnapshot().length})</Text>, s as unknown as Parameters<typeof runUntilExit>[1], stop.signal)
    await vi.waitFor(() => expect(stripAnsi(s.stdout.frames.join(''))).toContain('view up'), { interval: 10 })
    s.stderr.write('[svc] GET /v1/account 200 2ms\n')
    expect(s.stderr.frames).toEqual([])
    stop.abort()
    await running
    expect(s.stderr.frames.join('')).toBe('[svc] GET /v1/account 200 2ms\n')
  })

  it('does not draw a view that was stopped before it started', async () => {
    const s = streams()
    const stop = new AbortController()
    stop.abort()
    await runUntilExit(() => <Text>never shown</Text>, s as unknown as Parameters<typeof runUntilExit>[1], stop.signal)
    expect(s.stderr.frames).toEqual([])
  })
})
