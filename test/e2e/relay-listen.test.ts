/**
 * `svc webhooks listen --relay` against the real relay server (in-process, loopback, its clock
 * injected): a listener offline for hours gets its backlog, verified at the relay's arrival time,
 * and the app's own 300 s check passes on the fresh signature; two tokens of one channel split
 * the events by the body (`--match`), each listener acking only what its app took.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startSpecReceiver } from '../fixtures/receivers/spec-receiver.js'
import { startListen } from '../helpers/listen-harness.js'
import { postSigned, RELAY_SECRET, startTestRelay, testClock } from '../helpers/relay.js'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

function chargeEvent(id: string, externalId: string, type = 'charge.awaiting_payment'): string {
  return JSON.stringify({
    id,
    type,
    createdAt: '2026-11-27T12:00:00.000Z',
    environment: 'test',
    data: { charge: { id: `ch_${id}`.padEnd(24, '0'), status: type.replace('charge.', ''), externalId, amountInCents: 1500 } },
  })
}

describe('listen --relay with the real relay', () => {
  it('a listener offline for 3 hours gets its backlog on connect: verified at arrival, re-signed, and the app (300 s rule, real clock) takes every event', async () => {
    // The relay took the events 3 hours ago (its clock then), signed by the service at that time.
    const clock = testClock(Date.now() - 3 * 3600_000)
    const relay = await startTestRelay({ clock })
    cleanups.push(() => relay.close())
    await relay.addChannel('staging')
    const token = await relay.createToken('dev-alice', 'staging')
    for (let i = 1; i <= 5; i++) {
      const ts = Math.floor(clock.now() / 1000)
      expect((await postSigned(relay.url, 'staging', chargeEvent(`evt_old_${i}`, `alice-${i}`), { timestamp: ts })).status).toBe(200)
      clock.advance(60_000)
    }
    // The relay's clock catches up with the wall clock: the listener connects "now".
    clock.set(Date.now())
    const app = await startSpecReceiver({ secret: RELAY_SECRET })
    cleanups.push(() => app.close())
    const run = startListen(['--relay', relay.url, '--forward', app.url, '--no-tui'], { SVC_RELAY_TOKEN: token, SVC_WEBHOOK_SECRET: RELAY_SECRET })
    cleanups.push(() => run.stop())
    const [first] = await run.waitLines(1)
    expect(first).toMatchObject({ relay: `${relay.url}/`, token: 'dev-alice', channel: 'staging', backlog: 5 })
    const lines = await run.waitLines(6)
    expect(lines.slice(1).map((l) => [l.eventId, l.via, l.verified, l.outcome])).toEqual([1, 2, 3, 4, 5].map((i) => [`evt_old_${i}`, 'relay', true, 'forwarded']))
    expect(app.received.map((r) => r.id)).toEqual([1, 2, 3, 4, 5].map((i) => `evt_old_${i}`))
    // All acked: nothing is waiting for this token any more.
    await vi.waitFor(async () => expect((await relay.store.status(new Date(clock.now()))).tokens.find((t) => t.name === 'dev-alice')).toMatchObject({ backlog: 0 }), { timeout: 5000, interval: 20 })
  })

  it('two tokens of one channel (--match on data.charge.externalId): each app gets only its developer’s charges', async () => {
    const relay = await startTestRelay()
    cleanups.push(() => relay.close())
    await relay.addChannel('staging')
    const alice = await relay.createToken('alice', 'staging', { match: [{ path: 'data.charge.externalId', glob: 'alice-*' }] })
    const bob = await relay.createToken('bob', 'staging', { match: [{ path: 'data.charge.externalId', glob: 'bob-*' }] })
    const appA = await startSpecReceiver({ secret: RELAY_SECRET })
    const appB = await startSpecReceiver({ secret: RELAY_SECRET })
    cleanups.push(
      () => appA.close(),
      () => appB.close(),
    )
    // In-process commands share the test's IO while they start: one after the other.
    const a = startListen(['--relay', relay.url, '--forward', appA.url], { SVC_RELAY_TOKEN: alice, SVC_WEBHOOK_SECRET: RELAY_SECRET })
    cleanups.push(() => a.stop())
    expect((await a.waitLines(1))[0]).toMatchObject({ token: 'alice' })
    const b = startListen(['--relay', relay.url, '--forward', appB.url], { SVC_RELAY_TOKEN: bob, SVC_WEBHOOK_SECRET: RELAY_SECRET })
    cleanups.push(() => b.stop())
    expect((await b.waitLines(1))[0]).toMatchObject({ token: 'bob' })
    for (let i = 1; i <= 6; i++) {
      const who = i % 2 ? 'alice' : 'bob'
      expect((await postSigned(relay.url, 'staging', chargeEvent(`evt_${who}_${i}`, `${who}-${i}`))).status).toBe(200)
    }
    await vi.waitFor(() => expect(appA.received.length + appB.received.length, `${a.stderr()}\n${b.stderr()}\n${a.stdout()}\n${b.stdout()}`).toBe(6), { timeout: 10_000, interval: 20 })
    expect(appA.received.map((r) => r.id).sort()).toEqual(['evt_alice_1', 'evt_alice_3', 'evt_alice_5'])
    expect(appB.received.map((r) => r.id).sort()).toEqual(['evt_bob_2', 'evt_bob_4', 'evt_bob_6'])
  })
})
