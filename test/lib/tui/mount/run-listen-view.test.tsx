import { describe, expect, it, vi } from 'vitest'
import type { Charge } from '../../../../src/lib/contract/schemas.js'
import { stripAnsi } from '../../../../src/lib/output/color.js'
import { ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import { runListenView } from '../../../../src/lib/tui/mount/run-listen-view.js'
import { CLEAR_SCREEN } from '../../../../src/lib/tui/mount/run-view.js'
import { ChargeConfirmer } from '../../../../src/lib/webhooks/confirm.js'
import { chargeEvent } from '../../../helpers/webhooks.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { Keys, Screen } from '../../../helpers/render-at.js'

function delivery(n: number, type: string) {
  const chargeId = (n % 7).toString(16).padStart(24, '0')
  const body = Buffer.from(chargeEvent(`evt_${n}`, type, chargeId))
  return heardDelivery({ seq: n, receivedAt: new Date(Date.UTC(2026, 10, 22, 12, 0, n)).toISOString(), eventId: `evt_${n}`, type, chargeId, body, forwardStatus: 200, latencyMs: 3 })
}

describe('the listener view on a real (fake) terminal', () => {
  it('keeps stderr out of the frame while it is up, prints it after, and leaves the prompt on a line of its own', async () => {
    const stdout = new Screen(80, 24)
    const stderr = new Screen(80, 24)
    const feed = new ListenFeed({ confirmer: new ChargeConfirmer(async (id) => ({ id, status: 'settled', environment: 'test' }) as unknown as Charge) })
    for (let i = 1; i <= 40; i++) feed.add(delivery(i, i % 2 ? 'charge.awaiting_payment' : 'charge.paid_pending_settlement'))
    const stop = new AbortController()
    const ownWrite = stderr.write
    const running = runListenView({
      feed,
      listening: 'http://127.0.0.1:4242/',
      forward: 'http://localhost:3000/',
      skipVerify: false,
      onReplay: async () => '',
      stdout: stdout as unknown as NodeJS.WritableStream,
      stderr: stderr as unknown as NodeJS.WritableStream,
      stdin: new Keys() as unknown as NodeJS.ReadableStream,
      stop: stop.signal,
    })
    await vi.waitFor(() => expect(stripAnsi(stdout.frames.join(''))).toContain('charge.paid_pending_settlement'), { interval: 10 })
    stderr.write('[svc] GET /v1/charges/0000 200 3ms req_9\n')
    await vi.waitFor(() => expect(stripAnsi(stdout.frames.join(''))).toContain('req_9'), { interval: 10 })
    expect(stderr.frames).toEqual([])
    stop.abort()
    await running
    expect(stderr.write).toBe(ownWrite)
    expect(stderr.frames.join('')).toBe('[svc] GET /v1/charges/0000 200 3ms req_9\n')
    // The frame is shorter than the terminal, so Ink ends it with a newline: the shell prompt starts on a fresh line.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal control sequences are the point
    const screen = stdout.frames.join('').replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, '')
    expect(screen).toMatch(/q quit\n$/)
  })

  it('clears the screen when the terminal gets narrower, so the old frame does not stay wrapped above the new one (issue 16 item 9)', async () => {
    const stdout = new Screen(120, 24)
    const feed = new ListenFeed({})
    for (let i = 1; i <= 5; i++) feed.add(delivery(i, 'charge.awaiting_payment'))
    const stop = new AbortController()
    const running = runListenView({
      feed,
      listening: 'http://127.0.0.1:4242/',
      forward: 'http://localhost:3000/',
      skipVerify: false,
      onReplay: async () => '',
      stdout: stdout as unknown as NodeJS.WritableStream,
      stderr: new Screen(120, 24) as unknown as NodeJS.WritableStream,
      stdin: new Keys() as unknown as NodeJS.ReadableStream,
      stop: stop.signal,
    })
    await vi.waitFor(() => expect(stripAnsi(stdout.frames.join(''))).toContain('charge.awaiting_payment'), { interval: 10 })
    const before = stdout.frames.length
    stdout.resize(130, 24)
    expect(stdout.frames.slice(before).join('')).not.toContain(CLEAR_SCREEN)
    const mark = stdout.frames.length
    stdout.resize(70, 24)
    // The stale frame (old width) may come first; the screen is cleared after it, then the new frame is drawn.
    const cleared = () => stdout.frames.slice(mark).indexOf(CLEAR_SCREEN)
    await vi.waitFor(() => expect(stripAnsi(stdout.frames.slice(mark + cleared() + 1).join(''))).toContain('charge.awaiting_payment'), { interval: 10 })
    expect(cleared()).toBeGreaterThanOrEqual(0)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal control sequences are the point
    const lastFrame = stripAnsi(stdout.frames.slice(mark + cleared() + 1).join('')).replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, '')
    for (const line of lastFrame.split(/\r?\n/)) expect([...line].length).toBeLessThanOrEqual(70)
    stop.abort()
    await running
    expect(stdout.listenerCount('resize')).toBe(0)
  })
})
