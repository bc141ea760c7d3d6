/**
 * The live view of `svc webhooks listen` end to end (runListen with a fake terminal): it comes up
 * before the registration with the sandbox is done (that costs the process's first fetch), then
 * shows where deliveries come from, with the notes above the view.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseForwardTargets } from '../../../src/lib/webhooks/forward.js'
import { runListen } from '../../../src/lib/services/listen.js'
import { testIO } from '../../helpers/test-io.js'
import { inkDrewAfterPaint, Keys, paintedThenInk, Screen } from '../../helpers/render-at.js'
import { deferred, SECRET } from '../../helpers/webhooks.js'
import { startFakeRelay } from '../../helpers/fake-relay.js'

const stops: AbortController[] = []
afterEach(() => {
  while (stops.length) stops.pop()!.abort()
})

/** runListen's live view on a fake terminal of `columns`×30, forwarding to a closed port, its event log in memory. */
function listenOnTerminal(columns: number, over: Partial<Parameters<typeof runListen>[0]> = {}) {
  const screen = new Screen(columns, 30)
  const { io } = testIO({ tty: true, columns, stdout: screen as never, stdin: new Keys() as never, stderr: new Screen(columns, 30) as never })
  const stop = new AbortController()
  stops.push(stop)
  const running = runListen({
    targets: parseForwardTargets(['127.0.0.1:9/hooks']),
    host: '127.0.0.1',
    port: 0,
    secrets: [SECRET],
    skipVerify: false,
    tui: true,
    io,
    storePath: ':memory:',
    stop: stop.signal,
    ...over,
  })
  return { screen, text: () => screen.frames.join(''), stop, running }
}

const CREDENTIALS = { apiKey: 'svc_test_0123456789abcdef01234567', baseUrl: 'http://127.0.0.1:1', environment: 'test', source: 'SVC_API_KEY' } as const

describe('runListen on a terminal', () => {
  it('draws the view before the registration is done, then shows it once, in the header', async () => {
    const sandboxAnswers = deferred<boolean>()
    const registered: string[] = []
    const { text, stop, running } = listenOnTerminal(140, {
      credentials: CREDENTIALS,
      registerDeps: {
        detectSandbox: () => sandboxAnswers.promise,
        setWebhookUrl: async ({ url, env }) => void registered.push(`${env} ${url}`),
      },
    })
    await vi.waitFor(() => expect(text()).toContain('q quit'), { timeout: 5000, interval: 10 })
    expect(text()).toContain('registering…')
    expect(registered).toEqual([])

    sandboxAnswers.resolve(true)
    await vi.waitFor(() => expect(text()).toContain("registered as the sandbox's test and live webhook URL"), { timeout: 5000, interval: 10 })
    // The key's environment first, then the other (live events such as product.paid reach the app too).
    expect(registered.map((r) => r.split(' ')[0])).toEqual(['test', 'live'])
    // Once, in the header: not again as a note above the view (issue 16 item 10).
    expect(text()).not.toContain(`Registered ${registered[0]!.split(' ')[1]}`)
    stop.abort()
    await running
  })
})

describe('runListen, its first frame', () => {
  it('is on the terminal before the view has loaded, and the view takes it over in place', async () => {
    const { screen, stop, running } = listenOnTerminal(100, {
      credentials: CREDENTIALS,
      registerDeps: { detectSandbox: () => deferred<boolean>().promise, setWebhookUrl: async () => {} },
    })
    await vi.waitFor(() => expect(inkDrewAfterPaint(screen)).toBe(true), { timeout: 5000, interval: 5 })
    stop.abort()
    await running
    // One write, before any of Ink's: the whole frame, from where it listens to the keys; then Ink's, the same bytes.
    const painted = paintedThenInk(screen)
    expect(painted).toMatch(/listening.*http:\/\/127\.0\.0\.1:\d+/)
    expect(painted).toContain('registering…')
    expect(painted).toContain('waiting for deliveries…')
  })
})

describe('runListen through a relay, on a terminal', () => {
  it('shows connecting, then ready only after the relay said so, then DISCONNECTED when the stream drops, and a gap as a note', async () => {
    const relay = await startFakeRelay({ token: 'rly_view_token_0123456789' })
    const { text, stop, running } = listenOnTerminal(160, { relay: { urls: [new URL(relay.url)], token: 'rly_view_token_0123456789' } })
    try {
      const stream = await relay.nextStream()
      await vi.waitFor(() => expect(text()).toContain('connecting…'), { timeout: 5000, interval: 10 })
      expect(text()).not.toContain('ready as')
      stream.ready({ token: 'dev-bob', channel: 'staging' })
      await vi.waitFor(() => expect(text()).toContain('ready as dev-bob (channel staging)'), { timeout: 5000, interval: 10 })
      stream.gap({ lost: 2, reason: 'max_bytes' })
      await vi.waitFor(() => expect(text()).toContain('GAP: the relay pruned 2 events'), { timeout: 5000, interval: 10 })
      stream.drop()
      await vi.waitFor(() => expect(text()).toContain('DISCONNECTED'), { timeout: 5000, interval: 10 })
      // Every frame drawn since says disconnected, none says ready (until the next ready frame).
      expect(text().slice(text().indexOf('DISCONNECTED'))).not.toContain('ready as')
    } finally {
      stop.abort()
      await running
      await relay.close()
    }
  })
})
