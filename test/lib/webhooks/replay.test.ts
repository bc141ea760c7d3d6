import { afterEach, describe, expect, it } from 'vitest'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { Forwarder, parseForwardTargets } from '../../../src/lib/webhooks/forward.js'
import { replayEvent } from '../../../src/lib/webhooks/replay.js'
import { verifySignature } from '../../../src/lib/webhooks/signature.js'
import { newDelivery } from '../../helpers/event-log.js'
import { chargeEvent, SECRET, sha256, signedHeaders, startApp, type TargetApp } from '../../helpers/webhooks.js'

const T0 = 1_790_000_000
let app: TargetApp | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function storeWith(body: string, headers: Record<string, string>, forwardUrl: string, verification: 'verified' | 'failed' = 'verified') {
  const store = await EventStore.open({ path: ':memory:' })
  store.record(
    newDelivery({
      receivedAt: new Date(T0 * 1000).toISOString(),
      eventId: 'evt_r',
      type: 'charge.settled',
      headers,
      body: Buffer.from(body),
      verification,
      outcome: verification === 'verified' ? 'forwarded' : 'rejected',
      answeredStatus: 200,
      forwardUrl,
    }),
  )
  return store
}

describe('replayEvent', () => {
  it('resends the same bytes, re-signed with a fresh timestamp that the app can verify', async () => {
    app = await startApp()
    const body = chargeEvent('evt_r', 'charge.settled')
    const store = await storeWith(body, signedHeaders(body, { timestamp: T0, id: 'evt_r' }), `${app.url}/hook`)
    const later = T0 + 3600
    const r = await replayEvent({ store, eventId: 'evt_r', forwarder: new Forwarder(), secrets: ['whsec_new_0000000000', SECRET], now: () => later * 1000 })
    expect(r.result.ok).toBe(true)
    expect(r.resigned).toBe(true)
    const got = app.received[0]!
    expect(got.path).toBe('/hook')
    expect(sha256(got.body)).toBe(sha256(Buffer.from(body)))
    expect(got.headers['x-svc-timestamp']).toBe(String(later))
    const v = verifySignature({ body: got.body, signature: got.headers['x-svc-signature'], timestamp: got.headers['x-svc-timestamp'], secrets: [SECRET], nowSeconds: later })
    expect(v.ok).toBe(true)
    expect(store.list({ eventId: 'evt_r' })[0]).toMatchObject({ source: 'replay', outcome: 'forwarded' })
    store.close()
  })

  it('sends the original headers when no known secret signed the original (never launders a forgery)', async () => {
    app = await startApp()
    const body = chargeEvent('evt_r', 'charge.settled')
    const headers = signedHeaders(body, { timestamp: T0, id: 'evt_r', secret: 'whsec_forger_0000000' })
    const store = await storeWith(body, headers, app.url, 'failed')
    const r = await replayEvent({ store, eventId: 'evt_r', forwarder: new Forwarder(), secrets: [SECRET], forward: new URL(`${app.url}/other`) })
    expect(r.resigned).toBe(false)
    expect(app.received[0]!.headers['x-svc-signature']).toBe(headers['x-svc-signature'])
    expect(app.received[0]!.path).toBe('/other')
    store.close()
  })

  it('exits 4 for an event that is not in the log', async () => {
    const store = await EventStore.open({ path: ':memory:' })
    await expect(replayEvent({ store, eventId: 'evt_nope', forwarder: new Forwarder(), secrets: [] })).rejects.toMatchObject({ exitCode: 4 })
    store.close()
  })

  it('from the live view, sends to the target the event routes to now, with the --header headers', async () => {
    app = await startApp()
    const body = chargeEvent('evt_r', 'charge.settled')
    const store = await storeWith(body, signedHeaders(body, { timestamp: T0, id: 'evt_r' }), 'http://127.0.0.1:9/old')
    const targets = parseForwardTargets(['127.0.0.1:9/rest', `charge.settled=${app.url}/settled`])
    const forwarder = new Forwarder({ headers: { authorization: 'Bearer dev' } })
    const r = await replayEvent({ store, eventId: 'evt_r', forwarder, targets, secrets: [SECRET] })
    await forwarder.close()
    expect(r.url.href).toBe(`${app.url}/settled`)
    expect(app.received.map((g) => [g.path, g.headers.authorization])).toEqual([['/settled', 'Bearer dev']])
    expect(store.isDelivered('evt_r', `${app.url}/settled`)).toBe(true)
    store.close()
  })
})
