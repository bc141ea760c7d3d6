/**
 * The event log's WAL checkpoints, off the delivery path. SQLite's automatic checkpoint runs
 * inside the COMMIT that passes 1000 pages of log, on the event loop: 10–125 ms during which the
 * listener answered nothing. Here a worker thread with its own connection copies the log into
 * the database every CHECKPOINT_EVERY_RECORDS records. The log starts over only once all of it
 * was copied, which never happens while commits land: so each cycle ends with a last copy made
 * while the store holds its next commit (the event loop stays free; the records wait in the open
 * transaction, their callers in committed()), as the sandbox's checkpointer does.
 * A checkpoint only copies committed pages: what a commit survives is unchanged. If the worker
 * cannot run, SQLite's automatic checkpoints are switched back on.
 */
import type { DatabaseSync } from 'node:sqlite'
import { Worker } from 'node:worker_threads'

/** Records between two checkpoints: about SQLite's own 1000 pages of log. */
export const CHECKPOINT_EVERY_RECORDS = 1000
const AUTOCHECKPOINT_PAGES = 1000
/** A commit is never held longer than this, whatever the disk does. */
const HOLD_CAP_MS = 1000
/** A copy this short is the last one of a cycle, made with commits held; so is the fifth. */
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
  /** Commits since the copy in flight was asked for: it did not copy them. */
  private commitsDuring = 0
  private askedAt = 0
  private rounds = 0
  private release?: () => void
  private waiters: Array<() => void> = []

  constructor(
    private readonly db: DatabaseSync,
    file: string,
    /** Holds the store's next commit until the function it returns is called. */
    private readonly hold: () => () => void,
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

  /** Told after each commit with the records it held. */
  afterCommit(records: number): void {
    this.recordsSince += records
    this.commitsDuring++
    if (this.running || this.recordsSince < this.everyRecords || !this.worker) return
    this.running = true
    this.recordsSince = 0
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
    if (!this.release && this.commitsDuring > 0) {
      // Commits landed during the copy: copy them too, while that takes long with commits going
      // on; then once with the next commit held, so that the next one starts the log over.
      if (performance.now() - this.askedAt > CATCH_UP_MS && this.rounds < FREE_ROUNDS) {
        this.ask(from)
        return
      }
      const release = this.hold()
      const cap = setTimeout(release, HOLD_CAP_MS).unref()
      this.release = () => {
        clearTimeout(cap)
        release()
      }
      this.ask(from)
      return
    }
    this.done()
  }

  private done(): void {
    const release = this.release
    this.release = undefined
    this.running = false
    release?.()
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
