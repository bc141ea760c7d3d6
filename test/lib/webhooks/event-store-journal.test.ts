import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventStore, JOURNAL_COMMIT_MS, JOURNAL_COMMIT_RECORDS, JOURNAL_TURN_COMMIT, type NewLoggedDelivery } from '../../../src/lib/webhooks/event-store.js'
import { deadJournals, hostTag, journalFrame, parseJournal, type RowValues } from '../../../src/lib/webhooks/event-store-journal.js'
import { newDelivery } from '../../helpers/event-log.js'

/** A pid no process can have (Linux's pid_max is at most 2^22). */
const DEAD_PID = 4_194_305

function rec(eventId: string, outcome: NewLoggedDelivery['outcome'] = 'forwarded'): NewLoggedDelivery {
  return newDelivery({ eventId, type: 'charge.settled', outcome, headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0xff, 0x00, 0x7d]) })
}

/** The journals next to a log. */
function journalsOf(path: string): string[] {
  return readdirSync(dirname(path))
    .filter((n) => n.startsWith(`${basename(path)}-redo-`))
    .map((n) => join(dirname(path), n))
}

const values = (over: Partial<{ receivedAt: string; eventId: string; outcome: string }> = {}): RowValues => [
  over.receivedAt ?? '2026-11-28T10:00:00.000Z',
  'service',
  over.eventId ?? 'evt_j1',
  'charge.settled',
  'ch_1',
  1,
  '{"content-type":"application/json"}',
  new Uint8Array([0x7b, 0x0a, 0xff, 0x7d]),
  'verified',
  null,
  null,
  over.outcome ?? 'forwarded',
  200,
  'http://127.0.0.1:3000/webhooks',
  200,
  3,
  null,
  null,
  null,
  null,
]

afterEach(() => {
  vi.useRealTimers()
})

describe('the journal file', () => {
  it('holds a record per frame, its body byte for byte; a last frame cut short by a kill was never answered and is left out', () => {
    const frames = [...journalFrame(7, values()), ...journalFrame(8, values({ eventId: 'evt_j2' }))]
    const whole = Buffer.concat(frames)
    const next = Buffer.concat(journalFrame(9, values({ eventId: 'evt_j3' })))
    // Cut in its lengths, in its values, in its body.
    for (const cut of [4, 20, next.length - 1]) expect(parseJournal(Buffer.concat([whole, next.subarray(0, cut)])).map((e) => e.seq)).toEqual([7, 8])
    expect(parseJournal(Buffer.concat([whole, next])).map((e) => e.seq)).toEqual([7, 8, 9])
    // A frame whose values do not read (not one this svc wrote whole): it and what follows are left out.
    const garbled = Buffer.from(next)
    garbled.fill(0x7b, 8, 12)
    expect(parseJournal(Buffer.concat([whole, garbled, next])).map((e) => e.seq)).toEqual([7, 8])
    const entries = parseJournal(whole)
    expect(entries.map((e) => [e.seq, e.values[2]])).toEqual([
      [7, 'evt_j1'],
      [8, 'evt_j2'],
    ])
    expect([...entries[0]!.values[7]]).toEqual([0x7b, 0x0a, 0xff, 0x7d])
    expect(entries[0]!.values.slice(8)).toEqual(values().slice(8))
  })

  it('names only the journals of this log whose process, on this host, is gone (a pid says nothing of another container sharing the directory)', () => {
    const dir = process.env.SVC_CONFIG_DIR!
    const path = join(dir, 'names.db')
    const here = hostTag()
    const dead = `names.db-redo-${here}-${DEAD_PID}-0a1b2c3d`
    const mine = `names.db-redo-${here}-${process.pid}-0a1b2c3d`
    const elsewhere = `names.db-redo-${hostTag('another-container')}-${DEAD_PID}-0a1b2c3d`
    for (const name of [dead, mine, elsewhere, `other.db-redo-${here}-${DEAD_PID}-0a1b2c3d`, 'names.db-redo-x']) writeFileSync(join(dir, name), '')
    expect(deadJournals(path)).toEqual([join(dir, dead)])
    expect(deadJournals(path, () => false).sort()).toEqual([join(dir, dead), join(dir, mine)].sort())
  })
})

describe('EventStore in journal mode (svc webhooks listen)', () => {
  it("says a turn's records are stored once they are in the journal (0600), one write; the log commits them later, and the journal starts over", async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'journaled.db')
    const store = await EventStore.open({ path, journal: true })
    const other = await EventStore.open({ path })
    expect(store.journaled).toBe(true)
    // One record a turn, as at one connection: each turn's record goes to the journal.
    const a = store.record(rec('evt_a'))
    await store.committed()
    const b = store.record(rec('evt_b', 'failed'))
    await store.committed()
    const [file] = journalsOf(path)
    expect(statSync(file!).mode & 0o777).toBe(0o600)
    expect(parseJournal(readFileSync(file!)).map((e) => [e.seq, e.values[2]])).toEqual([
      [a.seq, 'evt_a'],
      [b.seq, 'evt_b'],
    ])
    // Not committed yet: another process does not see them; this store does.
    expect(other.list().length).toBe(0)
    expect(store.isDelivered('evt_a')).toBe(true)
    expect(store.commits).toBe(0)

    store.flush()
    await new Promise((r) => setImmediate(r))
    expect(other.list().map((r) => r.eventId)).toEqual(['evt_b', 'evt_a'])
    expect(other.isDelivered('evt_a')).toBe(true)
    expect(readFileSync(file!).length).toBe(0)
    expect(store.commits).toBe(1)
    other.close()
    store.close()
    // Closed with everything in the log: no journal is left.
    expect(existsSync(file!)).toBe(false)
  })

  it(`commits a turn of ${JOURNAL_TURN_COMMIT} records or more at its end, with the journal's records before it, instead of appending it`, async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'busy.db')
    const store = await EventStore.open({ path, journal: true })
    const other = await EventStore.open({ path })
    store.record(rec('evt_lone'))
    await store.committed()
    const [file] = journalsOf(path)
    expect(parseJournal(readFileSync(file!)).map((e) => e.values[2])).toEqual(['evt_lone'])
    expect(store.commits).toBe(0)
    // Concurrent deliveries: their turn is committed at its end, and their answers wait for it.
    for (let i = 0; i < JOURNAL_TURN_COMMIT; i++) store.record(rec(`evt_c${i}`))
    await store.committed()
    expect(store.commits).toBe(1)
    expect(other.list().map((r) => r.eventId)).toEqual([...Array.from({ length: JOURNAL_TURN_COMMIT }, (_, i) => `evt_c${i}`).reverse(), 'evt_lone'])
    expect(readFileSync(file!).length).toBe(0)
    other.close()
    store.close()
  })

  it(`commits by itself ${JOURNAL_COMMIT_MS} ms after a turn's records, or at once (after their answers) at ${JOURNAL_COMMIT_RECORDS}`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const path = join(process.env.SVC_CONFIG_DIR!, 'timed.db')
    const store = await EventStore.open({ path, journal: true })
    store.record(rec('evt_t1'))
    await store.committed()
    store.record(rec('evt_t2'))
    await store.committed()
    vi.advanceTimersByTime(JOURNAL_COMMIT_MS - 1)
    expect(store.commits).toBe(0)
    vi.advanceTimersByTime(1)
    // One commit for both turns.
    expect(store.commits).toBe(1)

    for (let i = 0; i < JOURNAL_COMMIT_RECORDS; i++) store.record(rec(`evt_n${i}`, 'skipped'))
    await store.committed()
    await new Promise((r) => setImmediate(r))
    expect(store.commits).toBe(2)
    store.close()
  })

  it('after a kill -9 that came after the answer and before the commit, the next store opened on the log puts the records in at their seqs, marks and all', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'killed.db')
    const module = pathToFileURL(join(process.cwd(), 'dist/lib/webhooks/event-store.js')).href
    // A process that records, hears "stored", says so, and is killed before the commit (25 ms later).
    const script = `
      const { EventStore } = await import(${JSON.stringify(module)})
      const store = await EventStore.open({ path: ${JSON.stringify(path)}, journal: true })
      const rec = (eventId, outcome) => ({ receivedAt: new Date().toISOString(), source: 'service', eventId, type: 'charge.paid', headers: { a: 'b' }, body: Buffer.from('{"x":1}'), verification: 'verified', outcome, answeredStatus: 200, forwardUrl: 'http://127.0.0.1:3000/' })
      const seqs = [store.record(rec('evt_k1', 'forwarded')).seq]
      await store.committed()
      seqs.push(store.record(rec('evt_k2', 'failed')).seq)
      await store.committed()
      process.stdout.write(JSON.stringify(seqs), () => process.kill(process.pid, 'SIGKILL'))
    `
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(child.signal).toBe('SIGKILL')
    const seqs = JSON.parse(child.stdout) as number[]
    expect(journalsOf(path)).toHaveLength(1)

    const store = await EventStore.open({ path })
    expect(
      store
        .list()
        .map((r) => [r.seq, r.eventId, r.outcome, Buffer.from(r.body).toString()])
        .reverse(),
    ).toEqual([
      [seqs[0], 'evt_k1', 'forwarded', '{"x":1}'],
      [seqs[1], 'evt_k2', 'failed', '{"x":1}'],
    ])
    expect(store.isDelivered('evt_k1', 'http://127.0.0.1:3000/')).toBe(true)
    expect(store.isDelivered('evt_k2')).toBe(false)
    expect(journalsOf(path)).toEqual([])
    store.close()
  })

  it("leaves out a dead journal's records the log holds already (committed before it started over), and puts one whose seq another process took at the next", async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'taken.db')
    const first = await EventStore.open({ path })
    const kept = first.record(rec('evt_kept'))
    const taken = first.record(rec('evt_other'))
    first.close()
    const row = (seq: number, eventId: string, receivedAt: string) => Buffer.concat(journalFrame(seq, values({ eventId, receivedAt })))
    writeFileSync(`${path}-redo-${hostTag()}-${DEAD_PID}-00000000`, Buffer.concat([row(kept.seq, 'evt_kept', kept.receivedAt), row(taken.seq, 'evt_lost', '2026-11-28T10:00:01.000Z')]), { mode: 0o600 })

    const store = await EventStore.open({ path })
    expect(
      store
        .list()
        .map((r) => [r.seq, r.eventId])
        .reverse(),
    ).toEqual([
      [kept.seq, 'evt_kept'],
      [taken.seq, 'evt_other'],
      [taken.seq + 1, 'evt_lost'],
    ])
    expect(store.isDelivered('evt_lost')).toBe(true)
    expect(existsSync(`${path}-redo-${hostTag()}-${DEAD_PID}-00000000`)).toBe(false)
    store.close()
  })

  it('opens the log all the same when a dead journal cannot be put in now, and leaves it for the next time', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'stuck.db')
    const stuck = `${path}-redo-${hostTag()}-${DEAD_PID}-0badf00d`
    mkdirSync(stuck)
    const store = await EventStore.open({ path })
    store.record(rec('evt_after'))
    await store.committed()
    expect(store.list().map((r) => r.eventId)).toEqual(['evt_after'])
    expect(existsSync(stuck)).toBe(true)
    store.close()
  })

  it('costs `svc webhooks listen` no load of node:crypto before its listening line (the first frame opens the log; crypto took 9–14 ms of it)', () => {
    // A preload that looks, at the process's first stdout line, whether node:crypto was loaded.
    const dir = mkdtempSync(join(tmpdir(), 'svc-journal-crypto-'))
    const preload = join(dir, 'look.cjs')
    writeFileSync(preload, `process.stdout.write = (...a) => { require('node:fs').writeSync(2, 'crypto:' + process.moduleLoadList.includes('NativeModule crypto') + '\\n'); process.exit(0) }`)
    const run = spawnSync(process.execPath, ['--require', preload, join(process.cwd(), 'bin/run.js'), 'webhooks', 'listen', '--forward', 'localhost:3998', '--port', '0', '--no-tui'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, SVC_CONFIG_DIR: dir, SVC_WEBHOOK_SECRET: `whsec_${'0'.repeat(32)}`, SVC_API_KEY: '', SVC_BASE_URL: '' },
    })
    expect(run.stderr).toContain('crypto:false')
    expect(readdirSync(dir)).toContain('events.db')
  })

  it('under durability full, answers on the synced commit as before: no journal', async () => {
    const path = join(process.env.SVC_CONFIG_DIR!, 'full-journal.db')
    const store = await EventStore.open({ path, journal: true, durability: 'full', sync: (_fd, done) => done(null) })
    expect(store.journaled).toBe(false)
    store.record(rec('evt_f'))
    await store.committed()
    expect(store.commits).toBe(1)
    expect(journalsOf(path)).toEqual([])
    store.close()
  })
})
