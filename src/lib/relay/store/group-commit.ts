/**
 * Group commit, for any store: callers submit one item each; every item submitted within one
 * event-loop turn (and while the previous commit is in flight) goes into one transaction, and
 * each caller is answered only after the commit that holds its item finished. A failed commit
 * rejects every caller in it and no other. One transaction runs at a time, so commit order is
 * submission order. No dependencies: the relay's SQLite and PostgreSQL stores both use it.
 */

export interface GroupCommitOptions<I, O> {
  /**
   * Writes every item in one transaction and returns one result per item, in order. Throwing or
   * rejecting means nothing of the batch is committed: every caller in it is rejected.
   */
  commit: (items: readonly I[]) => O[] | Promise<O[]>
  /** When a gathered batch is flushed; default setImmediate (everything submitted this turn). */
  schedule?: (flush: () => void) => void
  /** Largest batch; the rest waits for the next transaction. Default 1000. */
  maxBatch?: number
}

interface Waiter<I, O> {
  item: I
  resolve: (value: O) => void
  reject: (err: unknown) => void
}

export class GroupCommit<I, O> {
  private queue: Waiter<I, O>[] = []
  private scheduled = false
  private running: Promise<void> | undefined
  private readonly schedule: (flush: () => void) => void
  private readonly maxBatch: number

  constructor(private readonly opts: GroupCommitOptions<I, O>) {
    this.schedule = opts.schedule ?? ((flush) => setImmediate(flush))
    this.maxBatch = opts.maxBatch ?? 1000
  }

  /** Resolves with the item's result once the transaction holding it committed. */
  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject })
      this.kick()
    })
  }

  /** Resolves once nothing is queued or committing (a store calls it before closing). */
  async drain(): Promise<void> {
    while (this.running || this.queue.length > 0) {
      if (!this.running) this.flush()
      await this.running
    }
  }

  /** Items waiting for a transaction (not yet committing). */
  get queued(): number {
    return this.queue.length
  }

  private kick(): void {
    if (this.scheduled || this.running) return
    this.scheduled = true
    this.schedule(() => {
      this.scheduled = false
      this.flush()
    })
  }

  private flush(): void {
    if (this.running || this.queue.length === 0) return
    const batch = this.queue.splice(0, this.maxBatch)
    this.running = this.run(batch).finally(() => {
      this.running = undefined
      if (this.queue.length > 0) this.kick()
    })
  }

  private async run(batch: Waiter<I, O>[]): Promise<void> {
    let results: O[]
    try {
      results = await this.opts.commit(batch.map((w) => w.item))
      if (results.length !== batch.length) throw new Error(`group commit: ${results.length} results for ${batch.length} items`)
    } catch (err) {
      for (const w of batch) w.reject(err)
      return
    }
    for (const [i, w] of batch.entries()) w.resolve(results[i]!)
  }
}
