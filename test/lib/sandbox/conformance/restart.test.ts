/** State in node:sqlite under the data dir: keys, secret, charges, idempotency and timers survive a restart. */
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src/lib/sandbox/engine/clock.js'
import { errorOf, type Harness, START, startHarness } from '../../../helpers/conformance.js'

const HOUR = 3_600_000
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('restart with a data dir', () => {
  it('keeps keys, the webhook secret, charges and idempotency, and runs the expiries and settlements that fell due meanwhile', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-sandbox-')), 'data')
    h = await startHarness({ inMemory: false, dataDir })
    const first = { testKey: h.sb.testKey, liveKey: h.sb.liveKey, secret: h.sb.webhookSecret }
    expect(statSync(join(dataDir, 'sandbox.db')).mode & 0o777).toBe(0o600)

    const waiting = (await h.create({ externalId: 'r-1' }, { headers: { 'idempotency-key': 'r-key' } })).body
    const paid = (await h.create({ externalId: 'r-2' })).body
    await h.call('POST', `/v1/test/charges/${paid.id}/advance`, { body: { status: 'paid_pending_settlement' } })
    const live = (await h.create({}, { key: h.sb.liveKey })).body
    const extra = h.sb.admin!.createKey('test')
    h.sb.admin!.revokeKey(extra.key)
    h.sb.admin!.updateSettings({ feeBps: 250 })
    await h.close()

    // Back 25 hours later (sandbox time): the QR expired and the hold ended while it was down.
    h = await startHarness({ inMemory: false, dataDir, clock: new SandboxClock({ manual: true, start: START + 25 * HOUR }) })
    expect({ testKey: h.sb.testKey, liveKey: h.sb.liveKey, secret: h.sb.webhookSecret }).toEqual(first)

    const expired = (await h.call('GET', `/v1/charges/${waiting.id}`)).body
    expect(expired.status).toBe('expired')
    expect(expired.updatedAt).toBe(waiting.pix.expiresAt)
    const settled = (await h.call('GET', `/v1/charges/${paid.id}`)).body
    expect(settled.status).toBe('settled')
    expect(settled.settlement.settledAt).toBe(new Date(START + 24 * HOUR).toISOString())
    expect(settled.pix.qrCodeImageUrl).toBe(`${h.sb.baseUrl}/qr/${paid.id}.png`)
    expect(h.deliveries.events.map((e) => e.type).sort()).toEqual(['charge.expired', 'charge.expired', 'charge.settled'])

    expect((await h.call('GET', `/v1/charges/${live.id}`, { key: h.sb.liveKey })).status).toBe(200)
    const replay = await h.create({ externalId: 'r-1' }, { headers: { 'idempotency-key': 'r-key' } })
    expect(replay.status).toBe(200)
    expect(replay.body.id).toBe(waiting.id)
    expect(errorOf(await h.call('GET', '/v1/account', { key: extra.key })).code).toBe('revoked_api_key')
    expect((await h.call('GET', '/v1/account')).body.plan.feeBps).toBe(250)

    // New charges sort after the old ones.
    const fresh = (await h.create()).body
    const list = (await h.call('GET', '/v1/charges?limit=3')).body.data.map((c: { id: string }) => c.id)
    expect(list).toEqual([fresh.id, paid.id, waiting.id])
  })

  it('withdrawals and split divisions that fell due while it was down run at restart', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-sandbox-')), 'data')
    h = await startHarness({ inMemory: false, dataDir })
    const w = (await h.call('POST', '/_sandbox/withdrawals', { body: { amountInCents: 1000, pixKey: 'k@example.com' } })).body
    const split = (
      await h.call('POST', '/v1/split-charges', {
        body: {
          amountInCents: 2000,
          payerTaxNumber: '529.982.247-25',
          split: [
            { wallet: 'a', shareBps: 5000 },
            { wallet: 'b', shareBps: 5000 },
          ],
        },
      })
    ).body
    await h.call('POST', `/v1/test/charges/${split.id}/advance`, { body: { status: 'settled' } })
    await h.close()

    h = await startHarness({ inMemory: false, dataDir, clock: new SandboxClock({ manual: true, start: START + HOUR }) })
    expect((await h.call('GET', `/v1/withdrawals/${w.id}`)).body.status).toBe('paid')
    expect((await h.call('GET', `/v1/charges/${split.id}`)).body.split.status).toBe('completed')
    expect(h.deliveries.events.map((e) => e.type).sort()).toEqual(['charge.split.completed', 'withdrawal.paid'])
  })
})
