// Diagnostic (issue 39.2): which pages a lone delivery's commit writes to the event log's WAL, by
// B-tree (SQLite's dbstat table). A commit appends every page it touched, so at one delivery per
// commit (the forwarder at one connection) the frames per commit are most of what the log costs.
//   node bench/tools/event-log-frames.js [commits]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'
import { ROOT } from '../lib/proc.js'

const { EventStore } = await import(pathToFileURL(join(ROOT, 'dist/lib/webhooks/event-store.js')).href)
const dir = mkdtempSync(join(tmpdir(), 'svc-frames-'))
const path = join(dir, 'events.db')
// SQLite's own checkpoints off: this script empties the log before each measured commit.
const store = await EventStore.open({ path, checkpointEvery: 0 })
const target = 'http://127.0.0.1:3000/webhooks'
const body = Buffer.alloc(900, 'x')
const headers = { host: '127.0.0.1:4242', 'content-type': 'application/json', 'x-svc-event-id': 'evt', 'x-svc-signature': `t=1,v1=${'a'.repeat(64)}` }
// Ids that grow with time, as the sandbox's (domain/event-id.ts).
const delivery = (i) => ({
  receivedAt: new Date().toISOString(),
  source: 'service',
  eventId: `evt_0195${String(i).padStart(12, '0')}`,
  type: 'charge.paid',
  chargeId: 'ch',
  headers,
  body,
  verification: 'verified',
  outcome: 'forwarded',
  answeredStatus: 200,
  forwardUrl: target,
  forwardStatus: 200,
  latencyMs: 1,
})
const deliver = async (i) => {
  store.isDelivered(delivery(i).eventId, target)
  store.record(delivery(i))
  await store.committed()
}
try {
  // A log with history: pruning (every 100 records past the 10 000-row cap) takes its share too.
  for (let i = 0; i < 11_000; i++) await deliver(i)
  const commits = Number(process.argv[2] ?? 300)
  const pages = new Map()
  for (let i = 11_000; i < 11_000 + commits; i++) {
    const other = new DatabaseSync(path)
    other.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    other.close()
    await deliver(i)
    const wal = readFileSync(`${path}-wal`)
    const pageSize = wal.readUInt32BE(8)
    for (let at = 32; at + 24 <= wal.length; at += 24 + pageSize) {
      const page = wal.readUInt32BE(at)
      pages.set(page, (pages.get(page) ?? 0) + 1)
    }
  }
  const db = new DatabaseSync(path)
  const owner = new Map(
    db
      .prepare('SELECT pageno, name FROM dbstat')
      .all()
      .map((r) => [r.pageno, r.name]),
  )
  db.close()
  const byTree = new Map()
  let frames = 0
  for (const [page, n] of pages) {
    const name = page === 1 ? 'page 1 (the header: the file grew)' : (owner.get(page) ?? 'freelist')
    byTree.set(name, (byTree.get(name) ?? 0) + n)
    frames += n
  }
  process.stdout.write(`${(frames / commits).toFixed(2)} frames (pages) per commit of one delivery, over ${commits} commits\n`)
  for (const [name, n] of [...byTree].sort((a, b) => b[1] - a[1])) process.stdout.write(`${(n / commits).toFixed(2).padStart(6)}  ${name}\n`)
} finally {
  store.close()
  rmSync(dir, { recursive: true, force: true })
}
