import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { type Forwarder, type ForwarderOptions, type ForwardResult, parseForwardHeaders } from '../../../src/lib/webhooks/forward.js'
import { deliveryJson } from '../../../src/lib/webhooks/events-view.js'
import { deliveryLine } from '../../../src/lib/webhooks/ndjson.js'
import { signatureHeader } from '../../../src/lib/webhooks/signature.js'
import { type ListenerDelivery, type ListenerOptions, WebhookListener } from '../../../src/lib/webhooks/listener.js'
import { chargeEvent, deferred, forwarding, post, SECRET, sha256, signedHeaders, startApp, type TargetApp } from '../../helpers/webhooks.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

/** A listener forwarding to `forward` (`forwarder` options: the deadline, the headers), closed after the test. */
async function listen(forward: string | readonly string[], opts: Partial<ListenerOptions> = {}, forwarder: ForwarderOptions = {}) {
  const store = opts.store ?? (await EventStore.open({ path: ':memory:' }))
  const listener = listenerTo(forward, { store, ...opts }, forwarder)
  const seen: ListenerDelivery[] = []
  listener.on('delivery', (d) => seen.push(d))
  const url = await listener.start()
  cleanups.push(() => (opts.store ? undefined : store.close()))
  cleanups.push(() => listener.close())
  return { listener, url, store, seen }
}

/** A listener (not started) with a real Forwarder, both closed after the test. */
function listenerTo(forward: string | readonly string[], opts: Partial<ListenerOptions> & Pick<ListenerOptions, 'store'>, forwarderOpts: ForwarderOptions = {}): WebhookListener {
  const f = forwarding(forward, forwarderOpts)
  cleanups.push(() => f.forwarder.close())
  return new WebhookListener({ ...f, secrets: [SECRET], port: 0, ...opts })
}

async function app(respond?: Parameters<typeof startApp>[0], host?: string): Promise<TargetApp> {
  const a = await startApp(respond, host)
  cleanups.push(() => a.close())
  return a
}

describe('WebhookListener over HTTP', () => {
  it('forwards the exact bytes with content-type and every X-SVC-* header, to the path given', async () => {
    const target = await app()
    const { url, store } = await listen(`127.0.0.1:${target.port}/hooks/svc?x=1`)
    // Not valid UTF-8, and JSON with odd spacing: any re-serialisation would change the hash.
    const body = Buffer.concat([Buffer.from('{"id": "evt_bin",  "type":"charge.settled", "x":"'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]), Buffer.from('"}')])
    const headers = { ...signedHeaders(body, { id: 'evt_bin' }), 'x-svc-extra': 'kept', 'user-agent': 'svc-sender' }
    const answer = await post(url, body, headers)
    expect(answer.status).toBe(200)
    expect(target.received).toHaveLength(1)
    const got = target.received[0]!
    expect(sha256(got.body)).toBe(sha256(body))
    expect(got.path).toBe('/hooks/svc?x=1')
    for (const name of ['content-type', 'x-svc-event-id', 'x-svc-event-type', 'x-svc-timestamp', 'x-svc-signature', 'x-svc-extra']) {
      expect(got.headers[name]).toBe(headers[name as keyof typeof headers])
    }
    expect(got.headers['user-agent']).not.toBe('svc-sender')
    const [rec] = store.list()
    expect(rec).toMatchObject({ outcome: 'forwarded', verification: 'verified', forwardStatus: 200, answeredStatus: 200, attempt: 1 })
    expect(sha256(rec!.body)).toBe(sha256(body))
  })

  it('answers 502 when the app is down and does not mark the event delivered; the retry then goes through', async () => {
    const probe = await startApp()
    const port = probe.port
    await probe.close()
    const { url, store } = await listen(`127.0.0.1:${port}`)
    const body = chargeEvent('evt_down', 'charge.paid_pending_settlement')
    const first = await post(url, body, signedHeaders(body, { id: 'evt_down' }))
    expect(first.status).toBe(502)
    expect(first.json.error).toMatchObject({ code: 'forward_failed' })
    expect(store.isDelivered('evt_down')).toBe(false)

    const target = await startApp(undefined)
    cleanups.push(() => target.close())
    const again = listenerTo(`127.0.0.1:${target.port}`, { store })
    const url2 = await again.start()
    cleanups.push(() => again.close())
    const retry = await post(url2, body, signedHeaders(body, { id: 'evt_down' }))
    expect(retry.status).toBe(200)
    expect(target.received).toHaveLength(1)
    expect(store.list({ eventId: 'evt_down' }).map((r) => [r.outcome, r.attempt])).toEqual([
      ['forwarded', 2],
      ['failed', 1],
    ])
  })

  it('answers 502 when the app answers 500 or a redirect, so that the service retries', async () => {
    let status = 500
    const target = await app((_r, res) => {
      res.statusCode = status
      if (status === 302) res.setHeader('location', '/elsewhere')
      res.end('nope')
    })
    const { url, store, seen } = await listen(`127.0.0.1:${target.port}`)
    const body = chargeEvent('evt_500', 'charge.settled')
    const a = await post(url, body, signedHeaders(body, { id: 'evt_500' }))
    expect(a.status).toBe(502)
    status = 302
    const b = await post(url, body, signedHeaders(body, { id: 'evt_500' }))
    expect(b.status).toBe(502)
    expect(store.isDelivered('evt_500')).toBe(false)
    expect(seen.map((d) => [d.record.outcome, d.record.forwardStatus])).toEqual([
      ['failed', 500],
      ['failed', 302],
    ])
    expect(seen[1]!.record.error).toContain('redirect')
  })

  it('answers 504 when the app is slower than the forward timeout', async () => {
    const release = deferred()
    const target = await app((_r, res) => void release.promise.then(() => res.end('late')))
    const { url, store } = await listen(`127.0.0.1:${target.port}`, {}, { timeoutMs: 150 })
    const body = chargeEvent('evt_slow', 'charge.settled')
    const answer = await post(url, body, signedHeaders(body, { id: 'evt_slow' }))
    release.resolve()
    expect(answer.status).toBe(504)
    expect(answer.json.error).toMatchObject({ code: 'forward_timeout' })
    expect(store.isDelivered('evt_slow')).toBe(false)
    expect(store.list()[0]).toMatchObject({ outcome: 'failed', answeredStatus: 504 })
  })

  it('forwards a duplicate once and answers it 2xx', async () => {
    const target = await app()
    const { url, seen } = await listen(`127.0.0.1:${target.port}`)
    const body = chargeEvent('evt_dup', 'charge.settled')
    expect((await post(url, body, signedHeaders(body, { id: 'evt_dup' }))).status).toBe(200)
    const second = await post(url, body, signedHeaders(body, { id: 'evt_dup' }))
    expect(second.status).toBe(200)
    expect(second.json).toMatchObject({ duplicate: true })
    expect(target.received).toHaveLength(1)
    expect(seen.map((d) => d.record.outcome)).toEqual(['forwarded', 'duplicate'])
  })

  it('forwards concurrent copies of one event once', async () => {
    const release = deferred()
    const target = await app((_r, res) => void release.promise.then(() => res.end('ok')))
    const { url, listener } = await listen(`127.0.0.1:${target.port}`)
    const body = chargeEvent('evt_race', 'charge.settled')
    const answers = [post(url, body, signedHeaders(body, { id: 'evt_race' })), post(url, body, signedHeaders(body, { id: 'evt_race' }))]
    // Both are in the listener before the app answers the first.
    while (listener.inProgress < 2) await new Promise((r) => setImmediate(r))
    release.resolve()
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200])
    expect(target.received).toHaveLength(1)
  })

  it('remembers delivered events across a restart (same database file)', async () => {
    const target = await app()
    const path = join(process.env.SVC_CONFIG_DIR!, 'restart-events.db')
    const body = chargeEvent('evt_restart', 'charge.settled')
    const store1 = await EventStore.open({ path })
    const first = listenerTo(`127.0.0.1:${target.port}`, { store: store1 })
    expect((await post(await first.start(), body, signedHeaders(body, { id: 'evt_restart' }))).status).toBe(200)
    await first.close()
    store1.close()

    const store2 = await EventStore.open({ path })
    cleanups.push(() => store2.close())
    const { url } = await listen(`127.0.0.1:${target.port}`, { store: store2 })
    const again = await post(url, body, signedHeaders(body, { id: 'evt_restart' }))
    expect(again.status).toBe(200)
    expect(again.json).toMatchObject({ duplicate: true })
    expect(target.received).toHaveLength(1)
  })

  it('hears of an event another process forwarded through the same log (a replay, a second listener): not forwarded again', async () => {
    const target = await app()
    const path = join(process.env.SVC_CONFIG_DIR!, 'shared-events.db')
    const store = await EventStore.open({ path })
    cleanups.push(() => store.close())
    const { url, seen } = await listen(`127.0.0.1:${target.port}`, { store })
    const body = Buffer.from(chargeEvent('evt_elsewhere', 'charge.settled'))
    // A first event: the listener's index of the log is loaded by now.
    const first = chargeEvent('evt_here', 'charge.settled')
    expect((await post(url, first, signedHeaders(first, { id: 'evt_here' }))).status).toBe(200)
    const other = await EventStore.open({ path })
    other.record({
      receivedAt: '2026-11-22T12:00:00.000Z',
      source: 'replay',
      eventId: 'evt_elsewhere',
      headers: {},
      body,
      verification: 'verified',
      outcome: 'forwarded',
      answeredStatus: 200,
      forwardUrl: `http://127.0.0.1:${target.port}/`,
    })
    await other.committed()
    other.close()
    const again = await post(url, body, signedHeaders(body, { id: 'evt_elsewhere' }))
    expect(again.json).toMatchObject({ duplicate: true })
    expect(target.received).toHaveLength(1)
    expect(seen.map((d) => [d.record.eventId, d.record.outcome, d.record.attempt])).toEqual([
      ['evt_here', 'forwarded', 1],
      ['evt_elsewhere', 'duplicate', 1],
    ])
  })

  it('answers 2xx only once the delivered mark is committed to the log (a crash after the answer cannot forget it)', async () => {
    const target = await app()
    const path = join(process.env.SVC_CONFIG_DIR!, 'commit-events.db')
    const store = await EventStore.open({ path })
    cleanups.push(() => store.close())
    // Hold the log's commit: the answer must wait for it.
    const gate = deferred()
    const committed = store.committed.bind(store)
    store.committed = () => gate.promise.then(committed)
    const { url, listener } = await listen(`127.0.0.1:${target.port}`, { store })
    const body = chargeEvent('evt_commit', 'charge.settled')
    let answered = false
    const answer = post(url, body, signedHeaders(body, { id: 'evt_commit' })).then((a) => ((answered = true), a))
    await vi.waitFor(() => expect(target.received).toHaveLength(1))
    while (listener.inProgress > 0 && store.list({ eventId: 'evt_commit' }).length === 0) await new Promise((r) => setImmediate(r))
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
    expect(answered).toBe(false)
    gate.resolve()
    expect((await answer).status).toBe(200)
    // Another connection (another process after a crash) sees the mark.
    const other = await EventStore.open({ path })
    cleanups.push(() => other.close())
    expect(other.isDelivered('evt_commit')).toBe(true)
  })

  it.each(['normal', 'full'] as const)('group commit (durability %s): concurrent deliveries share one transaction, and each is answered only once the commit that holds it is done', async (durability) => {
    const path = join(process.env.SVC_CONFIG_DIR!, `group-${durability}.db`)
    const store = await EventStore.open({ path, durability })
    // Another connection, as a process opening the log after a crash would: it sees committed rows only.
    const other = await EventStore.open({ path })
    cleanups.push(() => (other.close(), store.close()))
    // The app's answers are held, then all let go at once: the records land in one event-loop turn.
    const held: Array<() => void> = []
    const forwarder = {
      timeoutMs: 10_000,
      send: () => new Promise<ForwardResult>((resolve) => held.push(() => resolve({ ok: true, status: 200, latencyMs: 1 }))),
    } as unknown as Forwarder
    const listener = new WebhookListener({ targets: [{ pattern: null, url: new URL('http://127.0.0.1:1/') }], secrets: [SECRET], store, forwarder })
    const ids = Array.from({ length: 8 }, (_, i) => `evt_group_${i}`)
    // For each answer: was its event's delivered mark committed (seen by the other connection) when it left?
    const committedWhenAnswered: boolean[] = []
    const answers = ids.map((id) => {
      const body = chargeEvent(id, 'charge.settled')
      return listener.handle({ method: 'POST', headers: signedHeaders(body, { id }), body: Buffer.from(body) }).then((answer) => {
        committedWhenAnswered.push(other.isDelivered(id))
        return answer
      })
    })
    await vi.waitFor(() => expect(held).toHaveLength(ids.length))
    const commitsBefore = store.commits
    for (const release of held) release()
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual(ids.map(() => 200))
    expect(committedWhenAnswered).toEqual(ids.map(() => true))
    expect(store.commits - commitsBefore).toBe(1)
  })

  it('keeps one connection to the app across deliveries, and gets through after the app restarts on the same port', async () => {
    const sockets: number[] = []
    const serve = () => {
      const server = createServer((req, res) => {
        sockets.push(req.socket.remotePort!)
        req.resume().on('end', () => res.end('ok'))
      })
      cleanups.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))
      return server
    }
    const first = serve()
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve))
    const port = (first.address() as AddressInfo).port
    const { url } = await listen(`127.0.0.1:${port}`)
    for (const id of ['evt_ka1', 'evt_ka2', 'evt_ka3']) {
      const body = chargeEvent(id, 'charge.settled')
      expect((await post(url, body, signedHeaders(body, { id }))).status).toBe(200)
    }
    expect(new Set(sockets).size).toBe(1)
    // The app restarts: the kept connection is gone, the next delivery opens a new one.
    first.closeAllConnections()
    await new Promise<void>((resolve) => first.close(() => resolve()))
    const second = serve()
    await new Promise<void>((resolve) => second.listen(port, '127.0.0.1', resolve))
    const body = chargeEvent('evt_ka4', 'charge.settled')
    expect((await post(url, body, signedHeaders(body, { id: 'evt_ka4' }))).status).toBe(200)
    expect(sockets).toHaveLength(4)
  })

  it('rejects a bad signature with 400 and the reason, records it, and forwards nothing', async () => {
    const target = await app()
    const { url, store } = await listen(`127.0.0.1:${target.port}`)
    const body = chargeEvent('evt_forged', 'charge.settled')
    const answer = await post(url, body, signedHeaders(body, { id: 'evt_forged', secret: 'whsec_someone_else_123456' }))
    expect(answer.status).toBe(400)
    expect(answer.json.error).toMatchObject({ code: 'invalid_request', details: [{ field: 'X-SVC-Signature' }] })
    expect(String((answer.json.error as { message: string }).message)).toContain('signature_mismatch')
    expect(target.received).toHaveLength(0)
    expect(store.list()[0]).toMatchObject({ outcome: 'rejected', verification: 'failed', verifyReason: 'signature_mismatch', answeredStatus: 400 })
  })

  it('answers 413 to a body over the limit', async () => {
    const target = await app()
    const { url, store } = await listen(`127.0.0.1:${target.port}`, { maxBodyBytes: 64 })
    const body = chargeEvent('evt_big', 'charge.settled')
    expect((await post(url, body, signedHeaders(body))).status).toBe(413)
    expect(target.received).toHaveLength(0)
    expect(store.list()[0]).toMatchObject({ outcome: 'rejected', answeredStatus: 413 })
  })

  it('reaches an app that listens on IPv6 only through localhost', async () => {
    const target = await app(undefined, '::1')
    const { url } = await listen(`localhost:${target.port}/v6`)
    const body = chargeEvent('evt_v6', 'charge.settled')
    expect((await post(url, body, signedHeaders(body, { id: 'evt_v6' }))).status).toBe(200)
    expect(target.received.map((r) => r.path)).toEqual(['/v6'])
    expect(target.received[0]!.headers.host).toBe(`localhost:${target.port}`)
  })

  it('finishes a delivery in flight when it is stopped', async () => {
    const release = deferred()
    const target = await app((_r, res) => void release.promise.then(() => res.end('ok')))
    const store = await EventStore.open({ path: ':memory:' })
    const listener = listenerTo(`127.0.0.1:${target.port}`, { store })
    const url = await listener.start()
    const body = chargeEvent('evt_stop', 'charge.settled')
    const answer = post(url, body, signedHeaders(body, { id: 'evt_stop' }))
    while (listener.inProgress < 1) await new Promise((r) => setImmediate(r))
    const closing = listener.close()
    release.resolve()
    expect((await answer).status).toBe(200)
    await closing
    expect(store.isDelivered('evt_stop')).toBe(true)
    store.close()
  })
})

const send = (url: string, id: string, type: string) => {
  const body = chargeEvent(id, type)
  return post(url, body, signedHeaders(body, { id }))
}
const ids = (a: TargetApp) => a.received.map((r) => r.headers['x-svc-event-id'])

describe('the listener with several targets', () => {
  it('sends each event to its target only, answers from that target, and names the target on each line', async () => {
    const rest = await app()
    const split = await app()
    const { url, seen } = await listen([rest.url, `charge.split.*=${split.url}/split`])
    expect((await send(url, 'evt_r1', 'charge.settled')).status).toBe(200)
    expect((await send(url, 'evt_s1', 'charge.split.completed')).status).toBe(200)
    expect((await send(url, 'evt_r2', 'withdrawal.paid')).status).toBe(200)
    expect(ids(rest)).toEqual(['evt_r1', 'evt_r2'])
    expect(ids(split)).toEqual(['evt_s1'])
    expect(split.received[0]!.path).toBe('/split')
    expect(seen.map((d) => [d.record.eventId, deliveryLine(d).target, deliveryLine(d).route])).toEqual([
      ['evt_r1', `${rest.url}/`, null],
      ['evt_s1', `${split.url}/split`, 'charge.split.*'],
      ['evt_r2', `${rest.url}/`, null],
    ])
  })

  it('names target and route alike on the NDJSON line and in `webhooks events --json` (trial report item 2)', async () => {
    const rest = await app()
    const money = await app()
    const { url, seen, store } = await listen([rest.url, `charge.settled,charge.refunded=${money.url}`])
    expect((await send(url, 'evt_m1', 'charge.settled')).status).toBe(200)
    expect((await send(url, 'evt_r1', 'withdrawal.paid')).status).toBe(200)
    const line = (id: string) => deliveryLine(seen.find((d) => d.record.eventId === id)!)
    const logged = (id: string) => deliveryJson(store.list().find((r) => r.eventId === id)!)
    expect(line('evt_m1')).toMatchObject({ target: `${money.url}/`, route: 'charge.settled,charge.refunded' })
    expect(line('evt_r1')).toMatchObject({ target: `${rest.url}/`, route: null })
    for (const id of ['evt_m1', 'evt_r1']) {
      expect({ target: logged(id).target, route: logged(id).route }).toEqual({ target: line(id).target, route: line(id).route })
    }
  })

  it("answers the service from the event's own target: the other app being down does not matter", async () => {
    const up = await app()
    const probe = await startApp()
    const down = probe.url
    await probe.close()
    const { url, store } = await listen([`${up.url}`, `charge.settled=${down}`])
    expect((await send(url, 'evt_up', 'charge.awaiting_payment')).status).toBe(200)
    const failed = await send(url, 'evt_down', 'charge.settled')
    expect(failed.status).toBe(502)
    expect(store.isDelivered('evt_down')).toBe(false)
    expect(ids(up)).toEqual(['evt_up'])
  })

  it('acknowledges (2xx) and does not forward an event no pattern matches when there is no default target', async () => {
    const split = await app()
    const { url, seen, store } = await listen([`charge.split.*=${split.url}`])
    const answer = await send(url, 'evt_none', 'charge.settled')
    expect(answer).toMatchObject({ status: 200, json: { received: true, skipped: true } })
    expect(split.received).toHaveLength(0)
    expect(deliveryLine(seen[0]!)).toMatchObject({ eventId: 'evt_none', outcome: 'skipped', status: 200, target: null, forwardStatus: null })
    expect(store.list()[0]).toMatchObject({ outcome: 'skipped', forwardUrl: undefined })
    expect(store.isDelivered('evt_none')).toBe(false)
  })

  it("adds every --header to each forwarded request, leaving the delivery's own headers as they came", async () => {
    const a = await app()
    const b = await app()
    const { url, store } = await listen([a.url, `charge.settled=${b.url}`], {}, { headers: parseForwardHeaders(['Authorization: Bearer dev', 'X-Tenant: t1']) })
    await send(url, 'evt_h1', 'charge.awaiting_payment')
    await send(url, 'evt_h2', 'charge.settled')
    for (const got of [a.received[0]!, b.received[0]!]) {
      expect(got.headers).toMatchObject({ authorization: 'Bearer dev', 'x-tenant': 't1', 'content-type': 'application/json' })
      expect(got.headers['x-svc-signature']).toContain('v1=')
    }
    // The log keeps what the service sent, not the added (often secret) headers.
    expect(store.list().every((r) => r.headers.authorization === undefined)).toBe(true)
  })

  it('dedups per target: an event one app has is still sent, once, to the app it routes to after a restart', async () => {
    const store = await EventStore.open({ path: ':memory:' })
    cleanups.push(() => store.close())
    const a = await app()
    const b = await app()
    const first = await listen([a.url], { store })
    expect((await send(first.url, 'evt_moved', 'charge.settled')).status).toBe(200)
    expect((await send(first.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ duplicate: true })
    // Restarted with charge.settled routed to another app: that app has not had it yet.
    const second = await listen([a.url, `charge.settled=${b.url}`], { store })
    expect((await send(second.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ forwarded: true })
    expect((await send(second.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ duplicate: true })
    expect((await send(second.url, 'evt_moved', 'charge.settled')).json).toMatchObject({ duplicate: true })
    expect(ids(a)).toEqual(['evt_moved'])
    expect(ids(b)).toEqual(['evt_moved'])
    expect(store.isDelivered('evt_moved', `${a.url}/`)).toBe(true)
    expect(store.isDelivered('evt_moved', `${b.url}/`)).toBe(true)
  })

  it('shares one forward between concurrent copies of an event, per target', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const slow = await startApp((_r, res) => void held.then(() => res.end('ok')))
    cleanups.push(() => slow.close())
    const { url } = await listen([`charge.settled=${slow.url}`])
    const copies = [send(url, 'evt_twice', 'charge.settled'), send(url, 'evt_twice', 'charge.settled')]
    await expect.poll(() => slow.received.length).toBe(1)
    release()
    expect((await Promise.all(copies)).map((a) => a.status)).toEqual([200, 200])
    expect(ids(slow)).toEqual(['evt_twice'])
  })
})

// The verification path, without HTTP: every delivery goes through `handle`, with an injected
// clock and a forwarder that records what it would have sent.
describe('WebhookListener.handle', () => {
  const NOW = 1_790_000_000
  let store: EventStore
  let sent: Array<{ body: Uint8Array; headers: Record<string, string> }>

  const fakeForwarder = {
    timeoutMs: 10_000,
    async send(_url: URL, body: Uint8Array, headers: Record<string, string>) {
      sent.push({ body, headers })
      return { ok: true, status: 200, latencyMs: 1 }
    },
  } as unknown as Forwarder

  beforeEach(async () => {
    store = await EventStore.open({ path: ':memory:' })
    sent = []
  })
  afterEach(() => store.close())

  function verifying(opts: Partial<ListenerOptions> = {}) {
    return new WebhookListener({ targets: [{ pattern: null, url: new URL('http://127.0.0.1:1/') }], secrets: [SECRET], store, forwarder: fakeForwarder, now: () => NOW * 1000, ...opts })
  }

  const deliver = (l: WebhookListener, body: Uint8Array | string, headers: Record<string, string>) => l.handle({ method: 'POST', headers, body: typeof body === 'string' ? Buffer.from(body) : body })

  describe('listener verification', () => {
    it('forwards any signed bytes unchanged (also non-UTF-8), and rejects them once one byte changes', async () => {
      // Each run is a new event: fast-check repeats small bodies ([0] often), and an id taken from
      // the body alone made the repeat a duplicate, answered from the log and not forwarded.
      let run = 0
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 512 }), fc.nat(), async (bytes, at) => {
          sent = []
          const l = verifying()
          const body = Buffer.from(bytes)
          const headers = signedHeaders(body, { timestamp: NOW, id: `evt_${++run}_${sha256(body).slice(0, 16)}` })
          const ok = await deliver(l, body, headers)
          expect(ok.status).toBe(200)
          expect(sha256(sent[0]!.body)).toBe(sha256(body))
          const tampered = Buffer.from(body)
          tampered[at % tampered.length] = tampered[at % tampered.length]! ^ 0x01
          const bad = await deliver(l, tampered, headers)
          expect(bad.status).toBe(400)
          expect(bad.record?.verifyReason).toBe('signature_mismatch')
          expect(sent).toHaveLength(1)
        }),
        { numRuns: 60 },
      )
    })

    it('rejects a tampered signature or timestamp', async () => {
      const l = verifying()
      const body = chargeEvent('evt_t', 'charge.settled')
      const headers = signedHeaders(body, { timestamp: NOW })
      const flipped = headers['x-svc-signature']!.replace(/.$/, (c) => (c === '0' ? '1' : '0'))
      expect((await deliver(l, body, { ...headers, 'x-svc-signature': flipped })).record?.verifyReason).toBe('signature_mismatch')
      expect((await deliver(l, body, { ...headers, 'x-svc-timestamp': String(NOW + 1) })).record?.verifyReason).toBe('signature_mismatch')
      expect(sent).toHaveLength(0)
    })

    it('rejects timestamps more than 300 s away either way, and accepts the edges', async () => {
      const l = verifying()
      // One event per timestamp, so none is answered as a duplicate of another.
      const at = async (ts: number) => {
        const body = chargeEvent(`evt_${ts}`, 'charge.settled')
        return (await deliver(l, body, signedHeaders(body, { timestamp: ts }))).record!
      }
      expect((await at(NOW - 301)).verifyReason).toBe('timestamp_too_old')
      expect((await at(NOW + 301)).verifyReason).toBe('timestamp_in_future')
      expect((await at(NOW - 300)).verification).toBe('verified')
      expect((await at(NOW + 300)).verification).toBe('verified')
    })

    it('accepts a delivery signed with any of several secrets (rotation)', async () => {
      const l = verifying({ secrets: ['whsec_old_secret_000000', SECRET] })
      const body = chargeEvent('evt_rot', 'charge.settled')
      const answer = await deliver(l, body, signedHeaders(body, { timestamp: NOW }))
      expect(answer.status).toBe(200)
      expect(answer.record?.verification).toBe('verified')
    })

    it('names what is wrong with missing and malformed headers', async () => {
      const l = verifying()
      const body = chargeEvent('evt_m', 'charge.settled')
      const good = signedHeaders(body, { timestamp: NOW })
      const cases: Array<[Record<string, string>, string]> = [
        [{ ...good, 'x-svc-signature': '' }, 'malformed_signature'],
        [{ ...good, 'x-svc-signature': 'sha256=abc' }, 'malformed_signature'],
        [{ ...good, 'x-svc-signature': good['x-svc-signature']!.toUpperCase().replace('V1', 'v1') }, 'malformed_signature'],
        [{ ...good, 'x-svc-timestamp': 'yesterday' }, 'malformed_timestamp'],
      ]
      const { 'x-svc-signature': _s, ...noSig } = good
      const { 'x-svc-timestamp': _t, ...noTs } = good
      cases.push([noSig, 'missing_signature'], [noTs, 'missing_timestamp'])
      for (const [headers, reason] of cases) {
        const answer = await deliver(l, body, headers)
        expect(answer.status, reason).toBe(400)
        expect(answer.record?.verifyReason).toBe(reason)
        expect(JSON.stringify(answer.body)).toContain(reason)
      }
      expect(sent).toHaveLength(0)
    })

    it('forwards unknown event types like any other', async () => {
      const l = verifying()
      const body = JSON.stringify({ id: 'evt_new', type: 'invoice.created', createdAt: '2026-11-22T12:00:00Z', environment: 'test', data: {} })
      expect((await deliver(l, body, signedHeaders(body, { timestamp: NOW, type: 'invoice.created' }))).status).toBe(200)
      expect(sent).toHaveLength(1)
    })

    it('answers 2xx to filtered-out events, records them as skipped and forwards nothing', async () => {
      const l = verifying({ events: ['charge.settled', 'withdrawal.*'] })
      const skip = chargeEvent('evt_skip', 'charge.awaiting_payment')
      const answer = await deliver(l, skip, signedHeaders(skip, { timestamp: NOW }))
      expect(answer.status).toBe(200)
      expect(answer.record?.outcome).toBe('skipped')
      const w = JSON.stringify({ id: 'evt_w', type: 'withdrawal.paid', createdAt: '2026-11-22T12:00:00Z', environment: 'test', data: { withdrawal: { id: 'w1' } } })
      expect((await deliver(l, w, signedHeaders(w, { timestamp: NOW }))).record?.outcome).toBe('forwarded')
      expect(sent).toHaveLength(1)
    })

    it('under --skip-verify forwards a forged delivery but records it as unverified, with the reason', async () => {
      const l = verifying({ skipVerify: true })
      const body = chargeEvent('evt_forged', 'charge.settled')
      const answer = await deliver(l, body, { ...signedHeaders(body, { timestamp: NOW }), 'x-svc-signature': signatureHeader('whsec_wrong_0000000000', NOW, body) })
      expect(answer.status).toBe(200)
      expect(answer.record).toMatchObject({ verification: 'skipped', verifyReason: 'signature_mismatch', outcome: 'forwarded' })
      expect(sent).toHaveLength(1)
    })

    it('refuses other methods than POST', async () => {
      expect((await verifying().handle({ method: 'GET', headers: {}, body: new Uint8Array() })).status).toBe(405)
    })
  })
})
