/** The watch use-case without oclif: piped lines over real HTTP, ending once named charges are final. */
import { describe, expect, it, vi } from 'vitest'
import { runWatch } from '../../../src/lib/services/watch.js'
import { testIO } from '../../helpers/test-io.js'
import { useSandboxClient } from '../../helpers/sandbox-client.js'

const ctx = useSandboxClient()

const create = async () => (await ctx.client.createCharge({ amountInCents: 1990, payerTaxNumber: '52998224725' })).charge

describe('runWatch, piped', () => {
  it('prints one TSV line per change of a named charge and returns once it is final', async () => {
    const charge = await create()
    const { io, out } = testIO()
    // Each poll interval moves the charge one step, so the watch sees every state.
    const steps: Array<'paid_pending_settlement' | 'settled'> = ['paid_pending_settlement', 'settled']
    const sleep = async () => {
      const next = steps.shift()
      if (next) await ctx.client.advanceCharge(charge.id, next)
    }
    await runWatch({ client: ctx.client, ids: [charge.id], recent: 20, intervalMs: 1000, tui: false, json: false, io, sleep, stop: new AbortController().signal })
    const lines = out()
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    expect(lines.map((l) => l[2])).toEqual(['awaiting_payment', 'paid_pending_settlement', 'settled'])
    for (const l of lines) expect(l.slice(1, 2).concat(l[3]!)).toEqual([charge.id, '1990'])
  })

  it('--json: the Charge object per change', async () => {
    const charge = await create()
    await ctx.client.cancelCharge(charge.id)
    const { io, out } = testIO()
    await runWatch({ client: ctx.client, ids: [charge.id], recent: 20, intervalMs: 1000, tui: false, json: true, io, sleep: async () => {}, stop: new AbortController().signal })
    expect(JSON.parse(out())).toMatchObject({ id: charge.id, status: 'canceled' })
  })

  it('a named charge the API does not know: one 404 error naming it and the environment, nothing printed', async () => {
    const { io, out } = testIO()
    const missing = '0123456789abcdef01234567'
    const watching = runWatch({ client: ctx.client, ids: [missing], recent: 20, intervalMs: 1000, tui: false, json: false, io, environment: 'test', stop: new AbortController().signal })
    await expect(watching).rejects.toMatchObject({ exitCode: 4, message: `Charge ${missing} not found in the test environment.` })
    expect(out()).toBe('')
  })
})

describe('runWatch, on a terminal', () => {
  it('puts the first frame on the terminal before the view has loaded, and the view takes it over in place', async () => {
    const { inkDrewAfterPaint, Keys, paintedThenInk, Screen } = await import('../../helpers/render-at.js')
    const charge = await create()
    const screen = new Screen(100, 30)
    const keys = new Keys()
    const { io } = testIO({ tty: true, stdout: screen as never, stdin: keys as never })
    const stop = new AbortController()
    const watching = runWatch({ client: ctx.client, ids: [charge.id], recent: 20, intervalMs: 60_000, tui: true, json: false, io, stop: stop.signal })
    await vi.waitFor(() => expect(inkDrewAfterPaint(screen)).toBe(true), { interval: 5 })
    stop.abort()
    await watching
    // One write, before any of Ink's: the whole frame, its lane and the keys; then Ink's, the same bytes.
    const painted = paintedThenInk(screen)
    expect(painted).toContain('awaiting_payment')
  })
})
