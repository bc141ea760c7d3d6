import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import type { ForwarderOptions } from '../../../src/lib/webhooks/forward.js'
import { type ListenerDelivery, type ListenerOptions, WebhookListener } from '../../../src/lib/webhooks/listener.js'
import { chargeEvent, deferred, forwarding, post, SECRET, sha256, signedHeaders, startApp, type TargetApp } from '../../helpers/webhooks.js'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!()
})

/** A listener forwarding to `forward` (`forwarder` options: the deadline, the headers), closed after the test. */
async function listen(forward: string, opts: Partial<ListenerOptions> = {}, forwarder: ForwarderOptions = {}) {
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
function listenerTo(forward: string, opts: Partial<ListenerOptions> & Pick<ListenerOptions, 'store'>, forwarderOpts: ForwarderOptions = {}): WebhookListener {
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
