import { openDatabase } from '../../../../src/lib/sandbox/store/db.js'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { type OutgoingDelivery, WebhookDeliveries } from '../../../../src/lib/sandbox/deliveries/worker.js'
import { handlePanelRequest, type PanelDeps } from '../../../../src/lib/sandbox/http/panel-routes.js'
import { SandboxApiError } from '../../../../src/lib/sandbox/api-error.js'
import type { AccountSettings, PanelResponse, SandboxAdmin, SandboxKey } from '../../../../src/lib/sandbox/types.js'
import type { Environment } from '../../../../src/lib/contract/schemas.js'

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0)
const TEST_KEY = 'svc_test_0123456789abcdef0123456789abcdef'
const LIVE_KEY = 'svc_live_fedcba9876543210fedcba9876543210'

function fakeAdmin(): SandboxAdmin {
  const keys: SandboxKey[] = [
    { key: TEST_KEY, environment: 'test', revoked: false, createdAt: new Date(T0).toISOString() },
    { key: LIVE_KEY, environment: 'live', revoked: false, createdAt: new Date(T0).toISOString() },
  ]
  let settings: AccountSettings = { feeBps: 199, feeFixedInCents: 50, settlementDelayHours: 24, activated: true, blocked: false, merchantIdPresent: true, qrValiditySeconds: 3600 }
  let n = 0
  return {
    listKeys: () => keys.map((k) => ({ ...k })),
    createKey(environment) {
      const k = { key: `svc_${environment}_new${String(++n).padStart(29, '0')}`, environment, revoked: false, createdAt: new Date(T0).toISOString() }
      keys.push(k)
      return { ...k }
    },
    revokeKey(key, environment) {
      const k = keys.find((x) => x.key === key && (!environment || x.environment === environment))
      if (!k) return undefined
      k.revoked = true
      return { ...k }
    },
    getSettings: () => ({ ...settings }),
    updateSettings(patch) {
      settings = { ...settings, ...patch }
      return { ...settings }
    },
  }
}

let clock: SandboxClock
let deps: PanelDeps & { deliveries: WebhookDeliveries }
let sent: OutgoingDelivery[]
let status: number

/** The answer, or the error the sandbox would answer with (the routes throw; the server shapes). */
async function call(method: string, path: string, body?: unknown, opts: { env?: Environment; query?: Record<string, string> } = {}): Promise<PanelResponse> {
  try {
    return await handlePanelRequest({ method, path, query: new URLSearchParams(opts.query), body, environment: opts.env ?? 'test' }, deps)
  } catch (err) {
    if (err instanceof SandboxApiError) return { status: err.status, body: err.body('req_test') }
    throw err
  }
}

function publish(id: string, environment: Environment = 'test'): void {
  deps.deliveries.publish({ id, type: 'charge.settled', environment, createdAt: new Date(clock.now()).toISOString(), body: `{"id":"${id}"}` })
}

beforeEach(() => {
  clock = new SandboxClock({ manual: true, start: T0 })
  sent = []
  status = 200
  const deliveries = new WebhookDeliveries({ db: openDatabase({ inMemory: true }), clock, log: () => {}, webhookSecret: 'whsec_0123456789abcdef0123' }, { send: async (d) => (sent.push(d), { status, body: '' }) })
  deps = { deliveries, admin: fakeAdmin(), clock }
})

afterEach(async () => {
  await deps.deliveries.close()
  clock.stop()
})

describe('webhook', () => {
  it('404 webhook_not_configured before a URL is saved, then the saved endpoint', async () => {
    expect(await call('GET', '/webhook')).toMatchObject({ status: 404, body: { error: { code: 'webhook_not_configured' } } })
    const put = await call('PUT', '/webhook', { url: 'http://127.0.0.1:4242/hooks' })
    expect(put).toEqual({ status: 200, body: { environment: 'test', url: 'http://127.0.0.1:4242/hooks', active: true } })
    expect((await call('GET', '/webhook')).body).toMatchObject({ url: 'http://127.0.0.1:4242/hooks', active: true })
    expect((await call('GET', '/webhook', undefined, { env: 'live' })).status).toBe(404)
  })

  it('takes the environment from the body when given', async () => {
    await call('PUT', '/webhook', { url: 'https://example.test/live', env: 'live' })
    expect((await call('GET', '/webhook', undefined, { env: 'live' })).body).toMatchObject({ environment: 'live', url: 'https://example.test/live' })
    expect((await call('GET', '/webhook')).status).toBe(404)
  })

  it('rejects a bad URL, an unknown field and a non-object body with 400 invalid_request naming each field', async () => {
    const bad = await call('PUT', '/webhook', { url: 'ftp://x', colour: 'red', env: 'prod' })
    expect(bad.status).toBe(400)
    const error = (bad.body as { error: { code: string; details: Array<{ field: string }> } }).error
    expect(error.code).toBe('invalid_request')
    expect(error.details.map((d) => d.field).sort()).toEqual(['colour', 'env', 'url'])
    expect((await call('PUT', '/webhook', 'http://x')).body).toMatchObject({ error: { code: 'invalid_request', details: [{ field: '(body)' }] } })
  })

  it('saving the URL again reactivates an endpoint deactivated after 24 h of failures', async () => {
    await call('PUT', '/webhook', { url: 'http://127.0.0.1:9/down' })
    status = 500
    publish('evt_1')
    expect(await call('POST', '/clock/advance', { ms: 25 * 3600_000 })).toMatchObject({ status: 200 })
    expect((await call('GET', '/webhook')).body).toMatchObject({ active: false, deactivatedAt: new Date(T0 + 24 * 3600_000).toISOString() })
    expect((await call('PUT', '/webhook', { url: 'http://127.0.0.1:9/down' })).body).toMatchObject({ active: true })
    expect((await call('GET', '/webhook')).body).not.toHaveProperty('deactivatedAt')
  })
})

describe('deliveries', () => {
  beforeEach(async () => {
    await call('PUT', '/webhook', { url: 'http://127.0.0.1:9/hooks' })
    await call('PUT', '/webhook', { url: 'http://127.0.0.1:9/live', env: 'live' })
  })

  it('lists the environment’s log newest first, with the attempts of one event on request', async () => {
    publish('evt_a')
    publish('evt_b')
    publish('evt_live', 'live')
    await deps.deliveries.flush()
    const list = await call('GET', '/deliveries')
    expect((list.body as { data: Array<{ eventId: string }> }).data.map((d) => d.eventId)).toEqual(['evt_b', 'evt_a'])
    const one = await call('GET', '/deliveries', undefined, { query: { eventId: 'evt_a' } })
    expect((one.body as { data: unknown[] }).data).toMatchObject([{ eventId: 'evt_a', state: 'succeeded', attempts: 1, attemptLog: [{ attempt: 1, status: 200 }] }])
    expect((await call('GET', '/deliveries', undefined, { query: { limit: '0' } })).body).toMatchObject({ error: { details: [{ field: 'limit' }] } })
  })

  it('resends with the same event id: 202, and 404 for an unknown event', async () => {
    publish('evt_r')
    await deps.deliveries.flush()
    expect(await call('POST', '/deliveries/evt_r/resend', {})).toEqual({ status: 202, body: { eventId: 'evt_r' } })
    await deps.deliveries.flush()
    expect(sent.map((d) => d.headers['x-svc-event-id'])).toEqual(['evt_r', 'evt_r'])
    expect(await call('POST', '/deliveries/evt_none/resend', {})).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
  })
})

describe('keys', () => {
  it('lists keys masked, shows a new key in full once, and revokes by the key in the body', async () => {
    const list = (await call('GET', '/keys')).body as { data: SandboxKey[] }
    expect(list.data.map((k) => k.key)).toEqual(['svc_test_…cdef', 'svc_live_…3210'])
    expect(JSON.stringify(list)).not.toContain(TEST_KEY)

    const created = await call('POST', '/keys', { env: 'live' })
    expect(created.status).toBe(201)
    expect((created.body as SandboxKey).key).toMatch(/^svc_live_new0+1$/)

    const revoked = await call('POST', '/keys/revoke', { key: TEST_KEY })
    expect(revoked).toEqual({ status: 200, body: { key: 'svc_test_…cdef', environment: 'test', revoked: true, createdAt: new Date(T0).toISOString() } })
    expect(await call('POST', '/keys/revoke', { key: 'svc_test_nope' })).toMatchObject({ status: 404 })
    expect(await call('POST', '/keys/revoke', {})).toMatchObject({ status: 400, body: { error: { details: [{ field: 'key' }] } } })
  })

  it('a body may be left out (a new key of the environment), but a JSON null is not an object: 400 (found by the OpenAPI contract test)', async () => {
    expect(await call('POST', '/keys')).toMatchObject({ status: 201 })
    expect(await call('POST', '/keys', null)).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', details: [{ field: '(body)' }] } } })
  })

  it('refuses a masked form that names several keys (400 on key), and reads three dots as the ellipsis', async () => {
    const twin = `svc_live_${'9'.repeat(28)}3210`
    const listKeys = deps.admin.listKeys
    deps.admin.listKeys = () => [...listKeys(), { key: twin, environment: 'live', revoked: false, createdAt: new Date(T0).toISOString() }]
    const both = await call('POST', '/keys/revoke', { key: 'svc_live_…3210' })
    expect(both).toMatchObject({ status: 400, body: { error: { code: 'invalid_request', details: [{ field: 'key', message: expect.stringContaining('matches 2 keys') }] } } })
    const seen: string[] = []
    const revoke = deps.admin.revokeKey
    deps.admin.revokeKey = (key, env) => (seen.push(key), revoke(key, env))
    await call('POST', '/keys/revoke', { key: 'svc_test_...cdef' })
    expect(seen).toEqual(['svc_test_…cdef'])
  })
})

describe('account', () => {
  it('reads and patches the settings, rejecting bad values field by field', async () => {
    expect((await call('GET', '/account')).body).toMatchObject({ feeBps: 199, activated: true })
    expect((await call('PATCH', '/account', { feeBps: 250, activated: false })).body).toMatchObject({ feeBps: 250, activated: false, feeFixedInCents: 50 })
    const bad = await call('PATCH', '/account', { feeBps: -1, blocked: 'yes', settlementDelayHours: 1.5 })
    expect(bad.status).toBe(400)
    expect((bad.body as { error: { details: Array<{ field: string }> } }).error.details.map((d) => d.field).sort()).toEqual(['blocked', 'feeBps', 'settlementDelayHours'])
    expect((await call('GET', '/account')).body).toMatchObject({ feeBps: 250 })
  })
})

describe('clock', () => {
  it('shows the sandbox time and advances it, running the retries that fell due before answering', async () => {
    expect((await call('GET', '/clock')).body).toEqual({ now: new Date(T0).toISOString(), speed: 1 })
    await call('PUT', '/webhook', { url: 'http://127.0.0.1:9/hooks' })
    status = 503
    publish('evt_c')
    const res = await call('POST', '/clock/advance', { ms: 90_000 })
    expect(res).toEqual({ status: 200, body: { now: new Date(T0 + 90_000).toISOString() } })
    expect(sent).toHaveLength(3)
    const log = (await call('GET', '/deliveries', undefined, { query: { eventId: 'evt_c' } })).body as { data: Array<{ attemptLog: Array<{ at: string }> }> }
    expect(log.data[0]!.attemptLog.map((a) => (Date.parse(a.at) - T0) / 1000)).toEqual([0, 10, 40])
    expect(await call('POST', '/clock/advance', { ms: -5 })).toMatchObject({ status: 400, body: { error: { details: [{ field: 'ms' }] } } })
  })
})

it('answers 404 not_found for an unknown panel route', async () => {
  expect(await call('GET', '/nope')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
  expect(await call('DELETE', '/webhook')).toMatchObject({ status: 404 })
})
