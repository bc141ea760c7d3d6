/**
 * Group commit: the writes queued during one turn of the event loop are committed together, in
 * one transaction, at the end of that turn. `run` (a charge creation) resolves only once its
 * write is committed, so the caller answers after the data is on disk; `defer` (delivery
 * bookkeeping) is fire-and-forget, its failure reported to `onError`. One failing write does not
 * sink the others: the batch is run again with each write in its own savepoint, so a write may
 * run twice and must touch nothing but the database. A crash loses no answered `run`.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite'

interface Pending {
  write: () => unknown
  resolve?: (value: unknown) => void
  reject?: (err: unknown) => void
  onError?: (err: unknown) => void
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

export class GroupCommit {
  private queue: Pending[] = []
  private timer?: NodeJS.Immediate
  private holds = 0
  /** Told after each batch is committed, with its number of writes (checkpointer.ts). */
  onCommit?: (writes: number) => void
  private readonly sql: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', StatementSync>

  constructor(db: DatabaseSync) {
    const p = (text: string) => db.prepare(text)
    this.sql = {
      begin: p('BEGIN IMMEDIATE'),
      commit: p('COMMIT'),
      rollback: p('ROLLBACK'),
      savepoint: p('SAVEPOINT one_write'),
      release: p('RELEASE one_write'),
      rollbackTo: p('ROLLBACK TO one_write'),
    }
  }

  /** Queues `write`; resolves with its result once committed, rejects when it threw or the commit failed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => this.enqueue({ write, resolve: resolve as (v: unknown) => void, reject }))
  }

  /** Queues `write` without waiting for it; `onError` hears when it (or its commit) failed. */
  defer(write: () => void, onError: (err: unknown) => void): void {
    this.enqueue({ write, onError })
  }

  /**
   * Keeps the queued writes waiting (the next automatic commit waits for the returned release),
   * while a checkpoint catches up with the log. An explicit flush() still commits.
   */
  hold(): () => void {
    this.holds++
    let released = false
    return () => {
      if (released) return
      released = true
      this.holds--
      this.schedule()
    }
  }

  /** Commits what is queued now: a reader that must see the queued writes calls this first. */
  flush(): void {
    if (this.timer) clearImmediate(this.timer)
    this.timer = undefined
    const batch = this.queue
    if (batch.length === 0) return
    this.queue = []
    let outcomes: Outcome[]
    try {
      outcomes = this.commit(batch)
    } catch (err) {
      // The transaction itself failed (disk full, database locked): nothing of the batch was written.
      outcomes = batch.map(() => ({ ok: false, error: err }))
    }
    if (outcomes.some((o) => o.ok)) this.onCommit?.(batch.length)
    for (let i = 0; i < batch.length; i++) {
      const p = batch[i]!
      const o = outcomes[i]!
      if (o.ok) p.resolve?.(o.value)
      else if (p.reject) p.reject(o.error)
      else p.onError?.(o.error)
    }
  }

  private enqueue(p: Pending): void {
    this.queue.push(p)
    this.schedule()
  }

  private schedule(): void {
    if (this.holds > 0 || this.queue.length === 0) return
    this.timer ??= setImmediate(() => {
      this.timer = undefined
      if (this.holds === 0) this.flush()
    })
  }

  private commit(batch: Pending[]): Outcome[] {
    const { sql } = this
    sql.begin.run()
    try {
      let outcomes = this.runAll(batch, false)
      if (outcomes === undefined) {
        sql.rollback.run()
        sql.begin.run()
        outcomes = this.runAll(batch, true)!
      }
      sql.commit.run()
      return outcomes
    } catch (err) {
      try {
        sql.rollback.run()
      } catch {
        // no transaction left open to roll back
      }
      throw err
    }
  }

  /** Runs every write; undefined when one threw and `isolated` is off (the caller starts over). */
  private runAll(batch: Pending[], isolated: boolean): Outcome[] | undefined {
    const { sql } = this
    const outcomes: Outcome[] = new Array(batch.length)
    for (let i = 0; i < batch.length; i++) {
      if (!isolated) {
        try {
          outcomes[i] = { ok: true, value: batch[i]!.write() }
        } catch {
          return undefined
        }
        continue
      }
      sql.savepoint.run()
      try {
        outcomes[i] = { ok: true, value: batch[i]!.write() }
        sql.release.run()
      } catch (error) {
        sql.rollbackTo.run()
        sql.release.run()
        outcomes[i] = { ok: false, error }
      }
    }
    return outcomes
  }
}
