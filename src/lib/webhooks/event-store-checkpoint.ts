/**
 * The event log's WAL checkpoints, off the delivery path. SQLite's automatic checkpoint runs
 * inside the COMMIT that passes 1000 pages of log, on the event loop: 10–125 ms during which the
 * listener answered nothing. Here a worker thread with its own connection copies the log into
 * the database every CHECKPOINT_EVERY_RECORDS records. The log starts over (SQLite writes it
 * from its start again) only when a write transaction begins after all of it was copied, which
 * never happens while commits land. So each cycle ends with a last, short copy made on the
 * store's own connection right after one of its commits, before its next transaction begins:
 * once the worker's copies take less than CATCH_UP_MS (or after FREE_ROUNDS of them), what is
 * left is what a few milliseconds of commits wrote. (Holding the next commit while the worker
 * copied, as this did before, could not work: the store's records go into a transaction that is
 * already open, begun before the copy ended, and at 50 connections or one, the log grew without
 * end: 1.7 GB after 45 000 deliveries.)
 * A checkpoint only copies committed pages: what a commit survives is unchanged. If the worker
 * cannot run, SQLite's automatic checkpoints are switched back on.
 */
import type { DatabaseSync } from 'node:sqlite'
import { Worker } from 'node:worker_threads'

/** Records between two checkpoints: about SQLite's own 1000 pages of log. */
export const CHECKPOINT_EVERY_RECORDS = 1000
/**
 * Or commits, whichever comes first: each commit appends every page it touched (~10 for a lone
 * delivery), so a listener answering one delivery at a time would otherwise grow the log to
 * ~40 MB between two cycles. A tenth of the records keeps it near SQLite's own 1000 pages.
 */
const COMMITS_PER_CYCLE_SHARE = 10

/** Whether a checkpoint cycle is due after these records and commits: `every` records, or a tenth as many commits. */
export function cycleDue(records: number, commits: number, every: number): boolean {
  return records >= every || commits * COMMITS_PER_CYCLE_SHARE >= every
}
const AUTOCHECKPOINT_PAGES = 1000
/** A worker's copy this short means the rest is small: the last copy of the cycle is made on the store's connection; so after the fifth. */
const CATCH_UP_MS = 4
const FREE_ROUNDS = 4

// Plain CommonJS, run with `eval` so that it loads the same from src/ (tests) and dist/.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { DatabaseSync } = require('node:sqlite')
let db, checkpoint
try {
  db = new DatabaseSync(workerData.file, { timeout: 5000 })
  checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)')
} catch (err) {
  parentPort.postMessage({ error: String((err && err.message) || err) })
}
parentPort.on('message', (m) => {
  if (m === 'stop') {
    try { if (db) db.close() } catch {}
    parentPort.close()
    return
  }
  try {
    checkpoint.get()
    parentPort.postMessage({ ok: true })
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) })
  }
})
`

type Reply = { ok: true } | { error: string }

export class EventStoreCheckpoint {
  private worker?: Worker
  private running = false
  private recordsSince = 0
  private commitsSince = 0
  /** Commits since the copy in flight was asked for: it did not copy them. */
  private commitsDuring = 0
  private askedAt = 0
  private rounds = 0
  /** The worker's copies are done; the last one is due on the store's connection, after its next commit. */
  private lastCopyDue = false
  private waiters: Array<() => void> = []

  constructor(
    private readonly db: DatabaseSync,
    file: string,
    private readonly everyRecords = CHECKPOINT_EVERY_RECORDS,
  ) {
    let worker: Worker
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } })
    } catch {
      return
    }
    // Never what keeps the process alive: an exit mid-copy loses nothing (SQLite replays the log on the next open).
    worker.unref()
    worker.on('message', (reply: Reply) => this.onReply(worker, reply))
    worker.on('error', () => this.fallBack())
    worker.once('exit', () => this.fallBack())
    this.worker = worker
    db.exec('PRAGMA wal_autocheckpoint = 0')
  }

  /** Told after each commit (no transaction open) with the records it held. */
  afterCommit(records: number): void {
    this.recordsSince += records
    this.commitsSince++
    this.commitsDuring++
    if (this.lastCopyDue) {
      this.lastCopy()
      return
    }
    if (this.running || !cycleDue(this.recordsSince, this.commitsSince, this.everyRecords) || !this.worker) return
    this.running = true
    this.recordsSince = 0
    this.commitsSince = 0
    this.rounds = 0
    this.ask(this.worker)
  }

  /** Resolves once no checkpoint is in flight (tests). */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  /** Whether checkpoints run on the worker (false once fallen back to SQLite's own). */
  get active(): boolean {
    return this.worker !== undefined
  }

  /** Stops the worker; the database's close then checkpoints what is left. */
  stop(): void {
    const worker = this.worker
    if (!worker) return
    this.fallBack()
    worker.postMessage('stop')
  }

  private ask(worker: Worker): void {
    this.commitsDuring = 0
    this.askedAt = performance.now()
    this.rounds++
    worker.postMessage('checkpoint')
  }

  private onReply(from: Worker, reply: Reply): void {
    if (from !== this.worker) return
    if ('error' in reply) {
      this.fallBack()
      void from.terminate()
      return
    }
    // A transaction open now began before the copy ended: its commit is one the copy did not see.
    if (this.commitsDuring > 0 || this.db.isTransaction) {
      // Commits landed during the copy: copy them too, while that takes long with commits going
      // on; then once on the store's connection between two of its transactions.
      if (performance.now() - this.askedAt > CATCH_UP_MS && this.rounds < FREE_ROUNDS) {
        this.ask(from)
        return
      }
      this.lastCopyDue = true
      if (!this.db.isTransaction) this.lastCopy()
      return
    }
    this.done()
  }

  /**
   * The cycle's last copy, on the store's connection with no transaction open: the log is all
   * copied when the next one begins, which starts it over. Short: it copies what was committed
   * since the worker's last copy began.
   */
  private lastCopy(): void {
    try {
      if (this.db.isOpen) this.db.exec('PRAGMA wal_checkpoint(PASSIVE)')
    } catch {
      // A failed copy leaves the log to the next cycle; the commits it holds are safe in it.
    }
    this.done()
  }

  private done(): void {
    this.lastCopyDue = false
    this.running = false
    // The next cycle counts from here: one started at once would have the worker copying (and the
    // log not startable over) when the next transaction begins.
    this.recordsSince = 0
    this.commitsSince = 0
    const waiters = this.waiters
    this.waiters = []
    for (const resolve of waiters) resolve()
  }

  private fallBack(): void {
    if (!this.worker) return
    this.worker = undefined
    this.done()
    if (this.db.isOpen) this.db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`)
  }
}
