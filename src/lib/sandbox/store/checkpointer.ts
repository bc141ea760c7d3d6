/**
 * WAL checkpoints on a worker thread. SQLite's automatic checkpoint runs inside the commit that
 * passes the log's threshold, on the event loop, and stalled every request behind it; here a
 * worker with its own connection copies the pages while the sandbox keeps answering. The log
 * starts over only once all of it was copied, which never happens while commits land, so each
 * cycle ends with a short catch-up during which the group commit holds its next batch.
 * Durability is SQLite's own; if the worker cannot run, automatic checkpoints are switched back on.
 */
import type { DatabaseSync } from 'node:sqlite'
import { Worker } from 'node:worker_threads'
import type { GroupCommit } from './group-commit.js'

/** Writes committed between two checkpoint cycles: about 1300 creations (3 writes each), ~16 MB of log. */
export const CHECKPOINT_EVERY_WRITES = 4000
/**
 * Or commits, whichever comes first: each commit appends every page it touched (~8 for a lone
 * creation), so a client creating one charge at a time would otherwise grow the log to ~130 MB
 * between two cycles. A tenth of the writes keeps it near the same ~16 MB.
 */
const COMMITS_PER_CYCLE_SHARE = 10
const AUTOCHECKPOINT_PAGES = 1000
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
  db = new DatabaseSync(workerData.file)
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
    const r = checkpoint.get()
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed })
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) })
  }
})
`

type Reply = { log: number; checkpointed: number } | { error: string }

export class Checkpointer {
  private worker?: Worker
  private running = false
  private writesSince = 0
  private commitsSince = 0
  /** Commits since the checkpoint in flight was asked for: it did not copy them. */
  private commitsDuring = 0
  private askedAt = 0
  private rounds = 0
  private started = 0
  private release?: () => void
  private waiters: Array<() => void> = []

  constructor(
    private readonly db: DatabaseSync,
    file: string,
    private readonly writes: GroupCommit,
    private readonly log: (line: string) => void,
    private readonly everyWrites = CHECKPOINT_EVERY_WRITES,
  ) {
    let worker: Worker
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file } })
    } catch (err) {
      log(`sandbox: WAL checkpoints stay on the main thread (${(err as Error).message})`)
      return
    }
    // Never what keeps the process alive: a process that exits without close() loses nothing
    // (SQLite replays the log on the next open).
    worker.unref()
    worker.on('message', (reply: Reply) => this.onReply(worker, reply))
    worker.on('error', (err) => this.fallBack(err.message))
    worker.once('exit', () => this.fallBack('the checkpoint worker stopped'))
    this.worker = worker
    db.exec('PRAGMA wal_autocheckpoint = 0')
    writes.onCommit = (n) => this.afterCommit(n)
  }

  /** Stops the worker; the caller's close of the database then checkpoints what is left. */
  async stop(): Promise<void> {
    const worker = this.worker
    if (!worker) return
    this.fallBack()
    const exited = new Promise((resolve) => worker.once('exit', resolve))
    worker.ref() // the caller awaits this exit: keep the process alive until it comes
    worker.postMessage('stop')
    await exited
  }

  /** Resolves once no checkpoint is in flight. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve()
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  /** Checkpoint cycles started on the worker so far. */
  get cycles(): number {
    return this.started
  }

  /** Whether checkpoints run on the worker (false once fallen back to SQLite's own). */
  get active(): boolean {
    return this.worker !== undefined
  }

  private afterCommit(writes: number): void {
    this.writesSince += writes
    this.commitsSince++
    this.commitsDuring++
    if (this.running || (this.writesSince < this.everyWrites && this.commitsSince * COMMITS_PER_CYCLE_SHARE < this.everyWrites) || !this.worker) return
    this.running = true
    this.started++
    this.writesSince = 0
    this.commitsSince = 0
    this.rounds = 0
    this.ask(this.worker)
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
      this.fallBack(reply.error)
      void from.terminate()
      return
    }
    if (!this.release && (this.commitsDuring > 0 || reply.checkpointed < reply.log)) {
      // Commits landed during the copy: copy them too. While that takes long, with commits going
      // on; then once with the next batch held back, so that the log is all in the database and
      // the next commit starts it over.
      if (performance.now() - this.askedAt > CATCH_UP_MS && this.rounds < FREE_ROUNDS) {
        this.ask(from)
        return
      }
      const release = this.writes.hold()
      // A passive checkpoint never waits for a lock; still, a stuck disk must not hold creations for good.
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
    this.release?.()
    this.release = undefined
    this.running = false
    const waiters = this.waiters
    this.waiters = []
    for (const resolve of waiters) resolve()
  }

  /** Back to SQLite's own checkpoints on the main connection (with a note, unless stopping). */
  private fallBack(reason?: string): void {
    if (!this.worker) return
    this.worker = undefined
    this.done()
    this.writes.onCommit = undefined
    if (reason !== undefined) this.log(`sandbox: WAL checkpoints back on the main thread (${reason})`)
    if (this.db.isOpen) this.db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`)
  }
}
