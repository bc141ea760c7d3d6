import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import chalk from 'chalk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FrameRow } from '../../../../src/lib/tui/text/fit.js'
import { eraseLines, frameText, ONE_COLUMN_SIGNS, paintFirstFrame } from '../../../../src/lib/tui/mount/first-paint.js'
import { runWatchView } from '../../../../src/lib/tui/mount/run-watch-view.js'
import { ChargeWatcher } from '../../../../src/lib/tui/view-models/charge-watcher.js'
import { watchFrame } from '../../../../src/lib/tui/view-models/watch-frame.js'
import { runListenView } from '../../../../src/lib/tui/mount/run-listen-view.js'
import { ListenFeed } from '../../../../src/lib/tui/view-models/listen-feed.js'
import { listenFrame } from '../../../../src/lib/tui/view-models/listen-frame.js'
import { heardDelivery } from '../../../helpers/event-log.js'
import { chargeEvent } from '../../../helpers/webhooks.js'
import { Keys, Screen } from '../../../helpers/render-at.js'
import { fakeApi } from '../../../helpers/watch-api.js'

const BSU = '\u001B[?2026h'
const ESU = '\u001B[?2026l'
const SHOW = '\u001B[?25h'

type Env = 'test' | 'live' | undefined

type Mount = (streams: { stdout: never; stderr: never; stdin: never }, stop: AbortSignal) => Promise<void>

/** What Ink writes for a view's first frame (its synchronized update, marks included), and what it writes next. */
async function firstInkFrame(mount: Mount, columns: number, rows: number, screen = new Screen(columns, rows)) {
  const stop = new AbortController()
  const running = mount({ stdout: screen as never, stderr: new Screen(columns, rows) as never, stdin: new Keys() as never }, stop.signal)
  const all = () => screen.frames.join('')
  for (let i = 0; i < 200 && !all().includes(ESU, all().lastIndexOf(BSU)); i++) await new Promise((r) => setImmediate(r))
  stop.abort()
  await running
  return screen.frames.join('')
}

function inkFirstFrame(watcher: ChargeWatcher, columns: number, rows: number, environment: Env, scope: string, painted?: ReturnType<typeof paintFirstFrame>, screen = new Screen(columns, rows)) {
  return firstInkFrame((streams, stop) => runWatchView({ watcher, scope, environment, intervalMs: 2000, ...streams, stop, painted }), columns, rows, screen)
}

async function watcherOf(states: Record<string, string>, ids: string[] = []) {
  const watcher = new ChargeWatcher({ client: fakeApi(states) as never, ids })
  await watcher.poll()
  return watcher
}

const rowsFor = (watcher: ChargeWatcher, columns: number, height: number, environment: Env, scope: string) =>
  watchFrame({ state: watcher.getSnapshot(), scope, environment, intervalMs: 2000, columns, height, details: false, statusLines: [] }).rows

/** In colour, as on a terminal (Ink and the paint share chalk's one instance; the tests run piped, at level 0). */
function inColour() {
  const level = chalk.level
  beforeAll(() => {
    chalk.level = 1
  })
  afterAll(() => {
    chalk.level = level
  })
}

/** The terminal sizes the paint is held to Ink at. */
const SIZES = [
  [100, 30],
  [60, 20],
  [132, 50],
] as const

describe('the first frame painted before Ink loads', () => {
  inColour()

  const cases: Array<{ name: string; states: Record<string, string>; ids?: string[]; env: Env }> = [
    { name: 'one charge awaiting payment, test', states: { ['a'.repeat(24)]: 'awaiting_payment' }, ids: ['a'.repeat(24)], env: 'test' },
    { name: 'three charges in different states, live', states: { ['a'.repeat(24)]: 'settled', ['b'.repeat(24)]: 'paid_pending_settlement', ['c'.repeat(24)]: 'expired' }, env: 'live' },
    { name: 'no charges, no environment', states: {}, env: undefined },
  ]
  for (const c of cases) {
    for (const [columns, height] of SIZES) {
      it(`is what Ink writes, byte for byte: ${c.name}, ${columns}×${height}`, async () => {
        const scope = c.ids ? '1 charge' : 'the 10 newest charges'
        const watcher = await watcherOf(c.states, c.ids)
        const ink = await inkFirstFrame(watcher, columns, height, c.env, scope)
        const screen = new Screen(columns, height)
        const painted = paintFirstFrame(screen as never, () => rowsFor(watcher, columns, height, c.env, scope))
        expect(painted).toBeDefined()
        expect(ink.startsWith(screen.frames.join(''))).toBe(true)
        expect(screen.frames.join('')).toBe(ink.slice(0, ink.indexOf(ESU) + ESU.length))
        expect(screen.frames.join('')).toContain('\u001B[2m')
      })
    }
  }

  it('is left to Ink where Ink would cut a row (the legend at 40 columns): nothing is painted', async () => {
    const watcher = await watcherOf({ ['a'.repeat(24)]: 'awaiting_payment' }, ['a'.repeat(24)])
    const screen = new Screen(40, 12)
    expect(paintFirstFrame(screen as never, () => rowsFor(watcher, 40, 12, 'test', '1 charge'))).toBeUndefined()
    expect(screen.frames).toEqual([])
    expect(await inkFirstFrame(watcher, 40, 12, 'test', '1 charge')).toContain('…')
  })

  it('is erased as Ink erases a frame right before Ink draws the same frame in its place', async () => {
    const watcher = await watcherOf({ ['a'.repeat(24)]: 'awaiting_payment' }, ['a'.repeat(24)])
    const screen = new Screen(100, 30)
    const rows = rowsFor(watcher, 100, 30, 'test', '1 charge')
    const painted = paintFirstFrame(screen as never, () => rows)
    const paint = screen.frames.join('')
    const text = frameText(rows, 100, 30)!
    const all = await inkFirstFrame(watcher, 100, 30, 'test', '1 charge', painted, screen)
    // The frame's lines and the one after them, from the bottom up: Ink's log-update erases its last frame so.
    const erase = `${BSU}${eraseLines(text.split('\n').length + 1)}`
    expect(all.slice(paint.length, paint.length + erase.length)).toBe(erase)
    expect(all.slice(paint.length + erase.length).startsWith(paint)).toBe(true)
    expect(eraseLines(3)).toBe('\u001B[2K\u001B[1A\u001B[2K\u001B[1A\u001B[2K\u001B[G')
  })

  it('when the view does not start, erases the frame and shows the cursor again', () => {
    const screen = new Screen(80, 24)
    const painted = paintFirstFrame(screen as never, () => [{ kind: 'text', text: 'hello' }])!
    painted.withdraw()
    painted.withdraw()
    expect(screen.frames.join('')).toBe(`${BSU}\u001B[?25lhello\n${ESU}${BSU}${eraseLines(2)}${ESU}${SHOW}`)
  })

  it("paints only signs that are one column by Ink's own measure (its string-width), and leaves the rest to Ink", async () => {
    const require = createRequire(import.meta.url)
    const own = createRequire(require.resolve('ink')).resolve('string-width')
    const { default: stringWidth } = (await import(pathToFileURL(own).href)) as { default: (s: string) => number }
    for (const sign of ONE_COLUMN_SIGNS) expect([sign, stringWidth(sign)]).toEqual([sign, 1])
    expect(frameText([{ kind: 'text', text: ONE_COLUMN_SIGNS }], 80, 24)).toBe(ONE_COLUMN_SIGNS)
    expect(stringWidth('⚠️')).toBe(2)
    expect(frameText([{ kind: 'text', text: '⚠️' }], 80, 24)).toBeUndefined()
  })

  it('leaves to Ink a frame it cannot paint exactly: too tall, too wide, wide characters, a part of its own, no terminal size', () => {
    const line = (text: string): FrameRow => ({ kind: 'text', text })
    expect(frameText([line('a'), line('b')], 80, 3)).toBe('a\nb')
    expect(frameText([line('a'), line('b'), line('c')], 80, 3)).toBeUndefined()
    expect(frameText([line('x'.repeat(81))], 80, 24)).toBeUndefined()
    expect(frameText([line('charge 文字')], 80, 24)).toBeUndefined()
    expect(frameText([line('🙂')], 80, 24)).toBeUndefined()
    expect(frameText([line('soft\u00adhyphen')], 80, 24)).toBeUndefined()
    expect(frameText([{ kind: 'other', id: 'details', height: 3 }], 80, 24)).toBeUndefined()
    expect(frameText([line('a'), { kind: 'blank' }, line('b   ')], 80, 24)).toBe('a\n\nb')
    const noSize = new Screen(0, 0)
    expect(paintFirstFrame(noSize as never, () => [line('a')])).toBeUndefined()
    const piped = Object.assign(new Screen(80, 24), { isTTY: false })
    expect(paintFirstFrame(piped as never, () => [line('a')])).toBeUndefined()
    expect(noSize.frames).toEqual([])
    expect(piped.frames).toEqual([])
  })
})

describe("webhooks listen's first frame painted before Ink loads", () => {
  inColour()

  const view = (over: { environment?: Env; skipVerify?: boolean; forward?: string } = {}) => ({
    listening: 'http://127.0.0.1:43127/',
    forward: over.forward ?? 'http://localhost:3000/',
    environment: over.environment,
    skipVerify: over.skipVerify ?? false,
  })
  /** The feed as the listener has it when the view comes up: registering, or with deliveries heard. */
  function feedOf(deliveries: number) {
    const feed = new ListenFeed({})
    feed.setRegistration('registering…')
    for (let i = 1; i <= deliveries; i++) {
      const charge = String(i).padStart(24, '0')
      feed.add(
        heardDelivery({ seq: i, eventId: `evt_${i}`, type: 'charge.paid_pending_settlement', body: Buffer.from(chargeEvent(`evt_${i}`, 'charge.paid_pending_settlement', charge)), forwardStatus: 200, latencyMs: 4 }),
      )
    }
    return feed
  }
  // At 60 columns Ink cuts the header that names two targets: that frame is left to Ink.
  const cases: Array<{ name: string; deliveries: number; view: ReturnType<typeof view>; cutAt?: number }> = [
    { name: 'registering, test', deliveries: 0, view: view({ environment: 'test' }) },
    { name: 'registering, --skip-verify, live, two targets', deliveries: 0, view: view({ environment: 'live', skipVerify: true, forward: 'http://localhost:3000/ · charge.*=http://[::1]:4000/' }), cutAt: 60 },
    { name: 'three deliveries heard, no environment', deliveries: 3, view: view() },
  ]
  for (const c of cases) {
    for (const [columns, height] of SIZES) {
      it(`is what Ink writes, byte for byte: ${c.name}, ${columns}×${height}`, async () => {
        const feed = feedOf(c.deliveries)
        const ink = await firstInkFrame((streams, stop) => runListenView({ ...c.view, feed, onReplay: async () => '', ...streams, stop }), columns, height)
        const screen = new Screen(columns, height)
        const painted = paintFirstFrame(screen as never, () => listenFrame({ ...c.view, state: feed.getSnapshot(), columns, height, filter: 'all', details: false, statusLines: [] }).rows)
        if (columns === c.cutAt) {
          expect(painted).toBeUndefined()
          expect(screen.frames).toEqual([])
          expect(ink.slice(0, ink.indexOf(ESU))).toContain('…')
          return
        }
        expect(painted).toBeDefined()
        expect(screen.frames.join('')).toBe(ink.slice(0, ink.indexOf(ESU) + ESU.length))
        expect(screen.frames.join('')).toContain('q quit')
      })
    }
  }
})
