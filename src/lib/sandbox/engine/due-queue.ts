/**
 * Many deadlines behind one clock timer: a min-heap of (dueAt, key) with a single SandboxClock
 * timer armed at its head. Every charge has an expiry or a settlement pending, so giving each
 * its own clock timer would make every creation re-sort thousands of timers. Entries fire in
 * due order, each at its own instant, interleaved correctly with the clock's other timers
 * (the clock runs the re-armed timer in the same `advance` when it is still due).
 */
import type { SandboxClock } from './clock.js'
import { MinHeap } from './min-heap.js'

interface Entry {
  dueAt: number
  seq: number
  key: string
}

export class DueQueue {
  private readonly heap = new MinHeap<Entry>(less)
  /** The live deadline of each key; heap entries that disagree are stale and skipped. */
  private readonly live = new Map<string, number>()
  private seq = 0
  private armed?: { id: number; dueAt: number }
  private stopped = false

  constructor(
    private readonly clock: SandboxClock,
    private readonly onDue: (key: string, dueAt: number) => void,
  ) {}

  /** Sets (or moves) the deadline of `key`. */
  set(key: string, dueAt: number): void {
    if (this.live.get(key) === dueAt) return
    this.live.set(key, dueAt)
    this.heap.push({ dueAt, seq: this.seq++, key })
    this.arm()
  }

  has(key: string): boolean {
    return this.live.has(key)
  }

  /** Forgets every deadline (a reset of the sandbox's data). */
  clear(): void {
    this.live.clear()
    this.arm()
  }

  delete(key: string): void {
    if (!this.live.delete(key)) return
    this.arm()
  }

  get size(): number {
    return this.live.size
  }

  stop(): void {
    this.stopped = true
    if (this.armed) this.clock.cancel(this.armed.id)
    this.armed = undefined
  }

  private arm(): void {
    if (this.stopped) return
    this.dropStale()
    const head = this.heap.peek()
    if (this.armed && head && this.armed.dueAt === head.dueAt) return
    if (this.armed) this.clock.cancel(this.armed.id)
    this.armed = undefined
    if (!head) return
    const dueAt = head.dueAt
    const id = this.clock.schedule(dueAt, () => this.fire(dueAt))
    this.armed = { id, dueAt }
  }

  private fire(upTo: number): void {
    this.armed = undefined
    for (;;) {
      this.dropStale()
      const head = this.heap.peek()
      if (!head || head.dueAt > upTo || this.stopped) break
      this.heap.pop()
      this.live.delete(head.key)
      this.onDue(head.key, head.dueAt)
    }
    this.arm()
  }

  private dropStale(): void {
    for (;;) {
      const head = this.heap.peek()
      if (!head || this.live.get(head.key) === head.dueAt) return
      this.heap.pop()
    }
  }
}

function less(a: Entry, b: Entry): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq)
}
