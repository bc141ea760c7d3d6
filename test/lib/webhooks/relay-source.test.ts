import { afterEach, describe, expect, it } from 'vitest'
import { RELAY_PING_MS } from '../../../src/lib/contract/relay-stream.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { type ListenerDelivery, WebhookListener } from '../../../src/lib/webhooks/listener.js'
import { deliveryLine } from '../../../src/lib/webhooks/ndjson.js'
import { parseRelayUrls, RELAY_MAX_BACKOFF_MS, type RelayEnd, RelaySource, type RelayStatus, SseParser, type Timers } from '../../../src/lib/webhooks/relay-source.js'
import { startSpecReceiver } from '../../fixtures/receivers/spec-receiver.js'
import { type FakeRelay, relayDelivery, startFakeRelay } from '../../helpers/fake-relay.js'
import { chargeEvent, deferred, forwarding, SECRET, sha256 } from '../../helpers/webhooks.js'

const TOKEN = 'rly_test_token_0123456789abcdef'
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

/** Timers the test fires by hand: the backoff between tries and the silence deadline. */
class ManualTimers implements Timers {
  private id = 0
  readonly pending = new Map<number, { fn: () => void; ms: number }>()
  /** Every delay asked for, in order. */
  readonly asked: number[] = []
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.id
    this.pending.set(id, { fn, ms })
    this.asked.push(ms)
    return id
  }
  clearTimeout(h: unknown): void {
    this.pending.delete(h as number)
  }
  /** Fires the pending timers of this delay (the test's "that much time passed"). */
  fire(predicate: (ms: number) => boolean): number {
    let n = 0
    for (const [id, t] of [...this.pending]) {
      if (!predicate(t.ms)) continue
      this.pending.delete(id)
      t.fn()
      n++
    }
    return n
  }
}

async function eventually<T>(get: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const v = get()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setImmediate(r))
  }
}

interface Setup {
  relay: FakeRelay
  source: RelaySource
  statuses: RelayStatus[]
  seen: ListenerDelivery[]
  store: EventStore
  ended: Promise<RelayEnd>
  stop: () => Promise<RelayEnd>
}

/** A listener fed by a relay source (no HTTP server of its own), forwarding to `forward`. */
async function relayed(forward: string | string[], opts: { events?: string[]; timers?: Timers; relays?: FakeRelay[]; maxInFlight?: number } = {}): Promise<Setup> {
  const relays = opts.relays ?? [await startFakeRelay({ token: TOKEN })]
  for (const r of relays) cleanups.push(() => r.close())
  const store = await EventStore.open({ path: ':memory:' })
  cleanups.push(() => store.close())
  const f = forwarding(forward)
  cleanups.push(() => f.forwarder.close())
  const listener = new WebhookListener({ ...f, secrets: [SECRET], store, events: opts.events })
  const seen: ListenerDelivery[] = []
  listener.on('delivery', (d) => seen.push(d))
  const source = new RelaySource({ urls: parseRelayUrls(relays.map((r) => r.url).join(',')), token: TOKEN, handle: (d) => listener.handle(d), timers: opts.timers, maxInFlight: opts.maxInFlight })
  const statuses: RelayStatus[] = []
  source.on('status', (s) => statuses.push(s))
  const ctl = new AbortController()
  const ended = source.run(ctl.signal)
  const stop = () => {
    ctl.abort()
    return ended
  }
  cleanups.push(async () => {
    await stop()
  })
  return { relay: relays[0]!, source, statuses, seen, store, ended, stop }
}

const nowS = () => Math.floor(Date.now() / 1000)

describe('RelaySource: verification at arrival, re-signing, acks', () => {
  it('an event the relay held for hours passes verification at its arrival time, and reaches an app that checks the 300 s rule with a fresh signature over the same bytes', async () => {
    const app = await startSpecReceiver({ secret: SECRET })
    cleanups.push(() => app.close())
    const { relay, seen } = await relayed(app.url)
    const stream = await relay.nextStream()
    stream.ready({ backlog: 1 })
    const signedAt = nowS() - 3 * 3600
    const body = chargeEvent('evt_held', 'charge.settled')
    stream.deliver(relayDelivery({ seq: 7, body, secret: SECRET, signedAt, arrivedAt: signedAt + 2 }))
    expect(await relay.waitAcks(1)).toEqual([7])
    expect(app.received.map((r) => r.id)).toEqual(['evt_held'])
    const record = seen[0]!.record
    expect(record).toMatchObject({ source: 'relay', verification: 'verified', outcome: 'forwarded', forwardStatus: 200 })
    // The log keeps the service's original headers (what `replay` and `events` show)…
    expect(record.headers['x-svc-timestamp']).toBe(String(signedAt))
    expect(sha256(record.body)).toBe(sha256(Buffer.from(body)))
    expect(deliveryLine(seen[0]!)).toMatchObject({ via: 'relay', outcome: 'forwarded', verified: true })
  })

  it('`replay` of an event that came through the relay re-signs it fresh, and a second replay still starts from the relay’s delivery', async () => {
    const app = await startSpecReceiver({ secret: SECRET })
    cleanups.push(() => app.close())
    const { relay, store } = await relayed(app.url)
    const stream = await relay.nextStream()
    stream.ready()
    const signedAt = nowS() - 5 * 3600
    stream.deliver(relayDelivery({ seq: 1, body: chargeEvent('evt_replayed', 'charge.settled'), secret: SECRET, signedAt }))
    await relay.waitAcks(1)
    const { replayEvent } = await import('../../../src/lib/webhooks/replay.js')
    const f = forwarding(app.url)
    cleanups.push(() => f.forwarder.close())
    for (let i = 0; i < 2; i++) {
      const r = await replayEvent({ store, eventId: 'evt_replayed', forwarder: f.forwarder, secrets: [SECRET] })
      expect(r.original.source).toBe('relay')
      expect(r).toMatchObject({ resigned: true, result: { ok: true } })
    }
    // The app (300 s rule) took the relay's forward and both replays.
    expect(app.received.map((x) => x.duplicate)).toEqual([false, true, true])
  })

  it('forwards the original bytes with a fresh X-SVC-Timestamp and a signature made with the secret that verified it', async () => {
    const { startApp } = await import('../../helpers/webhooks.js')
    const app = await startApp()
    cleanups.push(() => app.close())
    const { relay } = await relayed(app.url)
    const stream = await relay.nextStream()
    stream.ready()
    const signedAt = nowS() - 7200
    const body = chargeEvent('evt_fresh', 'charge.paid')
    stream.deliver(relayDelivery({ seq: 1, body, secret: SECRET, signedAt, arrivedAt: signedAt }))
    await relay.waitAcks(1)
    const got = app.received[0]!
    expect(sha256(got.body)).toBe(sha256(Buffer.from(body)))
    const ts = Number(got.headers['x-svc-timestamp'])
    expect(Math.abs(ts - nowS())).toBeLessThanOrEqual(5)
    const { signatureHeader } = await import('../../../src/lib/webhooks/signature.js')
    expect(got.headers['x-svc-signature']).toBe(signatureHeader(SECRET, ts, body))
    expect(got.headers['x-svc-event-id']).toBe('evt_fresh')
  })

  it('a forged delivery (wrong secret) or one too old at its arrival is recorded as rejected, never forwarded, and not acked', async () => {
    const app = await startSpecReceiver({ secret: SECRET })
    cleanups.push(() => app.close())
    const { relay, seen } = await relayed(app.url)
    const stream = await relay.nextStream()
    stream.ready()
    const t = nowS()
    stream.deliver(relayDelivery({ seq: 1, body: chargeEvent('evt_forged', 'charge.settled'), secret: 'whsec_someone_else_0123456789', signedAt: t }))
    // Signed 10 minutes before the relay says it arrived: the relay should never have taken it.
    stream.deliver(relayDelivery({ seq: 2, body: chargeEvent('evt_stale', 'charge.settled'), secret: SECRET, signedAt: t - 600, arrivedAt: t }))
    stream.deliver(relayDelivery({ seq: 3, body: chargeEvent('evt_good', 'charge.settled'), secret: SECRET, signedAt: t }))
    await relay.waitAcks(1)
    await eventually(() => seen.length === 3, 'three records')
    expect(relay.acks).toEqual([3])
    expect(app.received.map((r) => r.id)).toEqual(['evt_good'])
    const byId = Object.fromEntries(seen.map((d) => [d.record.eventId, d.record]))
    expect(byId.evt_forged).toMatchObject({ outcome: 'rejected', verification: 'failed', verifyReason: 'signature_mismatch', source: 'relay' })
    expect(byId.evt_stale).toMatchObject({ outcome: 'rejected', verifyReason: 'timestamp_too_old' })
  })

  it('acks only after the app answered 2xx; a failed forward is not acked and is forwarded again when the relay resends it', async () => {
    const hold = deferred()
    let calls = 0
    const { startApp } = await import('../../helpers/webhooks.js')
    const app = await startApp((_r, res) => {
      calls++
      if (calls === 1) {
        res.writeHead(500)
        res.end('boom')
      } else void hold.promise.then(() => res.end('ok'))
    })
    cleanups.push(() => app.close())
    const { relay, seen } = await relayed(app.url)
    const stream = await relay.nextStream()
    stream.ready()
    const body = chargeEvent('evt_retry', 'charge.settled')
    stream.deliver(relayDelivery({ seq: 5, body, secret: SECRET, signedAt: nowS() }))
    await eventually(() => seen.length === 1, 'the failed forward')
    expect(seen[0]!.record.outcome).toBe('failed')
    // The relay resends it (its redelivery backoff); the app holds its answer.
    stream.deliver(relayDelivery({ seq: 5, body, secret: SECRET, signedAt: nowS(), attempt: 2 }))
    await eventually(() => app.received.length === 2, 'the second forward')
    expect(relay.acks).toEqual([])
    hold.resolve()
    expect(await relay.waitAcks(1)).toEqual([5])
    expect(seen[1]!.record.outcome).toBe('forwarded')
    // Counted as the listener's second receipt of it (`received: 2`), as a retry from the service is.
    expect(deliveryLine(seen[1]!)).toMatchObject({ received: 2, via: 'relay' })
  })

  it('acks what the pipeline does not forward: filtered out, no target, or already delivered', async () => {
    const { startApp } = await import('../../helpers/webhooks.js')
    const app = await startApp()
    cleanups.push(() => app.close())
    const { relay, seen } = await relayed(`charge.*=${app.url}`, { events: ['charge.*', 'withdrawal.*'] })
    const stream = await relay.nextStream()
    stream.ready()
    const t = nowS()
    const paid = chargeEvent('evt_paid', 'charge.paid')
    stream.deliver(relayDelivery({ seq: 1, body: paid, secret: SECRET, signedAt: t }))
    await relay.waitAcks(1)
    stream.deliver(relayDelivery({ seq: 2, body: paid, secret: SECRET, signedAt: t })) // a panel resend: already delivered
    stream.deliver(relayDelivery({ seq: 3, body: JSON.stringify({ id: 'evt_w', type: 'withdrawal.completed', data: {} }), secret: SECRET, signedAt: t })) // no target
    stream.deliver(relayDelivery({ seq: 4, body: JSON.stringify({ id: 'evt_x', type: 'account.updated', data: {} }), secret: SECRET, signedAt: t })) // filtered
    expect([...(await relay.waitAcks(4))].sort()).toEqual([1, 2, 3, 4])
    expect(app.received).toHaveLength(1)
    expect(seen.map((d) => d.record.outcome).sort()).toEqual(['duplicate', 'forwarded', 'skipped', 'skipped'])
  })
})

describe('RelaySource: the connection', () => {
  it('is ready only after the ready frame, says disconnected when the stream drops, and reconnects within 5 s sending the last seq as a hint', async () => {
    const timers = new ManualTimers()
    const { startApp } = await import('../../helpers/webhooks.js')
    const app = await startApp()
    cleanups.push(() => app.close())
    const { relay, source, statuses } = await relayed(app.url, { timers })
    const first = await relay.nextStream()
    expect(source.isReady).toBe(false)
    first.ping()
    expect(source.isReady).toBe(false)
    first.ready({ backlog: 0 })
    await eventually(() => source.isReady, 'ready')
    first.deliver(relayDelivery({ seq: 9, body: chargeEvent('evt_a', 'charge.paid'), secret: SECRET, signedAt: nowS() }))
    await relay.waitAcks(1)
    first.drop()
    const down = await eventually(() => statuses.find((s) => s.kind === 'disconnected'), 'disconnected')
    expect(source.isReady).toBe(false)
    expect(down.kind === 'disconnected' && down.retryInMs).toBeLessThanOrEqual(RELAY_MAX_BACKOFF_MS)
    expect(statuses.map((s) => s.kind)).toEqual(['connecting', 'ready', 'disconnected'])
    // The backoff passes (the test's clock): a new stream, with the hint.
    timers.fire((ms) => ms <= RELAY_MAX_BACKOFF_MS)
    const second = await relay.nextStream()
    expect(second.headers['last-event-id']).toBe('9')
    expect(second.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(source.isReady).toBe(false)
    second.ready()
    await eventually(() => source.isReady, 'ready again')
  })

  it('backs off at most 5 s between tries, through each URL in turn', async () => {
    const timers = new ManualTimers()
    const a = await startFakeRelay({ token: TOKEN })
    const b = await startFakeRelay({ token: TOKEN })
    a.refuse(503)
    b.refuse(503, undefined, {})
    const { statuses } = await relayed('127.0.0.1:9', { timers, relays: [a, b] })
    const downs = () => statuses.filter((s) => s.kind === 'disconnected') as Extract<RelayStatus, { kind: 'disconnected' }>[]
    for (let i = 1; i <= 8; i++) {
      await eventually(() => downs().length >= i, `failure ${i}`)
      timers.fire((ms) => ms <= RELAY_MAX_BACKOFF_MS)
    }
    const d = downs().slice(0, 8)
    expect(d.map((s) => s.retryInMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000])
    expect(d.map((s) => s.url)).toEqual([a.url, b.url, a.url, b.url, a.url, b.url, a.url, b.url])
    expect(d[0]!.reason).toContain('503')
    // The second relay comes back: the next try that reaches it is served.
    b.accept()
    await eventually(() => downs().length >= 9, 'failure 9')
    timers.fire((ms) => ms <= RELAY_MAX_BACKOFF_MS)
    const stream = await b.nextStream()
    stream.ready()
    await eventually(() => statuses.at(-1)?.kind === 'ready', 'ready on b')
  })

  it('counts a stream silent for twice the ping interval as dead, and reconnects', async () => {
    const timers = new ManualTimers()
    const { relay, source, statuses } = await relayed('127.0.0.1:9', { timers })
    const stream = await relay.nextStream()
    stream.ready()
    await eventually(() => source.isReady, 'ready')
    expect(timers.fire((ms) => ms === 2 * RELAY_PING_MS)).toBe(1)
    const down = await eventually(() => statuses.find((s) => s.kind === 'disconnected'), 'disconnected')
    expect(down.kind === 'disconnected' && down.reason).toContain('dead stream')
    expect(source.isReady).toBe(false)
    await stream.closed
    timers.fire((ms) => ms <= RELAY_MAX_BACKOFF_MS)
    ;(await relay.nextStream()).ready()
    await eventually(() => source.isReady, 'ready again')
  })

  it('a slow app pauses the stream (backpressure) without counting the pause as a dead stream', async () => {
    const timers = new ManualTimers()
    const hold = deferred()
    const { startApp } = await import('../../helpers/webhooks.js')
    const app = await startApp((_r, res) => void hold.promise.then(() => res.end('ok')))
    cleanups.push(() => app.close())
    const { relay, source, statuses } = await relayed(app.url, { timers, maxInFlight: 1 })
    const stream = await relay.nextStream()
    stream.ready()
    stream.deliver(relayDelivery({ seq: 1, body: chargeEvent('evt_slow', 'charge.paid'), secret: SECRET, signedAt: nowS() }))
    await eventually(() => app.received.length === 1, 'the forward')
    // Paused: no silence deadline is armed, so "30 s" passing changes nothing.
    expect(timers.fire((ms) => ms === 2 * RELAY_PING_MS)).toBe(0)
    expect(source.isReady).toBe(true)
    hold.resolve()
    await relay.waitAcks(1)
    // Reading again: the deadline is back.
    await eventually(() => [...timers.pending.values()].some((t) => t.ms === 2 * RELAY_PING_MS), 'the silence deadline')
    expect(statuses.some((s) => s.kind === 'disconnected')).toBe(false)
  })

  it('shows a gap; a closing frame for a shutdown reconnects, one for a revoked token stops it', async () => {
    const timers = new ManualTimers()
    const { relay, statuses, ended } = await relayed('127.0.0.1:9', { timers })
    const s1 = await relay.nextStream()
    s1.ready()
    s1.gap({ lost: 3, fromSeq: 10, toSeq: 12, reason: 'retention' })
    s1.closing({ reason: 'shutdown', message: 'the relay is restarting' })
    await eventually(() => statuses.find((s) => s.kind === 'disconnected'), 'disconnected')
    expect(statuses.find((s) => s.kind === 'gap')).toMatchObject({ gap: { lost: 3, fromSeq: 10, toSeq: 12 } })
    timers.fire((ms) => ms <= RELAY_MAX_BACKOFF_MS)
    const s2 = await relay.nextStream()
    s2.ready()
    s2.closing({ reason: 'revoked', message: 'token dev-1 was revoked' })
    expect(await ended).toEqual({ kind: 'ended', reason: 'revoked', message: 'token dev-1 was revoked' })
  })

  it('a frame that is not the wire is said (a warning), skipped and not acked; the stream goes on', async () => {
    const { startApp } = await import('../../helpers/webhooks.js')
    const app = await startApp()
    cleanups.push(() => app.close())
    const { relay, statuses } = await relayed(app.url)
    const stream = await relay.nextStream()
    stream.ready()
    stream.raw('event: delivery\nid: 1\ndata: {"seq": 1, "body": 5}\n\n')
    stream.raw('event: something-new\ndata: {}\n\n')
    stream.deliver(relayDelivery({ seq: 2, body: chargeEvent('evt_after', 'charge.paid'), secret: SECRET, signedAt: nowS() }))
    expect(await relay.waitAcks(1)).toEqual([2])
    expect(statuses.filter((s) => s.kind === 'warning').map((s) => s.kind === 'warning' && s.message)).toEqual(['the relay sent a delivery this listener cannot read (skipped; it is not acked)'])
  })

  it('stops on 401 (unknown or revoked token) instead of retrying forever', async () => {
    const relay = await startFakeRelay({ token: 'another-token-entirely' })
    const { ended } = await relayed('127.0.0.1:9', { relays: [relay] })
    expect(await ended).toMatchObject({ kind: 'ended', reason: 'unauthorized', message: 'unknown or revoked token' })
  })
})

describe('SseParser', () => {
  it('reads frames split anywhere, with CRLF, comments and multi-line data', () => {
    const text = ': ping\r\n\r\nevent: delivery\r\nid: 4\r\ndata: {"a":\r\ndata: 1}\r\n\r\nevent: gap\ndata: {}\n\n: ping\n\n'
    const p = new SseParser()
    const frames = []
    for (const ch of Buffer.from(text)) frames.push(...p.push(Uint8Array.of(ch)))
    expect(frames).toEqual([
      { event: 'delivery', id: '4', data: '{"a":\n1}' },
      { event: 'gap', id: undefined, data: '{}' },
    ])
  })
})

describe('parseRelayUrls', () => {
  it('takes comma-separated URLs, https by default, and names the flag on bad input', () => {
    expect(parseRelayUrls('relay.example.com, http://127.0.0.1:8080/base').map((u) => u.href)).toEqual(['https://relay.example.com/', 'http://127.0.0.1:8080/base/'])
    expect(() => parseRelayUrls('ftp://x')).toThrow(/http or https/)
    expect(() => parseRelayUrls(' , ')).toThrow(expect.objectContaining({ details: [expect.objectContaining({ field: 'relay' })] }))
    expect(() => parseRelayUrls('https://u:p@relay.example.com')).toThrow(/credentials/)
  })
})
