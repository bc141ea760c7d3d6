/**
 * The behaviour every relay store keeps (relay/store/types.ts), store-agnostic: run it for each
 * implementation with a function that opens a fresh, empty store. SQLite runs it in
 * test/lib/relay/store/sqlite.test.ts; PostgreSQL calls it the same way.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type NewDelivery, type RelayStore, RelayStoreConflict } from '../../../src/lib/relay/store/types.js'

const T0 = Date.parse('2026-11-27T12:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

function delivery(channel: string, n: number, at = T0 + n * 1000, size = 10): NewDelivery {
  const body = Buffer.from(JSON.stringify({ id: `evt_${n}`, type: 'charge.paid', pad: 'x'.repeat(Math.max(0, size - 40)) }))
  return { channel, eventId: `evt_${n}`, eventType: 'charge.paid', arrivedAt: iso(at), headers: { 'content-type': 'application/json', 'x-svc-event-id': `evt_${n}` }, body }
}

export function describeRelayStore(name: string, open: () => Promise<RelayStore>): void {
  describe(`relay store contract: ${name}`, () => {
    let store: RelayStore
    const opened: RelayStore[] = []
    const fresh = async () => {
      store = await open()
      opened.push(store)
      return store
    }
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close().catch(() => {})
    })

    async function channelWithToken(channel = 'team', token = 'alice') {
      await store.addChannel({ name: channel, secrets: ['whsec_aaaaaaaaaaaaaaaaaaaa'], createdAt: iso(T0) })
      return store.createToken({ name: token, channel, hash: `${token}-hash`.padEnd(64, '0'), only: [], match: [], createdAt: iso(T0) })
    }

    it('keeps channels with their secrets, refuses a taken name, removes them', async () => {
      await fresh()
      await store.addChannel({ name: 'team', secrets: ['whsec_a1111111111111111111', 'whsec_b2222222222222222222'], createdAt: iso(T0), retentionMs: 3_600_000, maxBytes: 5_000_000 })
      expect(await store.getChannel('team')).toEqual({ name: 'team', secrets: ['whsec_a1111111111111111111', 'whsec_b2222222222222222222'], createdAt: iso(T0), retentionMs: 3_600_000, maxBytes: 5_000_000 })
      await expect(store.addChannel({ name: 'team', secrets: ['x'], createdAt: iso(T0) })).rejects.toBeInstanceOf(RelayStoreConflict)
      expect((await store.listChannels()).map((c) => c.name)).toEqual(['team'])
      expect(await store.removeChannel('team')).toBe(true)
      expect(await store.removeChannel('team')).toBe(false)
      expect(await store.getChannel('team')).toBeUndefined()
    })

    it('finds a live token by its hash only, and not once revoked', async () => {
      await fresh()
      const t = await channelWithToken()
      expect(t.startSeq).toBe(0)
      expect((await store.findToken(t.hash))?.name).toBe('alice')
      expect(await store.findToken('0'.repeat(64))).toBeUndefined()
      await expect(store.createToken({ name: 'alice', channel: 'team', hash: 'f'.repeat(64), only: [], match: [], createdAt: iso(T0) })).rejects.toBeInstanceOf(RelayStoreConflict)
      await expect(store.createToken({ name: 'bob', channel: 'nope', hash: 'e'.repeat(64), only: [], match: [], createdAt: iso(T0) })).rejects.toMatchObject({ field: 'channel' })
      expect(await store.revokeToken('alice', iso(T0 + 1))).toBe(true)
      expect(await store.revokeToken('alice', iso(T0 + 2))).toBe(false)
      expect(await store.findToken(t.hash)).toBeUndefined()
      expect((await store.listTokens())[0]).toMatchObject({ name: 'alice', revokedAt: iso(T0 + 1) })
    })

    it('gives a token only what arrived after it was made, in seq order', async () => {
      await fresh()
      await store.addChannel({ name: 'team', secrets: ['s'], createdAt: iso(T0) })
      const before = await store.ingest(delivery('team', 1))
      const t = await store.createToken({ name: 'late', channel: 'team', hash: 'a'.repeat(64), only: [], match: [], createdAt: iso(T0) })
      expect(t.startSeq).toBe(before.seq)
      const after = [await store.ingest(delivery('team', 2)), await store.ingest(delivery('team', 3))]
      expect(after[1]!.seq).toBeGreaterThan(after[0]!.seq)
      const pending = await store.pending('late', 0, 100)
      expect(pending.map((p) => p.eventId)).toEqual(['evt_2', 'evt_3'])
      expect(Buffer.from(pending[0]!.body).toString()).toBe(Buffer.from(delivery('team', 2).body).toString())
      expect(pending[0]!.headers['x-svc-event-id']).toBe('evt_2')
      expect(await store.backlog('late')).toBe(2)
      expect((await store.pending('late', after[0]!.seq, 100)).map((p) => p.eventId)).toEqual(['evt_3'])
      expect((await store.pending('late', 0, 1)).length).toBe(1)
    })

    it('a token of channel A never sees a delivery of channel B', async () => {
      await fresh()
      await channelWithToken('a', 'ta')
      await channelWithToken('b', 'tb')
      await store.ingest(delivery('b', 1))
      await store.ingest(delivery('a', 2))
      expect((await store.pending('ta', 0, 100)).map((p) => p.channel)).toEqual(['a'])
      expect((await store.pending('tb', 0, 100)).map((p) => p.channel)).toEqual(['b'])
      // Acking the other channel's seq does nothing.
      const bSeq = (await store.pending('tb', 0, 100))[0]!.seq
      await store.ack('ta', [bSeq], iso(T0))
      expect(await store.backlog('tb')).toBe(1)
    })

    it('counts sends, and acks per delivery (out of order, idempotent)', async () => {
      await fresh()
      await channelWithToken()
      const seqs = []
      for (let n = 1; n <= 4; n++) seqs.push((await store.ingest(delivery('team', n))).seq)
      expect((await store.pending('alice', 0, 100)).map((p) => p.sends)).toEqual([0, 0, 0, 0])
      await store.markSent('alice', [seqs[0]!, seqs[1]!])
      await store.markSent('alice', [seqs[0]!])
      expect((await store.pending('alice', 0, 100)).map((p) => p.sends)).toEqual([2, 1, 0, 0])
      await store.ack('alice', [seqs[1]!, seqs[3]!], iso(T0 + 5))
      await store.ack('alice', [seqs[1]!], iso(T0 + 6))
      expect((await store.pending('alice', 0, 100)).map((p) => p.eventId)).toEqual(['evt_1', 'evt_3'])
      await store.ack('alice', [seqs[0]!, seqs[2]!], iso(T0 + 7))
      expect(await store.pending('alice', 0, 100)).toEqual([])
      expect(await store.backlog('alice')).toBe(0)
      // A later delivery is pending again (the cursor moved past the acked ones, not past the future).
      await store.ingest(delivery('team', 5))
      expect((await store.pending('alice', 0, 100)).map((p) => p.eventId)).toEqual(['evt_5'])
      const st = (await store.status(new Date(T0))).tokens.find((t) => t.name === 'alice')!
      expect(st).toMatchObject({ backlog: 1, lastAckAt: iso(T0 + 7), revoked: false })
    })

    it('the same event id ingested twice (a panel resend) is stored and pending twice', async () => {
      await fresh()
      await channelWithToken()
      await store.ingest(delivery('team', 1))
      await store.ingest(delivery('team', 1))
      expect((await store.pending('alice', 0, 100)).map((p) => p.eventId)).toEqual(['evt_1', 'evt_1'])
    })

    it('prunes by retention and tells each token its unacked loss as a gap, once', async () => {
      await fresh()
      await store.addChannel({ name: 'team', secrets: ['s'], createdAt: iso(T0), retentionMs: 60_000 })
      await store.createToken({ name: 'acker', channel: 'team', hash: 'a'.repeat(64), only: [], match: [], createdAt: iso(T0) })
      await store.createToken({ name: 'sleeper', channel: 'team', hash: 'b'.repeat(64), only: [], match: [], createdAt: iso(T0) })
      const old1 = await store.ingest(delivery('team', 1, T0))
      const old2 = await store.ingest(delivery('team', 2, T0 + 1000))
      await store.ingest(delivery('team', 3, T0 + 120_000))
      await store.ack('acker', [old1.seq, old2.seq], iso(T0 + 2000))
      const result = await store.prune(new Date(T0 + 150_000), 7 * 86_400_000)
      expect(result.deleted).toBe(2)
      expect(result.lostByToken).toEqual({ sleeper: 2 })
      expect((await store.status(new Date(T0 + 150_000))).tokens.find((t) => t.name === 'sleeper')!.untoldLost).toBe(2)
      expect(await store.takeGap('sleeper')).toMatchObject({ lost: 2, fromSeq: old1.seq, toSeq: old2.seq, reason: 'retention' })
      expect(await store.takeGap('sleeper')).toBeUndefined()
      expect(await store.takeGap('acker')).toBeUndefined()
      expect((await store.pending('sleeper', 0, 100)).map((p) => p.eventId)).toEqual(['evt_3'])
    })

    it('prunes the oldest over a channel byte cap, as a max_bytes gap', async () => {
      await fresh()
      await store.addChannel({ name: 'team', secrets: ['s'], createdAt: iso(T0), maxBytes: 2500 })
      await store.createToken({ name: 'alice', channel: 'team', hash: 'a'.repeat(64), only: [], match: [], createdAt: iso(T0) })
      for (let n = 1; n <= 3; n++) await store.ingest(delivery('team', n, T0 + n, 1000))
      const result = await store.prune(new Date(T0 + 10), 7 * 86_400_000)
      expect(result.lostByToken).toEqual({ alice: 1 })
      expect(await store.takeGap('alice')).toMatchObject({ lost: 1, reason: 'max_bytes' })
      expect((await store.pending('alice', 0, 100)).map((p) => p.eventId)).toEqual(['evt_2', 'evt_3'])
    })

    it('status: channels, tokens with backlog and oldest unacked, ingest in the last hour, connection heartbeat', async () => {
      await fresh()
      await channelWithToken()
      await store.ingest(delivery('team', 1, T0 - 2 * 3_600_000))
      await store.ingest(delivery('team', 2, T0))
      await store.markConnected('alice', iso(T0))
      const s = await store.status(new Date(T0 + 1000))
      expect(s.channels).toEqual([{ name: 'team', deliveries: 2, bytes: expect.any(Number) }])
      expect(s.ingestedLastHour).toBe(1)
      expect(s.tokens[0]).toMatchObject({ name: 'alice', channel: 'team', backlog: 2, oldestUnackedAt: iso(T0 - 2 * 3_600_000), untoldLost: 0, connectedAt: iso(T0) })
      await store.markConnected('alice', undefined)
      expect((await store.status(new Date(T0))).tokens[0]!.connectedAt).toBeUndefined()
    })

    it('group commit: concurrent ingests all commit, with distinct increasing seqs, and wake once per commit', async () => {
      await fresh()
      await channelWithToken()
      const woken: string[] = []
      const off = store.onIngest((c) => woken.push(c))
      const stored = await Promise.all(Array.from({ length: 50 }, (_, n) => store.ingest(delivery('team', n + 1))))
      off()
      const seqs = stored.map((s) => s.seq)
      expect(new Set(seqs).size).toBe(50)
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs)
      expect(woken.length).toBeGreaterThanOrEqual(1)
      expect(woken.length).toBeLessThan(50)
      expect(await store.backlog('alice')).toBe(50)
    })

    it('is healthy while it can commit, and not once closed', async () => {
      await fresh()
      expect(await store.healthy()).toBe(true)
      await store.close()
      expect(await store.healthy()).toBe(false)
      await expect(store.ingest(delivery('team', 1))).rejects.toThrow()
    })

    it('removing a channel removes its tokens and deliveries', async () => {
      await fresh()
      const t = await channelWithToken()
      await store.ingest(delivery('team', 1))
      await store.removeChannel('team')
      expect(await store.findToken(t.hash)).toBeUndefined()
      expect(await store.listTokens()).toEqual([])
      expect((await store.status(new Date(T0))).channels).toEqual([])
    })
  })
}
