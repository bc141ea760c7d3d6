/** Spec 4.1: 201 new, 200 replay, 409 conflicts and 409 charge_processing for a concurrent duplicate. */
import { describe, expect, it } from 'vitest'
import { errorOf, useHarness } from '../../../helpers/conformance.js'

/** A gate the test opens: a creation that reaches it while held waits there, and says it arrived. */
let held = false
let release: () => void = () => {}
let arrived: () => void = () => {}
let gate = Promise.resolve()
function hold(): Promise<void> {
  held = true
  gate = new Promise((r) => (release = r))
  return new Promise((r) => (arrived = r))
}
function open(): void {
  held = false
  release()
}

const h = useHarness({
  beforeChargeInsert: () => {
    if (!held) return undefined
    arrived()
    return gate
  },
})

const count = async () => (await h.call('GET', '/v1/charges?limit=100')).body.data.length

describe('externalId', () => {
  it('returns 201 then 200 with the same charge for the same body, creating nothing more', async () => {
    const first = await h.create({ externalId: 'order-1', description: 'A' })
    expect(first.status).toBe(201)
    const before = await count()
    const again = await h.create({ externalId: 'order-1', description: 'A' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(await count()).toBe(before)
  })

  it('treats the same tax number with other punctuation and reordered keys as the same body', async () => {
    const first = await h.create({ externalId: 'order-2', metadata: { a: '1', b: '2' } })
    const again = await h.create({ externalId: 'order-2', payerTaxNumber: '52998224725', metadata: { b: '2', a: '1' } })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
  })

  it('answers 409 external_id_conflict to the same externalId with a different body', async () => {
    await h.create({ externalId: 'order-3', amountInCents: 1500 })
    const r = await h.create({ externalId: 'order-3', amountInCents: 1600 })
    expect(r.status).toBe(409)
    expect(errorOf(r).code).toBe('external_id_conflict')
  })

  it('returns the charge in its current state on a replay', async () => {
    const first = await h.create({ externalId: 'order-4' })
    await h.call('POST', `/v1/charges/${first.body.id}/cancel`)
    const again = await h.create({ externalId: 'order-4' })
    expect(again.status).toBe(200)
    expect(again.body.status).toBe('canceled')
  })

  it('keeps externalIds apart per environment', async () => {
    const test = await h.create({ externalId: 'order-5' })
    const live = await h.create({ externalId: 'order-5' }, { key: h.sb.liveKey })
    expect(live.status).toBe(201)
    expect(live.body.id).not.toBe(test.body.id)
  })
})

describe('Idempotency-Key', () => {
  it('returns 201 then 200 with the original charge for the same key and body', async () => {
    const headers = { 'idempotency-key': 'key-1' }
    const first = await h.create({}, { headers })
    expect(first.status).toBe(201)
    const before = await count()
    const again = await h.create({}, { headers })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
    expect(await count()).toBe(before)
  })

  it('answers 409 idempotency_key_conflict to the same key with a different body', async () => {
    const headers = { 'idempotency-key': 'key-2' }
    await h.create({ amountInCents: 1500 }, { headers })
    const r = await h.create({ amountInCents: 2500 }, { headers })
    expect(r.status).toBe(409)
    expect(errorOf(r).code).toBe('idempotency_key_conflict')
  })

  it('binds a key to the charge an externalId replay returned', async () => {
    const first = await h.create({ externalId: 'order-6' })
    const viaKey = await h.create({ externalId: 'order-6' }, { headers: { 'idempotency-key': 'key-3' } })
    expect(viaKey.status).toBe(200)
    const again = await h.create({ externalId: 'order-6' }, { headers: { 'idempotency-key': 'key-3' } })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
  })

  it('releases the key when creation fails, so a corrected retry can use it', async () => {
    const headers = { 'idempotency-key': 'key-4' }
    h.sb.admin!.updateSettings({ blocked: true })
    expect((await h.create({}, { headers })).status).toBe(403)
    h.sb.admin!.updateSettings({ blocked: false })
    expect((await h.create({}, { headers })).status).toBe(201)
  })

  it('keeps keys apart per environment', async () => {
    const headers = { 'idempotency-key': 'key-5' }
    const test = await h.create({}, { headers })
    const live = await h.create({}, { headers, key: h.sb.liveKey })
    expect(live.status).toBe(201)
    expect(live.body.id).not.toBe(test.body.id)
  })
})

describe('a duplicate while the original is still being created', () => {
  it('answers 409 charge_processing (Retry-After 1) to the same Idempotency-Key, then 200 with the original', async () => {
    const headers = { 'idempotency-key': 'key-slow' }
    const inside = hold()
    const first = h.create({}, { headers })
    await inside
    const dup = await h.create({}, { headers })
    expect(dup.status).toBe(409)
    expect(errorOf(dup).code).toBe('charge_processing')
    expect(dup.headers.get('retry-after')).toBe('1')
    const conflicting = await h.create({ amountInCents: 9999 }, { headers })
    expect(errorOf(conflicting).code).toBe('idempotency_key_conflict')
    open()
    const original = await first
    expect(original.status).toBe(201)
    const retry = await h.create({}, { headers })
    expect(retry.status).toBe(200)
    expect(retry.body.id).toBe(original.body.id)
  })

  it('answers 409 charge_processing to the same externalId, then 200 with the original', async () => {
    const inside = hold()
    const first = h.create({ externalId: 'order-slow' })
    await inside
    const dup = await h.create({ externalId: 'order-slow' })
    expect(errorOf(dup).code).toBe('charge_processing')
    const other = await h.create({ externalId: 'order-slow', amountInCents: 9999 })
    expect(errorOf(other).code).toBe('external_id_conflict')
    open()
    const original = await first
    expect(original.status).toBe(201)
    const retry = await h.create({ externalId: 'order-slow' })
    expect(retry.status).toBe(200)
    expect(retry.body.id).toBe(original.body.id)
    const list = await h.call('GET', '/v1/charges?externalId=order-slow')
    expect(list.body.data).toHaveLength(1)
  })
})
