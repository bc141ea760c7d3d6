/**
 * The rest of the service the spec names (4.8, 6.3), over real HTTP: withdrawals, split charges
 * and product sales, with the same auth, environment isolation, error shape and event pipeline as
 * charges; every body they emit passes its event type's schema.
 */
import { describe, expect, it } from 'vitest'
import { parseWebhookEvent } from '../../../../src/lib/contract/event-schemas.js'
import { SPLIT_RUNS_AFTER_MS } from '../../../../src/lib/sandbox/engine/split-division.js'
import { WITHDRAWAL_SETTLES_AFTER_MS } from '../../../../src/lib/sandbox/engine/withdrawals.js'
import { CPF, useHarness } from '../../../helpers/conformance.js'

const h = useHarness()

const SPLIT = [
  { wallet: 'wallet-a', shareBps: 7000 },
  { wallet: 'wallet-b', shareBps: 3000 },
]
const eventsOf = (resource: string) => h.deliveries.events.filter((e) => e.resourceKey === resource)
const bodyOf = (e: { body: string }) => JSON.parse(e.body)

describe('withdrawals', () => {
  it('processing, then paid with its end-to-end id after 30 s of sandbox time; each move an event that passes its schema', async () => {
    const created = await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 25_000, pixKey: 'loja@example.com' } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ status: 'processing', environment: 'test', amountInCents: 25_000, pix: { key: 'loja@example.com' } })
    const id = created.body.id
    expect((await h.call('GET', `/v1/withdrawals/${id}`)).body.status).toBe('processing')

    await h.clock.advance(WITHDRAWAL_SETTLES_AFTER_MS)
    const paid = await h.call('GET', `/v1/withdrawals/${id}`)
    expect(paid.body.status).toBe('paid')
    expect(paid.body.pix.endToEndId).toMatch(/^E\d{8}\d{12}[0-9a-f]{11}$/)

    const events = eventsOf(`withdrawal:${id}`)
    expect(events.map((e) => e.type)).toEqual(['withdrawal.processing', 'withdrawal.paid'])
    for (const e of events) expect(parseWebhookEvent(bodyOf(e)).known).toBe(true)
    expect(bodyOf(events[1]!).data.withdrawal).toEqual(paid.body)
  })

  it('outcome failed ends in failed with a reason (withdrawal.failed)', async () => {
    const { body } = await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 1000, pixKey: '+5511999999999', outcome: 'failed' } })
    await h.clock.advance(WITHDRAWAL_SETTLES_AFTER_MS)
    const failed = (await h.call('GET', `/v1/withdrawals/${body.id}`)).body
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.any(String) })
    expect(failed.pix.endToEndId).toBeUndefined()
    expect(eventsOf(`withdrawal:${body.id}`).map((e) => e.type)).toEqual(['withdrawal.processing', 'withdrawal.failed'])
  })

  it('the panel ends one now; ending it twice is 409 invalid_transition and emits nothing more', async () => {
    const { body } = await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 1000, pixKey: 'k' } })
    const now = await h.call('POST', `/_sandbox/withdrawals/${body.id}/advance`, { body: { status: 'failed' } })
    expect(now.body.status).toBe('failed')
    const again = await h.call('POST', `/_sandbox/withdrawals/${body.id}/advance`, { body: {} })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('invalid_transition')
    await h.clock.advance(WITHDRAWAL_SETTLES_AFTER_MS)
    expect(eventsOf(`withdrawal:${body.id}`).map((e) => e.type)).toEqual(['withdrawal.processing', 'withdrawal.failed'])
  })

  it('is not found with a key of the other environment, nor when it does not exist (404 withdrawal_not_found)', async () => {
    const { body } = await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 1000, pixKey: 'k' } })
    for (const [path, key] of [
      [`/v1/withdrawals/${body.id}`, h.sb.liveKey],
      ['/v1/withdrawals/000000000000000000000000', h.sb.testKey],
      ['/v1/withdrawals/%ff', h.sb.testKey],
    ] as const) {
      const r = await h.call('GET', path, { key })
      expect(r.status).toBe(404)
      expect(r.body.error).toMatchObject({ code: 'withdrawal_not_found', requestId: expect.stringMatching(/^req_/) })
    }
  })

  it('requires a key (401), and a bad request names the fields', async () => {
    expect((await h.call('GET', '/v1/withdrawals/000000000000000000000000', { key: null })).status).toBe(401)
    const bad = await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 'x', outcome: 'maybe' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['amountInCents', 'outcome', 'pixKey'])
  })
})

describe('split charges', () => {
  it('a charge with its split: normal states, then 60 s after settled the division, a txId and amount per destination', async () => {
    const created = await h.call('POST', '/v1/split-charges', { body: { amountInCents: 5000, payerTaxNumber: CPF, split: SPLIT } })
    expect(created.status).toBe(201)
    const id = created.body.id
    expect(created.body.status).toBe('awaiting_payment')
    expect(created.body.split.status).toBe('pending')
    const net = created.body.amount.netInCents
    expect(created.body.split.destinations.map((d: { amountInCents: number }) => d.amountInCents).reduce((a: number, b: number) => a + b)).toBe(net)

    await h.call('POST', `/v1/test/charges/${id}/advance`, { body: { status: 'settled' } })
    expect((await h.call('GET', `/v1/charges/${id}`)).body.split.status).toBe('pending')
    await h.clock.advance(SPLIT_RUNS_AFTER_MS)
    const after = (await h.call('GET', `/v1/charges/${id}`)).body
    expect(after.status).toBe('settled')
    expect(after.split.status).toBe('completed')
    for (const d of after.split.destinations) expect(d.txId).toMatch(/^0x[0-9a-f]{64}$/)

    const events = eventsOf(`charge:${id}`)
    expect(events.map((e) => e.type)).toEqual(['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled', 'charge.split.completed'])
    for (const e of events) expect(parseWebhookEvent(bodyOf(e)).known).toBe(true)
    expect(bodyOf(events[3]!).data.charge.split).toEqual(after.split)
  })

  it('R$ 14,04 fails its division: charge.split.failed, the asset held', async () => {
    const { body } = await h.call('POST', '/v1/split-charges', { body: { amountInCents: 1404, payerTaxNumber: CPF, split: SPLIT } })
    await h.call('POST', `/v1/test/charges/${body.id}/advance`, { body: { status: 'settled' } })
    await h.clock.advance(SPLIT_RUNS_AFTER_MS)
    const after = (await h.call('GET', `/v1/charges/${body.id}`)).body
    expect(after.split).toMatchObject({ status: 'failed', failureReason: expect.any(String) })
    expect(eventsOf(`charge:${body.id}`).at(-1)!.type).toBe('charge.split.failed')
  })

  it('the division runs only on a settled split charge (409 otherwise)', async () => {
    const plain = (await h.create()).body
    const r1 = await h.call('POST', `/_sandbox/charges/${plain.id}/split`, { body: {} })
    expect(r1.status).toBe(409)
    const split = (await h.call('POST', '/v1/split-charges', { body: { amountInCents: 2000, payerTaxNumber: CPF, split: SPLIT } })).body
    expect((await h.call('POST', `/_sandbox/charges/${split.id}/split`, { body: {} })).status).toBe(409)
  })

  it('validation names the field: shares must add up to 10000, at least two destinations', async () => {
    for (const [split, field] of [
      [
        [
          { wallet: 'a', shareBps: 5000 },
          { wallet: 'b', shareBps: 4000 },
        ],
        'split',
      ],
      [[{ wallet: 'a', shareBps: 10_000 }], 'split'],
      [
        [
          { wallet: 'a', shareBps: 5000 },
          { wallet: '', shareBps: 5000 },
        ],
        'split.1.wallet',
      ],
    ] as const) {
      const r = await h.call('POST', '/v1/split-charges', { body: { amountInCents: 2000, payerTaxNumber: CPF, split } })
      expect(r.status).toBe(400)
      expect(r.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]))
    }
    const missing = await h.call('POST', '/v1/split-charges', { body: { amountInCents: 2000, payerTaxNumber: CPF } })
    expect(missing.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'split' })]))
  })

  it('is idempotent like a charge, and isolated by environment', async () => {
    const body = { amountInCents: 3000, payerTaxNumber: CPF, externalId: 'split-ord-1', split: SPLIT }
    const a = await h.call('POST', '/v1/split-charges', { body })
    const b = await h.call('POST', '/v1/split-charges', { body })
    expect([a.status, b.status]).toEqual([201, 200])
    expect(b.body.id).toBe(a.body.id)
    // The same externalId on a plain charge is a different request.
    expect((await h.create({ amountInCents: 3000, externalId: 'split-ord-1' })).status).toBe(409)
    expect((await h.call('GET', `/v1/charges/${a.body.id}`, { key: h.sb.liveKey })).status).toBe(404)
  })
})

describe('product sales', () => {
  it('one product.paid per sale, always live, whatever key asks', async () => {
    const sale = await h.call('POST', '/_sandbox/product-sales', { body: { productName: 'Curso de Pix', valueInCents: 9900, buyerEmail: 'ana@example.com' } })
    expect(sale.status).toBe(201)
    const events = h.deliveries.events.filter((e) => e.id === sale.body.eventId)
    expect(events).toHaveLength(1)
    const parsed = parseWebhookEvent(bodyOf(events[0]!))
    expect(parsed.known).toBe(true)
    expect(parsed.event).toMatchObject({ type: 'product.paid', environment: 'live' })
    expect(bodyOf(events[0]!).data.productPayment).toEqual(sale.body.productPayment)
    expect(sale.body.productPayment).toMatchObject({ product: { name: 'Curso de Pix' }, valueInCents: 9900, buyerEmail: 'ana@example.com' })
    expect(sale.body.productPayment.netValueInCents).toBeLessThan(9900)
  })

  it('refuses a bad e-mail naming the field', async () => {
    const r = await h.call('POST', '/_sandbox/product-sales', { body: { buyerEmail: 'nope' } })
    expect(r.status).toBe(400)
    expect(r.body.error.details).toEqual([expect.objectContaining({ field: 'buyerEmail' })])
  })
})

describe('the event log', () => {
  it('lists what was emitted after a sequence number, by resource, with lastSeq', async () => {
    const start = (await h.call('GET', '/_sandbox/events?limit=0')).body.lastSeq
    const { body } = await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 1000, pixKey: 'k' } })
    const log = (await h.call('GET', `/_sandbox/events?afterSeq=${start}`)).body
    expect(log.data).toEqual([expect.objectContaining({ type: 'withdrawal.processing', resource: `withdrawal:${body.id}`, seq: start + 1 })])
    expect(log.lastSeq).toBe(start + 1)
    const bad = await h.call('GET', '/_sandbox/events?afterSeq=-1&limit=x')
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['afterSeq', 'limit'])
  })
})
