import { describe, expect, it, vi } from 'vitest'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { runWatchView } from '../../../../src/lib/tui/mount/run-watch-view.js'
import { ChargeWatcher } from '../../../../src/lib/tui/view-models/charge-watcher.js'
import { Keys, Screen } from '../../../helpers/render-at.js'
import { fakeApi } from '../../../helpers/watch-api.js'

describe('the charges watch view on a (fake) terminal', () => {
  it('draws the watched charges and returns when the user presses q', async () => {
    const watcher = new ChargeWatcher({ client: fakeApi({ ['a'.repeat(24)]: 'awaiting_payment' }) })
    await watcher.poll()
    const stdout = new Screen(100, 30)
    const stdin = new Keys()
    const running = runWatchView({
      watcher,
      scope: 'the 10 newest charges',
      environment: 'test',
      intervalMs: 2000,
      stdout: stdout as unknown as NodeJS.WritableStream,
      stderr: new Screen(100, 30) as unknown as NodeJS.WritableStream,
      stdin: stdin as unknown as NodeJS.ReadableStream,
      stop: new AbortController().signal,
    })
    await vi.waitFor(() => expect(stripAnsi(stdout.frames.join(''))).toContain('awaiting_payment'), { interval: 10 })
    stdin.write('q')
    await running
  })
})
