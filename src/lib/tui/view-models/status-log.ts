/**
 * Text that reached stderr while a live view owned the screen (SVC_DEBUG request lines, a
 * library's warning). Written raw it would tear the frame and stay stuck in it, so the view
 * shows the latest lines as its status instead, and they are printed for good once it is gone.
 * An external store for React, like the feeds.
 */
export class StatusLog {
  private lines: string[] = []
  private partial = ''
  private dropped = 0
  private readonly listeners = new Set<() => void>()

  constructor(private readonly max = 50) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): readonly string[] => this.lines

  /** Takes raw stderr text; complete lines are kept (the last `max`). */
  write(text: string): void {
    const parts = (this.partial + text).split('\n')
    this.partial = parts.pop() ?? ''
    const complete = parts.filter((l) => l.trim() !== '')
    if (complete.length === 0) return
    const all = [...this.lines, ...complete]
    this.dropped += Math.max(0, all.length - this.max)
    this.lines = all.slice(-this.max)
    for (const l of this.listeners) l()
  }

  /** Everything kept, for stderr once the view has let go of the screen. */
  drain(): string {
    const rest = this.partial.trim() ? [...this.lines, this.partial] : this.lines
    const head = this.dropped > 0 ? [`(${this.dropped} earlier lines not kept)`] : []
    this.lines = []
    this.partial = ''
    this.dropped = 0
    return [...head, ...rest].map((l) => `${l}\n`).join('')
  }
}
