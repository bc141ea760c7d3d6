/**
 * The sandbox's one clock, which tests and users control: it drives QR expiry, the settlement
 * hold and the webhook retry schedule. Time = wall time × speed + offset; `advance(ms)` jumps
 * ahead and runs every timer that fell due, in due order. Timers never sleep on the wall clock
 * longer than needed, and a manual clock (`manual: true`) never moves by itself (for tests).
 *
 * An advance walks through time rather than jumping: while a timer runs, the clock reads that
 * timer's instant, and the work it started and handed to `hold` (a webhook attempt) ends before
 * the next timer runs. So what that work schedules (the next retry) runs in the same advance,
 * in order with everything else — a retry due before an endpoint's deactivation goes out before
 * it, and an event published after it is never sent.
 */
export interface ClockTimer {
  id: number
  dueAt: number
  run: () => void | Promise<void>
}

export interface SandboxClockOptions {
  /** Start instant in ms since the epoch (default: now). */
  start?: number
  /** How many sandbox seconds pass per wall second (default 1). */
  speed?: number
  /** A clock that moves only through `advance` (tests). */
  manual?: boolean
  /** Injected wall clock (tests). */
  wallNow?: () => number
}

export class SandboxClock {
  private readonly wallNow: () => number
  private readonly manual: boolean
  private speedFactor: number
  private wallAnchor: number
  private simAnchor: number
  private timers: ClockTimer[] = []
  private nextId = 1
  private wake?: NodeJS.Timeout
  private running = Promise.resolve()
  /** The target of the latest advance asked for (one asked while another runs starts from it). */
  private advancedTo = Number.NEGATIVE_INFINITY
  /** Set while an advance runs its timers: the work they start, which it waits for. */
  private held?: Array<Promise<unknown>>

  constructor(opts: SandboxClockOptions = {}) {
    this.wallNow = opts.wallNow ?? Date.now
    this.manual = opts.manual ?? false
    this.speedFactor = opts.speed ?? 1
    this.wallAnchor = this.wallNow()
    this.simAnchor = opts.start ?? this.wallAnchor
  }

  /** Current sandbox time in ms since the epoch. */
  now(): number {
    if (this.manual) return this.simAnchor
    return Math.floor(this.simAnchor + (this.wallNow() - this.wallAnchor) * this.speedFactor)
  }

  nowDate(): Date {
    return new Date(this.now())
  }

  get speed(): number {
    return this.speedFactor
  }

  /** Runs `run` once the sandbox time reaches `dueAt`. Returns an id for `cancel`. */
  schedule(dueAt: number, run: () => void | Promise<void>): number {
    const id = this.nextId++
    this.timers.push({ id, dueAt, run })
    this.timers.sort((a, b) => a.dueAt - b.dueAt || a.id - b.id)
    this.arm()
    return id
  }

  cancel(id: number): void {
    this.timers = this.timers.filter((t) => t.id !== id)
    this.arm()
  }

  /** Told the new time of every advance, before the timers it makes due run (the sandbox persists it). */
  onAdvance?: (now: number) => void

  /** Moves the clock forward by `ms` and runs every timer that falls due, in order, each at its instant. */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError('the sandbox clock only moves forward')
    const target = Math.max(this.now(), this.advancedTo) + ms
    this.advancedTo = target
    this.onAdvance?.(target)
    await this.runDue(target, true)
    this.arm()
  }

  /** True while an advance runs its timers (work started then is waited for: `hold`). */
  get advancing(): boolean {
    return this.held !== undefined
  }

  /**
   * Work a timer started (a webhook attempt): during an advance, the next timer runs only once
   * it has ended. Never hand it work that waits for the clock (a `tick`): that would wait for itself.
   */
  hold(work: Promise<unknown>): void {
    this.held?.push(work)
  }

  /** Runs timers due at the current time (used after a restart or by the wall-clock wake-up). */
  async tick(): Promise<void> {
    await this.runDue(this.now())
    this.arm()
  }

  pendingTimers(): number {
    return this.timers.length
  }

  stop(): void {
    if (this.wake) clearTimeout(this.wake)
    this.wake = undefined
    this.timers = []
  }

  private async runDue(upTo: number, advance = false): Promise<void> {
    // Serialise runs so that a wake-up and an advance never run the same timer twice.
    const job = this.running.then(async () => {
      if (advance) this.held = []
      try {
        for (;;) {
          const next = this.timers[0]
          if (!next || next.dueAt > upTo) break
          this.timers.shift()
          if (advance && next.dueAt > this.now()) this.moveTo(next.dueAt)
          try {
            await next.run()
          } catch {
            // A failing timer must not stop the clock; the owner logs its own errors.
          }
          if (advance) await this.drainHeld()
        }
      } finally {
        if (advance) {
          this.held = undefined
          if (upTo > this.now()) this.moveTo(upTo)
        }
      }
    })
    this.running = job.catch(() => {})
    await job
  }

  private moveTo(instant: number): void {
    this.simAnchor = instant
    this.wallAnchor = this.wallNow()
  }

  private async drainHeld(): Promise<void> {
    for (let work = this.held!.splice(0); work.length; work = this.held!.splice(0)) await Promise.allSettled(work)
  }

  private arm(): void {
    if (this.wake) clearTimeout(this.wake)
    this.wake = undefined
    if (this.manual) return
    const next = this.timers[0]
    if (!next) return
    const wallDelay = Math.max(0, (next.dueAt - this.now()) / this.speedFactor)
    this.wake = setTimeout(() => void this.tick(), Math.min(wallDelay, 2 ** 31 - 1))
    this.wake.unref()
  }
}
