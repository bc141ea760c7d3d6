import { DatabaseSync } from 'node:sqlite'
import { beforeEach, describe, expect, it } from 'vitest'
import { GroupCommit } from '../../../../src/lib/sandbox/store/group-commit.js'

let db: DatabaseSync
let writes: GroupCommit
let commits: number[]

beforeEach(() => {
  db = new DatabaseSync(':memory:')
  db.exec('PRAGMA foreign_keys = ON')
  db.exec('CREATE TABLE t (v TEXT PRIMARY KEY)')
  writes = new GroupCommit(db)
  commits = []
  writes.onCommit = (n) => commits.push(n)
})

const insert = (v: string) => () => Number(db.prepare('INSERT INTO t (v) VALUES (?)').run(v).lastInsertRowid)
const rows = () => (db.prepare('SELECT v FROM t ORDER BY rowid').all() as Array<{ v: string }>).map((r) => r.v)
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('GroupCommit', () => {
  it('commits the writes of one turn together, in order, and resolves each with its result only once committed', async () => {
    const results = Promise.all([writes.run(insert('a')), writes.run(insert('b')), writes.run(insert('c'))])
    expect(rows()).toEqual([])
    expect(await results).toEqual([1, 2, 3])
    expect(rows()).toEqual(['a', 'b', 'c'])
    expect(commits).toEqual([3])
    await Promise.all([writes.run(insert('d')), writes.run(insert('e'))])
    expect(commits).toEqual([3, 2])
  })

  it('rolls back only the write that failed: it rejects, the others of its batch are committed', async () => {
    const errors: unknown[] = []
    const outcomes = await Promise.allSettled([writes.run(insert('a')), writes.run(insert('a')), writes.run(insert('b'))])
    writes.defer(insert('b'), (err) => errors.push(err))
    writes.defer(insert('c'), (err) => errors.push(err))
    await turn()
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/)
    expect(errors).toHaveLength(1)
    expect(rows()).toEqual(['a', 'b', 'c'])
  })

  it('fails every write of a batch whose commit fails, and writes none of them', async () => {
    db.exec('CREATE TABLE child (p TEXT REFERENCES t (v) DEFERRABLE INITIALLY DEFERRED)')
    const errors: unknown[] = []
    const kept = writes.run(insert('x'))
    writes.defer(
      () => db.prepare("INSERT INTO child (p) VALUES ('nobody')").run(),
      (err) => errors.push(err),
    )
    await expect(kept).rejects.toThrow(/FOREIGN KEY/)
    expect(errors).toHaveLength(1)
    expect(rows()).toEqual([])
    expect(db.isTransaction).toBe(false)
    expect(await writes.run(insert('y'))).toBeGreaterThan(0)
  })

  it('holds queued writes while held (flush still commits them) and commits them once released', async () => {
    const release = writes.hold()
    const a = writes.run(insert('a'))
    for (let i = 0; i < 3; i++) await turn()
    expect(rows()).toEqual([])
    writes.flush()
    expect(await a).toBe(1)
    const b = writes.run(insert('b'))
    await turn()
    expect(rows()).toEqual(['a'])
    release()
    release()
    await b
    expect(rows()).toEqual(['a', 'b'])
  })
})
