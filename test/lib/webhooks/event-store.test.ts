import { statSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EventStore, type NewLoggedDelivery } from '../../../src/lib/webhooks/event-store.js'
import { newDelivery } from '../../helpers/event-log.js'

function rec(eventId: string, outcome: NewLoggedDelivery['outcome'] = 'forwarded', type = 'charge.settled'): NewLoggedDelivery {
  return newDelivery({ eventId, type, outcome, headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0x7d]) })
}

describe('EventStore', () => {
  it('creates events.db in the config dir, readable by the owner only (its write-ahead log too)', async () => {
    const store = await EventStore.open()
    store.record(rec('evt_1'))
    await store.committed()
    const path = join(process.env.SVC_CONFIG_DIR!, 'events.db')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600)
    store.close()
  })

  it('groups the records of one event-loop turn in one commit, seen by other connections once committed() resolves (from their next turn)', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'grouped.db')
    const writer = await EventStore.open({ path })
    const reader = await EventStore.open({ path })
    writer.record(rec('evt_g1'))
    writer.record(rec('evt_g2', 'failed'))
    // Visible to the writer at once (deduplication in this process), not yet to anyone else.
    expect(writer.isDelivered('evt_g1')).toBe(true)
    expect(writer.record(rec('evt_g2')).attempt).toBe(2)
    expect(reader.isDelivered('evt_g1')).toBe(false)
    await writer.committed()
    // The reader looks at what others committed once per event-loop turn (PRAGMA data_version): this one looked already.
    await new Promise((r) => setImmediate(r))
    expect(reader.isDelivered('evt_g1')).toBe(true)
    expect(reader.list({ eventId: 'evt_g2' }).map((r) => r.attempt)).toEqual([2, 1])
    reader.close()
    writer.close()
  })

  it('under durability full, committed() waits for the log to be synced to disk, off the event loop; commits made during a sync share the next one', async () => {
    const held: Array<(err: NodeJS.ErrnoException | null) => void> = []
    const path = join(process.env.SVC_CONFIG_DIR!, 'full.db')
    const full = await EventStore.open({ path, durability: 'full', sync: (_fd, done) => held.push(done) })
    const other = await EventStore.open({ path })
    expect(full.durability).toBe('full')
    let first = false
    full.record(rec('evt_f1'))
    void full.committed().then(() => (first = true))
    await new Promise((r) => setImmediate(r))
    // Committed (another connection reads it) but not yet synced: not yet said to be stored.
    expect(other.isDelivered('evt_f1')).toBe(true)
    expect([first, held.length]).toEqual([false, 1])
    // Two more turns while the first sync runs: one sync, after it, for both.
    full.record(rec('evt_f2'))
    const second = full.committed()
    await new Promise((r) => setImmediate(r))
    full.record(rec('evt_f3'))
    const third = full.committed()
    await new Promise((r) => setImmediate(r))
    expect([full.commits, full.syncs, held.length]).toEqual([3, 1, 1])
    held[0]!(null)
    await new Promise((r) => setImmediate(r))
    expect(first).toBe(true)
    expect(held).toHaveLength(2)
    held[1]!(null)
    await Promise.all([second, third])
    expect(full.syncs).toBe(2)
    // A failed sync is not "stored": its waiters hear the error.
    full.record(rec('evt_f4'))
    const failed = full.committed()
    await new Promise((r) => setImmediate(r))
    held[2]!(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }))
    await expect(failed).rejects.toThrow(/EIO/)
    other.close()
    full.close()
  })

  it('under durability full, really syncs the log file (fdatasync by default)', async () => {
    const full = await EventStore.open({ path: join(process.env.SVC_CONFIG_DIR!, 'full-real.db'), durability: 'full' })
    full.record(rec('evt_real'))
    await full.committed()
    expect([full.commits, full.syncs]).toEqual([1, 1])
    full.close()
  })

  it('commits what is pending when it is closed', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'closing.db')
    const store = await EventStore.open({ path })
    store.record(rec('evt_close'))
    store.close()
    const again = await EventStore.open({ path })
    expect(again.isDelivered('evt_close')).toBe(true)
    again.close()
  })

  it('keeps raw bodies byte for byte, numbers attempts per event, and lists newest first', async () => {
    const store = await EventStore.open({ path: ':memory:' })
    store.record(rec('evt_a', 'failed'))
    store.record(rec('evt_b', 'forwarded', 'charge.paid_pending_settlement'))
    const again = store.record(rec('evt_a'))
    expect(again.attempt).toBe(2)
    const list = store.list()
    expect(list.map((r) => r.eventId)).toEqual(['evt_a', 'evt_b', 'evt_a'])
    expect(Buffer.from(list[0]!.body)).toEqual(Buffer.from([0x7b, 0xff, 0x7d]))
    expect(store.list({ type: 'charge.paid*' }).map((r) => r.eventId)).toEqual(['evt_b'])
    expect(store.list({ limit: 1 })).toHaveLength(1)
    expect(store.isDelivered('evt_a')).toBe(true)
    store.close()
  })

  it('only successful forwards count as delivered', async () => {
    const store = await EventStore.open({ path: ':memory:' })
    for (const o of ['failed', 'rejected', 'skipped', 'duplicate'] as const) store.record(rec(`evt_${o}`, o))
    for (const o of ['failed', 'rejected', 'skipped', 'duplicate']) expect(store.isDelivered(`evt_${o}`)).toBe(false)
    store.close()
  })

  it('stays bounded however long it runs, without forgetting recent deliveries', async () => {
    const store = await EventStore.open({ path: ':memory:', maxDeliveries: 50, maxDelivered: 80 })
    for (let i = 0; i < 400; i++) store.record(rec(`evt_${i}`))
    store.prune()
    const all = store.list({ limit: 1000 })
    expect(all).toHaveLength(50)
    expect(all[0]!.eventId).toBe('evt_399')
    expect(store.isDelivered('evt_399')).toBe(true)
    expect(store.isDelivered('evt_0')).toBe(false)
    store.close()
  })

  it('keeps to its caps when another process writes to the same log, and a delivery marked twice is one mark', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'shared-caps.db')
    const mine = await EventStore.open({ path, maxDeliveries: 30, maxDelivered: 20 })
    const other = await EventStore.open({ path, maxDeliveries: 1000, maxDelivered: 1000 })
    for (let i = 0; i < 10; i++) mine.record(rec(`evt_m${i}`))
    mine.prune()
    await mine.committed()
    // The other process's rows and marks are not in this store's running counts: the next prune still sees them.
    for (let i = 0; i < 40; i++) other.record(rec(`evt_o${i}`))
    await other.committed()
    mine.record(rec('evt_last'))
    mine.prune()
    expect(mine.list({ limit: 1000 })).toHaveLength(30)
    expect(mine.isDelivered('evt_last')).toBe(true)
    expect(mine.isDelivered('evt_o20')).toBe(false)
    expect(mine.isDelivered('evt_o21')).toBe(true)
    // Marked again (a redelivery forwarded twice): the mark moves to the newer delivery, the count stays one.
    for (let i = 0; i < 25; i++) mine.record(rec('evt_again'))
    mine.prune()
    expect(mine.isDelivered('evt_last')).toBe(true)
    expect(mine.isDelivered('evt_o21')).toBe(false)
    expect(mine.isDelivered('evt_o22')).toBe(true)
    await mine.committed()
    const db = new DatabaseSync(path)
    expect((db.prepare('SELECT COUNT(*) AS n FROM delivered').get() as { n: number }).n).toBe(20)
    expect((db.prepare('SELECT COUNT(*) AS n FROM deliveries').get() as { n: number }).n).toBe(30)
    db.close()
    other.close()
    mine.close()
  })

  it('answers what the log on disk says when another process marks, records and prunes there, and after a restart', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'index-shared.db')
    const url = 'http://localhost:3000/'
    const listener = await EventStore.open({ path })
    const other = await EventStore.open({ path, maxDeliveries: 4, maxDelivered: 2 })
    // What SQLite itself says, read by a connection of its own.
    const disk = new DatabaseSync(path)
    const onDisk = (id: string) => ({
      delivered: disk.prepare("SELECT 1 FROM delivered WHERE event_id = ? AND target IN (?, '*')").get(id, url) !== undefined,
      attempts: (disk.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE event_id = ? AND source <> 'replay'").get(id) as { n: number }).n,
    })
    const known = (store: EventStore, id: string) => ({ delivered: store.isDelivered(id, url), attempts: store.countFor(id) })
    listener.record({ ...rec('evt_x', 'failed'), forwardUrl: url })
    await listener.committed()
    expect(known(listener, 'evt_x')).toEqual({ delivered: false, attempts: 1 })
    // Another process (a replay, a second listener) forwards it: this listener hears of it before its next delivery.
    other.record({ ...rec('evt_x'), forwardUrl: url })
    other.record({ ...rec('evt_x'), source: 'replay', forwardUrl: url })
    await other.committed()
    expect(known(listener, 'evt_x')).toEqual({ delivered: true, attempts: 2 })
    expect(listener.record({ ...rec('evt_x', 'duplicate'), forwardUrl: url }).attempt).toBe(3)
    await listener.committed()
    // The other process prunes (its caps are small): what it deleted is forgotten here too.
    for (const id of ['evt_y', 'evt_z', 'evt_w']) other.record({ ...rec(id), forwardUrl: url })
    other.prune()
    await other.committed()
    for (const id of ['evt_x', 'evt_y', 'evt_z', 'evt_w']) expect([id, known(listener, id)]).toEqual([id, onDisk(id)])
    expect(onDisk('evt_x').delivered).toBe(false)
    // This store's own prune keeps its index in step, and a restart loads the same from disk.
    for (let i = 0; i < 6; i++) listener.record({ ...rec(`evt_n${i % 3}`, i % 2 === 0 ? 'forwarded' : 'failed'), forwardUrl: url })
    // This one prunes by rows, marks and bytes (37 a row: down to 3 rows).
    const pruning = await EventStore.open({ path, maxDeliveries: 5, maxDelivered: 3, maxBytes: 150 })
    await listener.committed()
    expect(known(pruning, 'evt_n0')).toEqual(onDisk('evt_n0'))
    pruning.record({ ...rec('evt_n1'), forwardUrl: url })
    pruning.prune()
    await pruning.committed()
    expect((disk.prepare('SELECT COUNT(*) AS n FROM deliveries').get() as { n: number }).n).toBe(3)
    const restarted = await EventStore.open({ path })
    restarted.warm()
    for (const id of ['evt_x', 'evt_w', 'evt_n0', 'evt_n1', 'evt_n2']) {
      expect([id, known(listener, id)]).toEqual([id, onDisk(id)])
      expect([id, known(pruning, id)]).toEqual([id, onDisk(id)])
      expect([id, known(restarted, id)]).toEqual([id, onDisk(id)])
    }
    disk.close()
    for (const s of [restarted, pruning, other, listener]) s.close()
  })

  it('marks an event delivered per target: one app having it says nothing of another', async () => {
    const store = await EventStore.open({ path: ':memory:', maxDeliveries: 50, maxDelivered: 4 })
    store.record({ ...rec('evt_t'), forwardUrl: 'http://localhost:3000/' })
    expect(store.isDelivered('evt_t', 'http://localhost:3000/')).toBe(true)
    expect(store.isDelivered('evt_t', 'http://localhost:4000/split')).toBe(false)
    store.record({ ...rec('evt_t'), forwardUrl: 'http://localhost:4000/split' })
    expect(store.isDelivered('evt_t', 'http://localhost:4000/split')).toBe(true)
    // A failed forward to a target is no mark for it.
    store.record({ ...rec('evt_u', 'failed'), forwardUrl: 'http://localhost:4000/split' })
    expect(store.isDelivered('evt_u', 'http://localhost:4000/split')).toBe(false)
    // Bounded in marks, not in events: the oldest (event, target) pairs go first.
    for (let i = 0; i < 4; i++) store.record({ ...rec(`evt_more${i}`), forwardUrl: 'http://localhost:3000/' })
    store.prune()
    expect(store.isDelivered('evt_t', 'http://localhost:3000/')).toBe(false)
    expect(store.isDelivered('evt_more3', 'http://localhost:3000/')).toBe(true)
    store.close()
  })

  it('opens an event log from before routing and keeps its marks: per target where the log says which, else for any', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'v02.db')
    // The 0.2 schema, as a 0.2 listener left it.
    const old = new DatabaseSync(path)
    old.exec(`CREATE TABLE deliveries (seq INTEGER PRIMARY KEY AUTOINCREMENT, received_at TEXT NOT NULL, source TEXT NOT NULL, event_id TEXT, event_type TEXT,
        charge_id TEXT, attempt INTEGER NOT NULL, headers TEXT NOT NULL, body BLOB NOT NULL, verification TEXT NOT NULL, verify_reason TEXT, verify_message TEXT,
        outcome TEXT NOT NULL, answered_status INTEGER NOT NULL, forward_url TEXT, forward_status INTEGER, latency_ms INTEGER, error TEXT, response_snippet TEXT);
      CREATE INDEX deliveries_event ON deliveries(event_id, seq);
      CREATE INDEX deliveries_type ON deliveries(event_type, seq);
      CREATE TABLE delivered (event_id TEXT PRIMARY KEY, delivered_at TEXT NOT NULL, seq INTEGER NOT NULL);
      CREATE INDEX delivered_seq ON delivered(seq);
      INSERT INTO deliveries (received_at, source, event_id, event_type, attempt, headers, body, verification, outcome, answered_status, forward_url)
        VALUES ('2026-11-22T12:00:00.000Z', 'service', 'evt_kept', 'charge.settled', 1, '{}', x'7b7d', 'verified', 'forwarded', 200, 'http://localhost:3000/');
      INSERT INTO delivered VALUES ('evt_kept', '2026-11-22T12:00:00.000Z', 1);
      INSERT INTO delivered VALUES ('evt_pruned', '2026-11-21T12:00:00.000Z', 0);`)
    old.close()

    const store = await EventStore.open({ path })
    expect(store.list().map((r) => r.eventId)).toEqual(['evt_kept'])
    expect(store.isDelivered('evt_kept', 'http://localhost:3000/')).toBe(true)
    expect(store.isDelivered('evt_kept', 'http://localhost:4000/')).toBe(false)
    // Its delivery row is gone, so nobody knows where it went: it counts for every target (no double).
    expect(store.isDelivered('evt_pruned', 'http://localhost:4000/')).toBe(true)
    // 0.3's route column is added on open: the old row has none, a new one keeps its pattern.
    store.record({ ...rec('evt_new'), forwardUrl: 'http://localhost:4000/', route: 'charge.*' })
    store.close()

    // Opened again (and by a second process at once): nothing to migrate twice, nothing lost.
    const [a, b] = await Promise.all([EventStore.open({ path }), EventStore.open({ path })])
    expect(a.isDelivered('evt_new', 'http://localhost:4000/')).toBe(true)
    expect(a.list().map((r) => [r.eventId, r.route])).toEqual([
      ['evt_new', 'charge.*'],
      ['evt_kept', undefined],
    ])
    expect(b.isDelivered('evt_kept', 'http://localhost:3000/')).toBe(true)
    a.close()
    b.close()
    const check = new DatabaseSync(path)
    expect((check.prepare('PRAGMA table_info(delivered)').all() as Array<{ name: string }>).map((c) => c.name)).toEqual(['event_id', 'target', 'delivered_at', 'seq'])
    check.close()
  })
})
