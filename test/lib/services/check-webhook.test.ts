import { describe, expect, it } from 'vitest'
import { ChargeSchema, EventSchema } from '../../../src/lib/contract/schemas.js'
import { type CheckReport, runWebhookCheck } from '../../../src/lib/services/check-webhook.js'
import { startNaiveReceiver, startRedirectingReceiver } from '../../fixtures/receivers/naive-receiver.js'
import { closedPort } from '../../fixtures/receivers/serve.js'
import { trackReceivers } from '../../helpers/receivers.js'
import { startSpecReceiver } from '../../fixtures/receivers/spec-receiver.js'

const secret = 'whsec_check_battery_0123456789abcdef'
const ALL_IDS = [
  'valid',
  'duplicate',
  'forged-signature',
  'wrong-secret',
  'missing-signature',
  'malformed-signature',
  'reserialised',
  'raw-bytes',
  'timestamp-old',
  'timestamp-ahead',
  'unknown-type',
  'withdrawal-paid',
]
const ACCEPT_IDS = ['valid', 'duplicate', 'raw-bytes', 'unknown-type', 'withdrawal-paid']

const track = trackReceivers()

const failedIds = (report: CheckReport) => report.rows.filter((r) => !r.pass).map((r) => r.id)

describe('webhook check battery', () => {
  it('passes every row against a handler that follows the spec', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    expect(report.rows.map((r) => r.id)).toEqual(ALL_IDS)
    expect(failedIds(report)).toEqual([])
    expect(report).toMatchObject({ url: receiver.url, passed: ALL_IDS.length, failed: 0, reachable: true })
    for (const row of report.rows) {
      expect(row.ms).toBeGreaterThanOrEqual(0)
      expect(row.note).toBeNull()
      expect(row.observed).toMatch(/^\d{3} /)
    }
  })

  it('delivers realistic bodies: a full Charge for charge.settled, data.withdrawal with an endToEndId for withdrawal.paid', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    const settled = receiver.received.find((e) => e.type === 'charge.settled' && !e.duplicate)!
    expect(() => EventSchema.parse(settled.event)).not.toThrow()
    const charge = ChargeSchema.parse((settled.event.data as { charge: unknown }).charge)
    expect(charge.status).toBe('settled')
    expect(charge.settlement.blockchainTxId).toBeTruthy()
    const withdrawal = receiver.received.find((e) => e.type === 'withdrawal.paid')!
    expect((withdrawal.event.data as { withdrawal: { pix: { endToEndId: string } } }).withdrawal.pix.endToEndId).toMatch(/^E\w{31}$/)
    // The duplicate carried the same id as the original.
    expect(receiver.received.filter((e) => e.id === settled.id).map((e) => e.duplicate)).toEqual([false, true])
  })

  it('uses fresh event ids on every run, so a second run against the same handler still passes', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    const first = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    const second = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    expect(first.failed).toBe(0)
    expect(second.failed).toBe(0)
    const ids = receiver.received.filter((e) => !e.duplicate).map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('signs with the first secret and keeps "another secret" clear of all of them (rotation)', async () => {
    const receiver = await track(startSpecReceiver({ secret }))
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret, 'whsec_old_secret_still_valid'] })
    expect(report.failed).toBe(0)
  })

  it('fails exactly the rows a naive handler gets wrong', async () => {
    const receiver = await track(startNaiveReceiver({ secret }))
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    expect(failedIds(report).sort()).toEqual(['duplicate', 'malformed-signature', 'reserialised', 'raw-bytes', 'timestamp-old', 'timestamp-ahead', 'unknown-type', 'withdrawal-paid'].sort())
    expect(report).toMatchObject({ passed: 4, failed: 8, reachable: true })
    const row = (id: string) => report.rows.find((r) => r.id === id)!
    expect(row('duplicate')).toMatchObject({ status: 409, observed: '409 Conflict', expected: '2xx within 10 s' })
    expect(row('reserialised')).toMatchObject({ status: 200, expected: 'not 2xx' })
    expect(row('reserialised').note).toContain('raw bytes')
    expect(row('withdrawal-paid').note).toContain('answered: handler crashed')
  })

  it('reports a redirecting handler as failing every row that needs a 2xx, and never follows the redirect', async () => {
    const target = await track(startSpecReceiver({ secret }))
    const receiver = await track(startRedirectingReceiver(target.url))
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    expect(failedIds(report)).toEqual(ACCEPT_IDS)
    const valid = report.rows[0]!
    expect(valid.observed).toBe(`308 Permanent Redirect, redirect to ${target.url} (not followed)`)
    expect(valid.note).toContain('a redirect is not a success')
    expect(target.received).toEqual([])
  })

  it('fails a row that answers after the time limit, and shows each row its time', async () => {
    let clock = 0
    const receiver = await track(
      startSpecReceiver({
        secret,
        onRequest: (req) => {
          clock += req.headers['x-svc-event-type'] === 'withdrawal.paid' ? 10_001 : 10_000
        },
      }),
    )
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret], elapsed: () => clock })
    expect(failedIds(report)).toEqual(['withdrawal-paid'])
    expect(report.rows[0]!.ms).toBe(10_000)
    const slow = report.rows.at(-1)!
    expect(slow).toMatchObject({ status: 200, ms: 10_001, pass: false })
    expect(slow.note).toContain('took 10001 ms')
  })

  it('gives up on a delivery that gets no answer within the limit', async () => {
    const receiver = await track(
      startSpecReceiver({
        secret,
        // Stalls the unknown-type delivery until the test ends.
        onRequest: (req) => (req.headers['x-svc-event-type']?.includes('unknown') ? new Promise(() => {}) : undefined),
      }),
    )
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret], limitMs: 1500 })
    expect(failedIds(report)).toEqual(['unknown-type'])
    const row = report.rows.find((r) => r.id === 'unknown-type')!
    expect(row).toMatchObject({ status: null, observed: 'no answer within 1500 ms', expected: '2xx within 1500 ms' })
    expect(report.rows.find((r) => r.id === 'withdrawal-paid')!.pass).toBe(true)
  })

  it('says plainly when the endpoint cannot be reached, and does not retry it row after row', async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}/webhooks`
    const seen: string[] = []
    const report = await runWebhookCheck({ url: new URL(url), secrets: [secret], onRow: (r) => seen.push(r.id) })
    expect(report).toMatchObject({ reachable: false, passed: 0, failed: ALL_IDS.length })
    expect(report.rows[0]).toMatchObject({ status: null, pass: false, observed: `could not connect to ${url}: connection refused` })
    expect(report.rows.slice(1).every((r) => r.observed === `not run: could not connect to ${url}: connection refused` && r.ms === null)).toBe(true)
    expect(seen).toEqual(ALL_IDS)
  })
})

describe('webhook check battery, handler crashes', () => {
  it('tells a handler that drops the connection, or dies, from one that answers', async () => {
    const receiver = await track(
      startSpecReceiver({
        secret,
        onRequest: (req) => {
          // The handler dies on the unknown type: this connection is cut, the server closes.
          if (req.headers['x-svc-event-type']?.includes('unknown')) {
            req.socket.destroy()
            void receiver.close()
          }
        },
      }),
    )
    const report = await runWebhookCheck({ url: new URL(receiver.url), secrets: [secret] })
    expect(failedIds(report)).toEqual(['unknown-type', 'withdrawal-paid'])
    const [unknown, withdrawal] = report.rows.slice(-2)
    expect(unknown!.observed).toMatch(/^connection closed without an answer/)
    expect(unknown!.note).toContain('did the handler crash on this delivery?')
    expect(withdrawal!.observed).toBe(`could not connect to ${receiver.url}: connection refused`)
    expect(withdrawal!.note).toContain('did the handler crash on the previous one?')
    expect(report.reachable).toBe(true)
  })
})
