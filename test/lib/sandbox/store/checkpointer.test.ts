import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { Checkpointer } from '../../../../src/lib/sandbox/store/checkpointer.js'
import { DB_FILE, openDatabase } from '../../../../src/lib/sandbox/store/db.js'
import { GroupCommit } from '../../../../src/lib/sandbox/store/group-commit.js'

const ROW = 'x'.repeat(2000)
const autocheckpoint = (db: DatabaseSync) => (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const f of cleanup.reverse()) await f()
  cleanup = []
})

function open(): { db: DatabaseSync; dir: string; writes: GroupCommit } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-ckpt-'))
  const db = openDatabase({ dataDir: dir })
  db.exec('CREATE TABLE t (v TEXT)')
  cleanup.push(() => db.close())
  return { db, dir, writes: new GroupCommit(db) }
}

describe('Checkpointer', () => {
  it('copies the log into the database while commits go on, and the log starts over', async () => {
    const { db, dir, writes } = open()
    const logs: string[] = []
    const cp = new Checkpointer(db, join(dir, DB_FILE), writes, (l) => logs.push(l), 100)
    cleanup.push(() => cp.stop())
    expect(cp.active).toBe(true)
    expect(autocheckpoint(db)).toBe(0)
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
    // 40 turns of 50 rows of 2 kB (4 MB in all), commits landing while checkpoints run.
    for (let turn = 0; turn < 40; turn++) await Promise.all(Array.from({ length: 50 }, () => writes.run(() => insert.run(ROW))))
    await cp.idle()
    // The first commit after a complete checkpoint starts the log over: it holds that commit only.
    await writes.run(() => insert.run(ROW))
    const reader = new DatabaseSync(join(dir, DB_FILE))
    expect((reader.prepare('PRAGMA wal_checkpoint(PASSIVE)').get() as { log: number }).log).toBeLessThan(10)
    expect((reader.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n).toBe(2001)
    reader.close()
    expect(logs).toEqual([])

    await cp.stop()
    expect(cp.active).toBe(false)
    expect(autocheckpoint(db)).toBe(1000)
  })

  it('counts commits too: one write per commit (a client creating one charge at a time) does not grow the log to the writes threshold', async () => {
    const { db, dir, writes } = open()
    const cp = new Checkpointer(db, join(dir, DB_FILE), writes, () => {}, 5000)
    cleanup.push(() => cp.stop())
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)')
    // A first cycle (500 commits, a tenth of the 5000 writes), let finish: the worker is up.
    for (let i = 0; i < 500; i++) await writes.run(() => insert.run(ROW))
    await cp.idle()
    const cyclesBefore = cp.cycles
    // 2000 more commits of one write: under 5000 writes, so only the commits start cycles.
    for (let i = 0; i < 2000; i++) await writes.run(() => insert.run(ROW))
    await cp.idle()
    // Counted by writes alone, none would start (the log grew by every commit: 16 MB measured).
    // How many start depends on how fast the worker copies (a busy machine makes cycles longer,
    // so fewer and the log larger in between), not whether: at least one.
    // (That a complete cycle starts the log over is the first test's.)
    expect(cp.cycles - cyclesBefore).toBeGreaterThanOrEqual(1)
  })

  it("falls back to SQLite's own checkpoints, with a note, when the worker cannot open the database", async () => {
    const { db, dir, writes } = open()
    let noted: (line: string) => void = () => {}
    const note = new Promise<string>((resolve) => (noted = resolve))
    // A directory is not a database file: the worker's open fails.
    const cp = new Checkpointer(db, dir, writes, (l) => noted(l), 100)
    cleanup.push(() => cp.stop())
    expect(await note).toMatch(/WAL checkpoints back on the main thread/)
    expect(cp.active).toBe(false)
    expect(autocheckpoint(db)).toBe(1000)
    expect(writes.onCommit).toBeUndefined()
    await writes.run(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('still written'))
  })
})
