/**
 * Routing across a crash, over real HTTP: the sandbox sends every event of a few charges to
 * `svc webhooks listen` (the built CLI, a real process) with two apps behind it, charge.settled
 * routed to one and the rest to the other. The listener is killed -9 in the middle (while a
 * routed app holds a delivery, which it then drops), restarted on the same event log, and the
 * sandbox's retries and resends go to the new one. Each app must have each of its events exactly
 * once: counted per target per event id, as the apps accepted them (answered 2xx).
 */
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { type Background, svcBackground } from '../helpers/cli.js'
import { type Received, startApp, type TargetApp } from '../helpers/webhooks.js'

const CPF = '52998224725'
const CHARGES = 4
let sb: RunningSandbox | undefined
let listener: Background | undefined
const apps: TargetApp[] = []

afterEach(async () => {
  await listener?.stop()
  for (const a of apps.splice(0)) await a.close()
  await sb?.close()
  listener = sb = undefined
})

interface App extends TargetApp {
  /** The deliveries this app accepted (answered 2xx), by event id. */
  accepted: Map<string, number>
  /** Deliveries it dropped unanswered. */
  dropped: () => number
}

async function app(onDelivery: (r: Received, n: number) => Promise<'drop' | 'ok'>): Promise<App> {
  const accepted = new Map<string, number>()
  let n = 0
  let dropped = 0
  const a = await startApp((r, res) => {
    const id = r.headers['x-svc-event-id'] as string
    void onDelivery(r, ++n).then((what) => {
      if (what === 'drop') {
        dropped++
        return void res.destroy()
      }
      accepted.set(id, (accepted.get(id) ?? 0) + 1)
      res.end('ok')
    })
  })
  apps.push(a)
  return Object.assign(a, { accepted, dropped: () => dropped })
}

async function panel(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${sb!.baseUrl}/_sandbox${path}`, { method: 'POST', headers: { authorization: `Bearer ${sb!.testKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBeLessThan(300)
  return res.json()
}

async function api(path: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${sb!.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${sb!.testKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBeLessThan(300)
  return (await res.json()) as { id: string }
}

async function listen(config: string, rest: App, settled: App): Promise<Background> {
  listener = await svcBackground(['webhooks', 'listen', '--forward', `${rest.url}/hooks`, '--forward', `charge.settled=${settled.url}/settled`, '--port', '0', '--no-tui'], {
    env: { SVC_CONFIG_DIR: config, SVC_API_KEY: sb!.testKey, SVC_BASE_URL: sb!.baseUrl, SVC_WEBHOOK_SECRET: sb!.webhookSecret, SVC_PROFILE: undefined },
  })
  return listener
}

/** Every event of `ids`' charges, by the app it routes to: awaiting and paid to the rest, settled to its own. */
function expected(events: Array<{ eventId: string; type: string }>) {
  const byApp = { rest: [] as string[], settled: [] as string[] }
  for (const e of events) (e.type === 'charge.settled' ? byApp.settled : byApp.rest).push(e.eventId)
  return byApp
}

it('kill -9 in the middle, restart on the same log: each target has each of its events exactly once', async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  const config = mkdtempSync(join(tmpdir(), 'svc-routing-crash-'))
  let killed: Promise<unknown> | undefined
  let beforeKill: { rest: number; settled: number } | undefined
  let restarted = false
  // A request from the dead listener cannot be answered: an app accepting one anyway is the
  // at-least-once window listener-crash.test.ts measures, not what this test counts.
  const fromTheDead = async () => (killed && !restarted ? 'drop' : 'ok')
  const rest = await app(fromTheDead)
  // The routed app's second delivery: the listener dies while the app holds it, and the app drops it (no 2xx).
  const settled = await app(async (_r, n) => {
    if (n !== 2 || killed) return fromTheDead()
    beforeKill = { rest: rest.accepted.size, settled: settled.accepted.size }
    const child = listener!.child
    killed = once(child, 'close')
    child.kill('SIGKILL')
    await killed
    return 'drop'
  })

  const first = await listen(config, rest, settled)
  expect(first.first).toMatchObject({ forward: `${rest.url}/hooks`, routes: [{ pattern: 'charge.settled', url: `${settled.url}/settled` }] })
  const charges: string[] = []
  for (let i = 0; i < CHARGES; i++) {
    const { id } = await api('/v1/charges', { amountInCents: 1500 + i, payerTaxNumber: CPF, externalId: `route-crash-${i}` })
    charges.push(id)
    await api(`/v1/test/charges/${id}/advance`, { status: 'paid_pending_settlement' })
  }
  for (const id of charges) await api(`/v1/test/charges/${id}/advance`, { status: 'settled' })
  await vi.waitFor(() => expect(killed).toBeDefined(), { timeout: 10_000, interval: 20 })
  await killed
  listener = undefined
  // The first listener forwarded to both apps before it died: the restart must remember those.
  expect(beforeKill!.rest).toBeGreaterThan(0)
  expect(beforeKill!.settled).toBe(1)

  // Restarted on the same event log; it registers its new URL, and the retries fall due.
  restarted = true
  const second = await listen(config, rest, settled)
  const outcomes: Array<Record<string, unknown>> = []
  void (async () => {
    for await (const line of second.lines) outcomes.push(JSON.parse(line) as Record<string, unknown>)
  })()
  const log = async () => {
    const res = await fetch(`${sb!.baseUrl}/_sandbox/deliveries?limit=100`, { headers: { authorization: `Bearer ${sb!.testKey}` } })
    return ((await res.json()) as { data: Array<{ eventId: string; type: string; state: string }> }).data
  }
  await vi.waitFor(
    async () => {
      await panel('/clock/advance', { ms: 3_600_000 })
      const pending = (await log()).filter((d) => d.state !== 'succeeded')
      expect(pending).toEqual([])
    },
    { timeout: 20_000, interval: 100 },
  )
  const events = await log()
  expect(events).toHaveLength(CHARGES * 3)

  // Every event resent once more, after the restart: the listener answers each from its log.
  for (const e of events) await panel(`/deliveries/${encodeURIComponent(e.eventId)}/resend`, {})
  await vi.waitFor(() => expect(outcomes.filter((l) => l.outcome === 'duplicate')).toHaveLength(events.length), { timeout: 10_000, interval: 20 })

  const want = expected(events)
  const count = (a: App, ids: string[]) => Object.fromEntries(ids.map((id) => [id, a.accepted.get(id) ?? 0]))
  const once_ = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 1]))
  expect(count(rest, want.rest)).toEqual(once_(want.rest))
  expect(count(settled, want.settled)).toEqual(once_(want.settled))
  // Nothing strayed to the other target.
  expect([...rest.accepted.keys()].sort()).toEqual([...want.rest].sort())
  expect([...settled.accepted.keys()].sort()).toEqual([...want.settled].sort())
  // The dropped delivery is the only one an app saw without accepting it.
  expect(rest.received).toHaveLength(want.rest.length + rest.dropped())
  expect(settled.dropped()).toBeGreaterThanOrEqual(1)
  expect(settled.received).toHaveLength(want.settled.length + settled.dropped())
  expect(settled.received.every((r) => r.path === '/settled' && r.headers['x-svc-event-type'] === 'charge.settled')).toBe(true)
  // The duplicates name the target each event routes to (its URL) and the route (pattern) that chose it.
  for (const l of outcomes.filter((o) => o.outcome === 'duplicate')) {
    expect([l.target, l.route]).toEqual(l.type === 'charge.settled' ? [`${settled.url}/settled`, 'charge.settled'] : [`${rest.url}/hooks`, null])
  }
}, 60_000)
