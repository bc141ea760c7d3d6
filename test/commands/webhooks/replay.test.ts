import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import WebhooksReplay from '../../../src/commands/webhooks/replay.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { verifySignature } from '../../../src/lib/webhooks/signature.js'
import { runCommand } from '../../helpers/run-command.js'
import { chargeEvent, SECRET, sha256, signedHeaders, startApp, type TargetApp } from '../../helpers/webhooks.js'

const body = Buffer.from(chargeEvent('evt_replay', 'charge.settled'))
let target: TargetApp
let status = 200
beforeAll(async () => {
  target = await startApp((_r, res) => {
    res.statusCode = status
    res.end()
  })
  const store = await EventStore.open()
  store.record({
    receivedAt: '2026-11-22T12:00:00.000Z',
    source: 'service',
    eventId: 'evt_replay',
    type: 'charge.settled',
    headers: signedHeaders(body, { id: 'evt_replay', timestamp: 1_700_000_000 }),
    body,
    verification: 'verified',
    outcome: 'forwarded',
    answeredStatus: 200,
    forwardUrl: `${target.url}/hooks`,
  })
  const routed = Buffer.from(chargeEvent('evt_routed', 'charge.split.completed'))
  store.record({
    receivedAt: '2026-11-22T12:00:01.000Z',
    source: 'service',
    eventId: 'evt_routed',
    type: 'charge.split.completed',
    headers: signedHeaders(routed, { id: 'evt_routed' }),
    body: routed,
    verification: 'verified',
    outcome: 'forwarded',
    answeredStatus: 200,
    forwardUrl: `${target.url}/split`,
  })
  store.close()
})
afterAll(() => target.close())
afterEach(() => {
  status = 200
})

describe('svc webhooks replay', () => {
  it('resends the same bytes to where they went, re-signed with a fresh timestamp', async () => {
    const r = await runCommand(WebhooksReplay, ['evt_replay', '--secret', SECRET])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/evt_replay → http:\/\/127\.0\.0\.1:\d+\/hooks: 200 in \d+ ms/)
    const got = target.received.at(-1)!
    expect(sha256(got.body)).toBe(sha256(body))
    expect(verifySignature({ body: got.body, signature: got.headers['x-svc-signature'], timestamp: got.headers['x-svc-timestamp'], secrets: [SECRET] }).ok).toBe(true)
  })

  it('warns and keeps the original headers when no secret is known; --forward picks the target', async () => {
    const r = await runCommand(WebhooksReplay, ['evt_replay', '--forward', `127.0.0.1:${target.port}/other`, '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, status: 200, resigned: false, url: `http://127.0.0.1:${target.port}/other` })
    expect(r.stderr).toContain('original signature')
    expect(target.received.at(-1)!.headers['x-svc-timestamp']).toBe('1700000000')
  })

  it('exits 1 when the app answers non-2xx, 4 for an unknown event', async () => {
    status = 500
    expect((await runCommand(WebhooksReplay, ['evt_replay', '--secret', SECRET])).exitCode).toBe(1)
    const missing = await runCommand(WebhooksReplay, ['evt_missing'])
    expect(missing.exitCode).toBe(4)
    expect(missing.stderr).toContain('svc webhooks events')
  })

  it('sends an event routed by pattern to the target it was routed to, with --header', async () => {
    const r = await runCommand(WebhooksReplay, ['evt_routed', '--secret', SECRET, '--header', 'Authorization: Bearer dev'])
    expect(r.exitCode).toBe(0)
    const got = target.received.at(-1)!
    expect([got.path, got.headers['x-svc-event-id'], got.headers.authorization]).toEqual(['/split', 'evt_routed', 'Bearer dev'])
    expect(r.stdout + r.stderr).not.toContain('Bearer dev')
  })

  it('exits 2 naming --header for a header it may not set, sending nothing', async () => {
    const before = target.received.length
    const r = await runCommand(WebhooksReplay, ['evt_replay', '--secret', SECRET, '--header', 'X-SVC-Timestamp: 1'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--header: "X-SVC-Timestamp" cannot be overridden')
    expect(target.received).toHaveLength(before)
  })
})
