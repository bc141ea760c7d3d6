// The listener's verification path, without HTTP: every delivery goes through `handle`, with an
// injected clock and a forwarder that records what it would have sent.
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import type { Forwarder } from '../../../src/lib/webhooks/forward.js'
import { type ListenerOptions, WebhookListener } from '../../../src/lib/webhooks/listener.js'
import { signatureHeader } from '../../../src/lib/webhooks/signature.js'
import { chargeEvent, SECRET, sha256, signedHeaders } from '../../helpers/webhooks.js'

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

function listener(opts: Partial<ListenerOptions> = {}) {
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
        const l = listener()
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
    const l = listener()
    const body = chargeEvent('evt_t', 'charge.settled')
    const headers = signedHeaders(body, { timestamp: NOW })
    const flipped = headers['x-svc-signature']!.replace(/.$/, (c) => (c === '0' ? '1' : '0'))
    expect((await deliver(l, body, { ...headers, 'x-svc-signature': flipped })).record?.verifyReason).toBe('signature_mismatch')
    expect((await deliver(l, body, { ...headers, 'x-svc-timestamp': String(NOW + 1) })).record?.verifyReason).toBe('signature_mismatch')
    expect(sent).toHaveLength(0)
  })

  it('rejects timestamps more than 300 s away either way, and accepts the edges', async () => {
    const l = listener()
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
    const l = listener({ secrets: ['whsec_old_secret_000000', SECRET] })
    const body = chargeEvent('evt_rot', 'charge.settled')
    const answer = await deliver(l, body, signedHeaders(body, { timestamp: NOW }))
    expect(answer.status).toBe(200)
    expect(answer.record?.verification).toBe('verified')
  })

  it('names what is wrong with missing and malformed headers', async () => {
    const l = listener()
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
    const l = listener()
    const body = JSON.stringify({ id: 'evt_new', type: 'invoice.created', createdAt: '2026-11-22T12:00:00Z', environment: 'test', data: {} })
    expect((await deliver(l, body, signedHeaders(body, { timestamp: NOW, type: 'invoice.created' }))).status).toBe(200)
    expect(sent).toHaveLength(1)
  })

  it('answers 2xx to filtered-out events, records them as skipped and forwards nothing', async () => {
    const l = listener({ events: ['charge.settled', 'withdrawal.*'] })
    const skip = chargeEvent('evt_skip', 'charge.awaiting_payment')
    const answer = await deliver(l, skip, signedHeaders(skip, { timestamp: NOW }))
    expect(answer.status).toBe(200)
    expect(answer.record?.outcome).toBe('skipped')
    const w = JSON.stringify({ id: 'evt_w', type: 'withdrawal.paid', createdAt: '2026-11-22T12:00:00Z', environment: 'test', data: { withdrawal: { id: 'w1' } } })
    expect((await deliver(l, w, signedHeaders(w, { timestamp: NOW }))).record?.outcome).toBe('forwarded')
    expect(sent).toHaveLength(1)
  })

  it('under --skip-verify forwards a forged delivery but records it as unverified, with the reason', async () => {
    const l = listener({ skipVerify: true })
    const body = chargeEvent('evt_forged', 'charge.settled')
    const answer = await deliver(l, body, { ...signedHeaders(body, { timestamp: NOW }), 'x-svc-signature': signatureHeader('whsec_wrong_0000000000', NOW, body) })
    expect(answer.status).toBe(200)
    expect(answer.record).toMatchObject({ verification: 'skipped', verifyReason: 'signature_mismatch', outcome: 'forwarded' })
    expect(sent).toHaveLength(1)
  })

  it('refuses other methods than POST', async () => {
    expect((await listener().handle({ method: 'GET', headers: {}, body: new Uint8Array() })).status).toBe(405)
  })
})
