import { readFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { performance } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { openSqliteRelayStore } from '../../../../src/lib/relay/store/sqlite.js'
import { RelayStoreUnavailable, type RelayStore } from '../../../../src/lib/relay/store/types.js'
import { signatureHeader } from '../../../../src/lib/webhooks/signature.js'
import { ack, eventBody, openStream, postSigned, RELAY_SECRET, rawRequest, type StreamFrame, startTestRelay, type TestRelay } from '../../../helpers/relay.js'

let relay: TestRelay
afterEach(async () => {
  await relay?.close()
})

const isDelivery = (f: StreamFrame) => f.event === 'delivery'
function deliveryOf(f: StreamFrame) {
  if (f.event !== 'delivery') throw new Error(`expected a delivery, got ${f.event}`)
  return f.data
}
async function stored(r: TestRelay, channel = 'team'): Promise<number> {
  return (await r.store.status(new Date(r.clock.now()))).channels.find((c) => c.name === channel)?.deliveries ?? 0
}

describe('relay ingress (issue 37)', () => {
  it('stores a verified delivery before answering 2xx and streams its raw bytes, then live ones', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const body = eventBody('evt_1')
    const posted = await postSigned(relay.url, 'team', body)
    expect(posted.status).toBe(200)
    expect(await stored(relay)).toBe(1)
    const stream = await openStream(relay.url, token)
    expect(stream.status).toBe(200)
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(await stream.next((f) => f.event === 'ready')).toMatchObject({ data: { token: 'alice', channel: 'team', backlog: 1 } })
    const d = deliveryOf(await stream.next(isDelivery))
    expect(Buffer.from(d.body, 'base64').toString('utf8')).toBe(body)
    expect(d).toMatchObject({ attempt: 1, arrivedAt: new Date(relay.clock.now()).toISOString() })
    expect(d.headers).toMatchObject({ 'x-svc-event-id': 'evt_1', 'x-svc-event-type': 'charge.paid', 'content-type': 'application/json' })
    expect(d.headers['x-svc-signature']).toBeDefined()
    expect((await ack(relay.url, token, [d.seq])).status).toBe(204)
    await postSigned(relay.url, 'team', eventBody('evt_2'))
    expect(deliveryOf(await stream.next(isDelivery)).headers['x-svc-event-id']).toBe('evt_2')
    stream.close()
  })

  it('refuses forged, stale, re-serialised, unsigned and mismatched posts with 401 and stores nothing', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const body = eventBody('evt_1')
    const now = Math.floor(relay.clock.now() / 1000)
    const forged = await postSigned(relay.url, 'team', body, { secret: 'whsec_not_the_secret_00000000' })
    const stale = await postSigned(relay.url, 'team', body, { timestamp: now - 301 })
    const reserialised = await rawRequest(`${relay.url}/hooks/team`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-timestamp': String(now), 'x-svc-signature': signatureHeader(RELAY_SECRET, now, body), 'x-svc-event-id': 'evt_1', 'x-svc-event-type': 'charge.paid' },
      body: JSON.stringify(JSON.parse(body), null, 2),
    })
    const unsigned = await rawRequest(`${relay.url}/hooks/team`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const otherId = await postSigned(relay.url, 'team', body, { headers: { 'x-svc-event-id': 'evt_other' } })
    for (const r of [forged, stale, reserialised, unsigned, otherId]) {
      expect(r.status).toBe(401)
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'unauthorized', message: 'the delivery could not be verified' } })
    }
    expect(await stored(relay)).toBe(0)
    expect(relay.server.metrics.refused.get('signature_mismatch') ?? 0).toBeGreaterThan(0)
  })

  it('counts the signature age from arrival on the relay clock (299 s old passes)', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const ts = Math.floor(relay.clock.now() / 1000) - 299
    expect((await postSigned(relay.url, 'team', eventBody('evt_1'), { timestamp: ts })).status).toBe(200)
  })

  it('answers an unknown channel exactly as a bad signature, so channel names cannot be probed', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const unknown = await postSigned(relay.url, 'nope', eventBody('evt_1'))
    const bad = await postSigned(relay.url, 'team', eventBody('evt_1'), { secret: 'whsec_not_the_secret_00000000' })
    expect(unknown.status).toBe(bad.status)
    const strip = (b: string) => ({ ...JSON.parse(b).error, requestId: undefined })
    expect(strip(unknown.body)).toEqual(strip(bad.body))
  })

  it('refuses a body over 1 MiB with 413 and stores nothing', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const big = Buffer.alloc(1024 * 1024 + 1, 'a')
    const r = await postSigned(relay.url, 'team', big)
    expect(r.status).toBe(413)
    expect(await stored(relay)).toBe(0)
  })

  it('stores a panel resend (same event id) and delivers it again', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    const stream = await openStream(relay.url, token)
    const a = deliveryOf(await stream.next(isDelivery))
    const b = deliveryOf(await stream.next(isDelivery))
    expect([a.headers['x-svc-event-id'], b.headers['x-svc-event-id']]).toEqual(['evt_1', 'evt_1'])
    expect(b.seq).toBeGreaterThan(a.seq)
    stream.close()
  })

  it('answers 503 (so the service retries) when the store cannot commit, and /healthz says 503', async () => {
    const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/svc-relay-broken-`)
    const real = await openSqliteRelayStore({ dir })
    let broken = false
    const store: RelayStore = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      ingest: (d: Parameters<RelayStore['ingest']>[0]) => (broken ? Promise.reject(new RelayStoreUnavailable('disk full')) : real.ingest(d)),
      healthy: async () => !broken && (await real.healthy()),
    })
    relay = await startTestRelay({ store })
    await relay.addChannel('team')
    expect((await rawRequest(`${relay.url}/healthz`)).status).toBe(200)
    broken = true
    const r = await postSigned(relay.url, 'team', eventBody('evt_1'))
    expect(r.status).toBe(503)
    expect(r.headers['retry-after']).toBeDefined()
    expect((await rawRequest(`${relay.url}/healthz`)).status).toBe(503)
    broken = false
    expect(await stored(relay)).toBe(0)
  })
})

describe('relay streams (issue 37)', () => {
  it('a token of channel A never sees a delivery of channel B, and cannot ack it', async () => {
    relay = await startTestRelay()
    await relay.addChannel('a')
    await relay.addChannel('b', { secrets: ['whsec_channel_b_secret_000000'] })
    const ta = await relay.createToken('ta', 'a')
    const tb = await relay.createToken('tb', 'b')
    await postSigned(relay.url, 'b', eventBody('evt_b'), { secret: 'whsec_channel_b_secret_000000' })
    await postSigned(relay.url, 'a', eventBody('evt_a'))
    const sa = await openStream(relay.url, ta)
    const sb = await openStream(relay.url, tb)
    const da = deliveryOf(await sa.next(isDelivery))
    const db = deliveryOf(await sb.next(isDelivery))
    expect(da.headers['x-svc-event-id']).toBe('evt_a')
    expect(db.headers['x-svc-event-id']).toBe('evt_b')
    expect(sa.frames.filter(isDelivery)).toHaveLength(1)
    await ack(relay.url, ta, [db.seq])
    expect(await relay.store.backlog('tb')).toBe(1)
    sa.close()
    sb.close()
  })

  it('routes by --only and --match: excluded deliveries are acked by the relay, never sent', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const alice = await relay.createToken('alice', 'team', { only: ['charge.*'], match: [{ path: 'data.charge.externalId', glob: 'alice-*' }] })
    await relay.server.tick() // the server learns the new token (its poll does this every pollMs)
    await postSigned(relay.url, 'team', eventBody('evt_bob', 'charge.paid', { externalId: 'bob-1' }))
    await postSigned(relay.url, 'team', eventBody('evt_alice', 'charge.paid', { externalId: 'alice-1' }))
    await postSigned(relay.url, 'team', eventBody('evt_w', 'withdrawal.completed', { externalId: 'alice-2' }))
    const s = await openStream(relay.url, alice)
    expect(await s.next((f) => f.event === 'ready')).toMatchObject({ data: { backlog: 1 } })
    expect(deliveryOf(await s.next(isDelivery)).headers['x-svc-event-id']).toBe('evt_alice')
    await postSigned(relay.url, 'team', eventBody('evt_bob2', 'charge.paid', { externalId: 'bob-2' }))
    await postSigned(relay.url, 'team', eventBody('evt_alice2', 'charge.paid', { externalId: 'alice-3' }))
    expect(deliveryOf(await s.next(isDelivery)).headers['x-svc-event-id']).toBe('evt_alice2')
    expect(s.frames.filter(isDelivery)).toHaveLength(2)
    s.close()
  })

  it('keeps at most a window of unacked deliveries in flight per stream; an ack lets the next one go', async () => {
    relay = await startTestRelay({ window: 2 })
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    for (const id of ['evt_1', 'evt_2', 'evt_3']) await postSigned(relay.url, 'team', eventBody(id))
    const s = await openStream(relay.url, token)
    const first = deliveryOf(await s.next(isDelivery))
    await s.next(isDelivery)
    await relay.server.tick()
    expect(s.frames.filter(isDelivery)).toHaveLength(2)
    await ack(relay.url, token, [first.seq])
    expect(deliveryOf(await s.next(isDelivery)).headers['x-svc-event-id']).toBe('evt_3')
    s.close()
  })

  it('a second connection with the same token replaces the first, which is told why', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const first = await openStream(relay.url, token)
    await first.next((f) => f.event === 'ready')
    const second = await openStream(relay.url, token)
    await second.next((f) => f.event === 'ready')
    expect(await first.next((f) => f.event === 'closing')).toMatchObject({ data: { reason: 'replaced' } })
    await first.ended
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    expect(deliveryOf(await second.next(isDelivery)).headers['x-svc-event-id']).toBe('evt_1')
    second.close()
  })

  it('closes a revoked token’s open stream within 1 s when another process revokes it', async () => {
    relay = await startTestRelay({ pollMs: 500 })
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const s = await openStream(relay.url, token)
    await s.next((f) => f.event === 'ready')
    // The admin command is another process: its own handle on the same file.
    const admin = await openSqliteRelayStore({ dir: relay.dir })
    const started = performance.now()
    await admin.revokeToken('alice', new Date().toISOString())
    await admin.close()
    expect(await s.next((f) => f.event === 'closing')).toMatchObject({ data: { reason: 'revoked' } })
    expect(performance.now() - started).toBeLessThan(1000)
    await s.ended
    const again = await openStream(relay.url, token)
    expect(again.status).toBe(401)
  })

  it('sends an unacked delivery again after the backoff (10 s on the relay clock), and on a new stream', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const s = await openStream(relay.url, token)
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    const first = deliveryOf(await s.next(isDelivery))
    expect(first.attempt).toBe(1)
    relay.clock.advance(10_001)
    const second = deliveryOf(await s.next(isDelivery))
    expect(second).toMatchObject({ seq: first.seq, attempt: 2 })
    s.close()
    await s.ended
    const s2 = await openStream(relay.url, token)
    expect(deliveryOf(await s2.next(isDelivery))).toMatchObject({ seq: first.seq, attempt: 3 })
    await ack(relay.url, token, [first.seq])
    relay.clock.advance(60_000)
    await relay.server.tick()
    expect(s2.frames.filter(isDelivery)).toHaveLength(1)
    s2.close()
  })

  it('tells a gap when retention pruned deliveries the token had not acked — on the open stream and never silently', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team', { retentionMs: 60_000 })
    const token = await relay.createToken('alice', 'team')
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    await postSigned(relay.url, 'team', eventBody('evt_2'))
    const s = await openStream(relay.url, token)
    await s.next(isDelivery)
    await s.next(isDelivery)
    relay.clock.advance(120_000)
    const result = await relay.server.prune()
    expect(result.lostByToken).toEqual({ alice: 2 })
    expect(await s.next((f) => f.event === 'gap')).toMatchObject({ data: { lost: 2, reason: 'retention' } })
    s.close()
  })

  it('tells the gap on the next stream when the token was offline', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team', { retentionMs: 60_000 })
    const token = await relay.createToken('alice', 'team')
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    relay.clock.advance(120_000)
    await relay.server.prune()
    const s = await openStream(relay.url, token)
    expect(s.frames.length === 0 || s.frames[0]!.event === 'ready').toBe(true)
    expect(await s.next((f) => f.event === 'gap')).toMatchObject({ data: { lost: 1 } })
    s.close()
  })
})

describe('relay access (issue 37)', () => {
  it('refuses a missing, malformed or unknown token with 401, and rate-limits an address that keeps failing (429 + Retry-After)', async () => {
    relay = await startTestRelay({ authFailures: { limit: 3, windowMs: 60_000 } })
    await relay.addChannel('team')
    const good = await relay.createToken('alice', 'team')
    expect((await openStream(relay.url, undefined)).status).toBe(401)
    expect((await openStream(relay.url, 'svcrelay_short')).status).toBe(401)
    const unknown = await openStream(relay.url, `svcrelay_${'A'.repeat(43)}`)
    expect(unknown.status).toBe(401)
    expect(JSON.parse(unknown.body ?? '{}')).toMatchObject({ error: { code: 'unauthorized' } })
    const limited = await openStream(relay.url, good)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
    relay.clock.advance(60_001)
    const ok = await openStream(relay.url, good)
    expect(ok.status).toBe(200)
    ok.close()
  })

  it('never takes a token in the URL: only the Authorization header', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const r = await rawRequest(`${relay.url}/v1/stream?token=${token}`)
    expect(r.status).toBe(401)
  })

  it('serves /metrics in the Prometheus text format to loopback, and not to a forwarded outside client behind a proxy', async () => {
    relay = await startTestRelay({ behindProxy: true })
    await relay.addChannel('team')
    await relay.createToken('alice', 'team')
    await postSigned(relay.url, 'team', eventBody('evt_1'))
    await postSigned(relay.url, 'team', eventBody('evt_2'), { secret: 'whsec_not_the_secret_00000000' })
    const m = await rawRequest(`${relay.url}/metrics`)
    expect(m.status).toBe(200)
    expect(m.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(m.body).toContain('svc_relay_ingested_total{channel="team"} 1')
    expect(m.body).toContain('svc_relay_refused_total{reason="signature_mismatch"} 1')
    expect(m.body).toContain('svc_relay_backlog{token="alice",channel="team"} 1')
    expect(m.body).toMatch(/svc_relay_oldest_unacked_age_seconds\{token="alice",channel="team"\} \d/)
    expect(m.body).toContain('svc_relay_commit_seconds_count 1')
    const outside = await rawRequest(`${relay.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(outside.status).toBe(404)
  })

  it('writes no token, secret or body in any log line', async () => {
    relay = await startTestRelay({ authFailures: { limit: 100, windowMs: 60_000 } })
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const body = eventBody('evt_marker', 'charge.paid', { externalId: 'body-marker-123' })
    await postSigned(relay.url, 'team', body)
    await postSigned(relay.url, 'team', body, { secret: 'whsec_not_the_secret_00000000' })
    const s = await openStream(relay.url, token)
    const d = deliveryOf(await s.next(isDelivery))
    await ack(relay.url, token, [d.seq])
    await openStream(relay.url, `${token.slice(0, -1)}x`)
    s.close()
    await s.ended
    await relay.close()
    const all = relay.logs.join('\n')
    expect(relay.logs.length).toBeGreaterThan(3)
    expect(all).not.toContain(token)
    expect(all).not.toContain(token.slice(9))
    expect(all).not.toContain(RELAY_SECRET)
    expect(all).not.toContain('whsec_not_the_secret')
    expect(all).not.toContain('body-marker-123')
    for (const line of relay.logs) expect(() => JSON.parse(line)).not.toThrow()
  })

  it('stops cleanly: streams are told shutdown, deliveries after it are refused', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const s = await openStream(relay.url, token)
    await s.next((f) => f.event === 'ready')
    const stopping = relay.server.stop()
    expect(await s.next((f) => f.event === 'closing')).toMatchObject({ data: { reason: 'shutdown' } })
    await stopping
    await expect(postSigned(relay.url, 'team', eventBody('evt_1'))).rejects.toThrow()
  })

  it('caps open streams per client address (429), counting the forwarded address behind a proxy', async () => {
    relay = await startTestRelay({ behindProxy: true, maxStreamsPerAddress: 1 })
    await relay.addChannel('team')
    const a = await relay.createToken('a', 'team')
    const b = await relay.createToken('b', 'team')
    const c = await relay.createToken('c', 'team')
    const first = await openStream(relay.url, a, { 'x-forwarded-for': '203.0.113.7' })
    expect(first.status).toBe(200)
    const second = await openStream(relay.url, b, { 'x-forwarded-for': '203.0.113.7' })
    expect(second.status).toBe(429)
    const other = await openStream(relay.url, c, { 'x-forwarded-for': '198.51.100.1' })
    expect(other.status).toBe(200)
    first.close()
    other.close()
  })

  it('refuses oversized headers with 431 before any handler runs', async () => {
    relay = await startTestRelay()
    const r = await rawRequest(`${relay.url}/healthz`, { headers: { 'x-big': 'a'.repeat(20 * 1024) } })
    expect(r.status).toBe(431)
  })

  it('closes the streams of a removed channel, saying so', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const s = await openStream(relay.url, token)
    await s.next((f) => f.event === 'ready')
    await relay.store.removeChannel('team')
    expect(await s.next((f) => f.event === 'closing')).toMatchObject({ data: { reason: 'channel_removed' } })
    expect((await postSigned(relay.url, 'team', eventBody('evt_1'))).status).toBe(401)
  })

  it('serves HTTPS with --tls-cert/--tls-key (a self-signed test certificate for 127.0.0.1)', async () => {
    const dir = new URL('../../../fixtures/relay-tls/', import.meta.url)
    const cert = readFileSync(new URL('cert.pem', dir))
    relay = await startTestRelay({ tls: { cert, key: readFileSync(new URL('key.pem', dir)) } })
    expect(relay.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${relay.url}/healthz`, { ca: cert }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(200)
  })

  it('on stop, a delivery being committed finishes and is answered 200; stop waits for it', async () => {
    const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/svc-relay-slow-`)
    const real = await openSqliteRelayStore({ dir })
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    let entered!: () => void
    const inIngest = new Promise<void>((r) => {
      entered = r
    })
    const store: RelayStore = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
      ingest: async (d: Parameters<RelayStore['ingest']>[0]) => {
        entered()
        await gate
        return real.ingest(d)
      },
    })
    relay = await startTestRelay({ store })
    await relay.addChannel('team')
    const posting = postSigned(relay.url, 'team', eventBody('evt_1'))
    await inIngest
    let stopped = false
    const stopping = relay.server.stop().then(() => {
      stopped = true
    })
    await new Promise((r) => setImmediate(r))
    expect(stopped).toBe(false)
    release()
    expect((await posting).status).toBe(200)
    await stopping
    expect(await real.backlog('none')).toBe(0)
    expect((await real.status(new Date())).channels[0]!.deliveries).toBe(1)
  })

  it('finds deliveries another process stored without waking it (the poll sweeps open streams)', async () => {
    relay = await startTestRelay()
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    const s = await openStream(relay.url, token)
    await s.next((f) => f.event === 'ready')
    const other = await openSqliteRelayStore({ dir: relay.dir })
    await other.ingest({ channel: 'team', eventId: 'evt_x', eventType: 'charge.paid', arrivedAt: new Date().toISOString(), headers: {}, body: Buffer.from('{}') })
    await other.close()
    expect(deliveryOf(await s.next(isDelivery)).seq).toBeGreaterThan(0)
    s.close()
  })

  it('believes X-Forwarded-For only with --behind-proxy: without it a forged header changes nothing', async () => {
    relay = await startTestRelay({ maxStreamsPerAddress: 1, authFailures: { limit: 1, windowMs: 60_000 } })
    await relay.addChannel('team')
    const token = await relay.createToken('alice', 'team')
    // A client claiming to be loopback from outside, or another address, is its socket's address.
    expect((await rawRequest(`${relay.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200)
    expect((await openStream(relay.url, 'svcrelay_bad', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(401)
    // The failure counted against the real peer, not the claimed address: the next try is limited.
    expect((await openStream(relay.url, token, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(429)
  })
})
