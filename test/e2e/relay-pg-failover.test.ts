/**
 * `listen --relay A,B` with two relay instances on one PostgreSQL store (issue 38.4): instance A
 * (a real `svc relay serve --store` process, from dist/: `npm run build`) is killed with SIGKILL
 * while the listener streams from it; the listener is ready on B within 5 s and its app gets what
 * arrived meanwhile, from the cursor the instances share, each event once.
 */
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openPostgresRelayStore } from '../../src/lib/relay/store/postgres.js'
import { startSpecReceiver } from '../fixtures/receivers/spec-receiver.js'
import { svcBackground } from '../helpers/cli.js'
import { startListen } from '../helpers/listen-harness.js'
import { createPgSchema, needsPostgres, PG_URL, type PgSchema } from '../helpers/postgres.js'
import { postSigned, RELAY_SECRET, startTestRelay } from '../helpers/relay.js'

function chargeEvent(id: string): string {
  return JSON.stringify({
    id,
    type: 'charge.awaiting_payment',
    createdAt: '2026-11-27T12:00:00.000Z',
    environment: 'test',
    data: { charge: { id: `ch_${id}`.padEnd(24, '0'), status: 'awaiting_payment', externalId: id, amountInCents: 1500 } },
  })
}

const cleanups: Array<() => Promise<unknown> | unknown> = []

describe('listen --relay A,B on a PostgreSQL store', () => {
  let pg: PgSchema
  beforeEach(async (ctx) => {
    await needsPostgres(ctx)
    pg = await createPgSchema()
  })
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!()
    await pg?.drop()
    pg = undefined as unknown as PgSchema
  })

  it('A killed mid-stream: the listener is ready on B within 5 s and goes on from the shared cursor, each event once', async () => {
    const tag = randomBytes(4).toString('hex')
    const aUrl = new URL(PG_URL)
    aUrl.searchParams.set('options', `-c search_path=${pg.schema}`)
    aUrl.searchParams.set('application_name', `relay-${tag}-a`)
    const a = await svcBackground(['relay', 'serve', '--port', '0', '--store', aUrl.toString()], { timeoutMs: 20_000 })
    cleanups.push(() => (a.child.exitCode === null && a.child.signalCode === null ? a.child.kill('SIGKILL') : undefined))
    a.child.stdout?.resume()
    const relayA = String(a.first.listening)
    const b = await startTestRelay({ store: await openPostgresRelayStore(PG_URL, { schema: pg.schema, applicationName: `relay-${tag}-b`, pollMs: 200 }) })
    cleanups.push(() => b.close())
    await b.addChannel('staging')
    const token = await b.createToken('dev-alice', 'staging')
    const app = await startSpecReceiver({ secret: RELAY_SECRET })
    cleanups.push(() => app.close())

    const run = startListen(['--relay', `${relayA},${b.url}`, '--forward', app.url, '--no-tui'], { SVC_RELAY_TOKEN: token, SVC_WEBHOOK_SECRET: RELAY_SECRET })
    cleanups.push(() => run.stop())
    expect((await run.waitLines(1))[0]).toMatchObject({ relay: `${relayA}/`, token: 'dev-alice' })
    for (let i = 1; i <= 10; i++) expect((await postSigned(relayA, 'staging', chargeEvent(`evt_a_${i}`))).status).toBe(200)
    await vi.waitFor(() => expect(app.received).toHaveLength(10), { timeout: 10_000, interval: 20 })

    const killedAt = performance.now()
    a.child.kill('SIGKILL')
    // What the service delivers meanwhile goes to B (the load balancer's other instance).
    for (let i = 1; i <= 10; i++) expect((await postSigned(b.url, 'staging', chargeEvent(`evt_b_${i}`))).status).toBe(200)
    await vi.waitFor(() => expect(run.lines().some((l) => l.status === 'ready' && l.relay === `${b.url}/`)).toBe(true), { timeout: 10_000, interval: 20 })
    const movedMs = performance.now() - killedAt
    await vi.waitFor(() => expect(app.received).toHaveLength(20), { timeout: 10_000, interval: 20 })
    process.stdout.write(`listener moved from killed A to B in ${movedMs.toFixed(0)} ms\n`)
    expect(movedMs).toBeLessThan(5000)
    const ids = app.received.map((r) => r.id)
    expect(new Set(ids).size).toBe(20)
    expect(ids.sort()).toEqual([...Array.from({ length: 10 }, (_, i) => `evt_a_${i + 1}`), ...Array.from({ length: 10 }, (_, i) => `evt_b_${i + 1}`)].sort())
    // Every one acked in the shared store: nothing waits for this token on any instance.
    await vi.waitFor(async () => expect((await b.store.status(new Date())).tokens[0]).toMatchObject({ backlog: 0 }), { timeout: 5000, interval: 50 })
  }, 60_000)
})
