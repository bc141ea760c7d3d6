/**
 * When deliveries go out. Three pieces, none of which knows what an event is about:
 * - the retry policy of spec 6.4 (steps of contract/limits, within the 24 h window);
 * - DueTimers: work due at sandbox-clock instants, kept in our own heap with one clock timer at
 *   its head, so thousands of pending retries never make the clock re-sort its timers, and a
 *   timer only starts work, never waits for an HTTP answer;
 * - ResourceLanes: the first attempts of one resource's events (a charge's paid_pending_settlement
 *   then settled) go out one after the other, each once the previous one was answered or failed;
 *   other resources' events go out at once. Retries are not ordered (spec 6.3: handlers cope).
 */
import { LIMITS } from '../../contract/limits.js'
import type { SandboxClock } from '../engine/clock.js'
import { MinHeap } from '../engine/min-heap.js'

const WINDOW_MS = LIMITS.webhookRetryWindowSeconds * 1000
const STEPS_MS = LIMITS.webhookRetryStepsSeconds.map((s) => s * 1000)

/**
 * When retry number `retryIndex` (1 for the first retry) of a delivery first tried at
 * `firstAttemptAt` is due, counted from the end of the failed attempt; undefined when no retry
 * is left within the window: the delivery has failed.
 */
export function nextRetryAt(retryIndex: number, failedAt: number, firstAttemptAt: number): number | undefined {
  const step = STEPS_MS[retryIndex - 1]
  if (step === undefined) return undefined
  const next = failedAt + step
  return next > firstAttemptAt + WINDOW_MS ? undefined : next
}

/** When the 24 h window of a delivery first tried at `firstAttemptAt` closes. */
export function windowEnd(firstAttemptAt: number): number {
  return firstAttemptAt + WINDOW_MS
}

interface Entry {
  due: number
  seq: number
  fire: (due: number) => void
  /** False once the entry was superseded (rescheduled, delivered): it is skipped. */
  valid: () => boolean
}

function before(a: Entry, b: Entry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq)
}

export class DueTimers {
  private readonly heap = new MinHeap<Entry>(before)
  private seq = 0
  private armed?: { id: number; dueAt: number }
  private stopped = false

  constructor(private readonly clock: SandboxClock) {}

  /** Runs `fire(due)` once the sandbox clock reaches `due`, unless `valid()` says no by then. */
  add(due: number, fire: (due: number) => void, valid: () => boolean = () => true): void {
    this.heap.push({ due, seq: this.seq++, fire, valid })
  }

  /**
   * Keeps exactly one clock timer, at the earliest valid entry. Call after adding. Returns true
   * when an entry is already due (a manual clock runs timers only on advance or tick).
   */
  arm(): boolean {
    while (this.heap.size && !this.heap.peek()!.valid()) this.heap.pop()
    const head = this.heap.peek()
    if (!(this.armed && head && this.armed.dueAt <= head.due)) {
      if (this.armed) this.clock.cancel(this.armed.id)
      this.armed = undefined
      if (head && !this.stopped) {
        const dueAt = head.due
        const id = this.clock.schedule(dueAt, () => this.onTimer(id))
        this.armed = { id, dueAt }
      }
    }
    return head !== undefined && head.due <= this.clock.now()
  }

  stop(): void {
    this.stopped = true
    if (this.armed) this.clock.cancel(this.armed.id)
    this.armed = undefined
  }

  private onTimer(id: number): void {
    if (this.armed?.id !== id) return
    const bound = Math.max(this.armed.dueAt, this.clock.now())
    this.armed = undefined
    while (this.heap.size && this.heap.peek()!.due <= bound) {
      const entry = this.heap.pop()!
      if (entry.valid()) entry.fire(entry.due)
    }
    this.arm()
  }
}

/** First attempts one at a time per resource key, in the order they were queued. */
export class ResourceLanes<T> {
  private readonly lanes = new Map<string, T[]>()

  /**
   * Runs `run(item)` now, or after the items of the same lane queued before it. `run` resolves
   * when the item's attempt is over; `stopped()` true leaves the rest of the lane queued (the
   * caller keeps them elsewhere, e.g. pending rows for the next start).
   */
  enqueue(lane: string | undefined, item: T, run: (item: T) => Promise<void>, track: (p: Promise<void>) => void, stopped: () => boolean): void {
    if (lane === undefined) return track(run(item))
    const queued = this.lanes.get(lane)
    if (queued) {
      queued.push(item)
      return
    }
    this.lanes.set(lane, [])
    const next = async (current: T): Promise<void> => {
      try {
        await run(current)
      } finally {
        const following = this.lanes.get(lane)?.shift()
        if (following === undefined || stopped()) this.lanes.delete(lane)
        else track(next(following))
      }
    }
    track(next(item))
  }
}
