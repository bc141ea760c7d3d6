/**
 * One listener's open stream (`GET /v1/stream`): Server-Sent Events written as the wire says
 * (contract/relay-stream.ts). It pumps the token's unacked deliveries in seq order from the
 * store, skips (and acks) what the token's routing excludes, remembers what it sent and not yet
 * saw acked, and sends that again after the backoff. Writes wait for `drain`, so a listener that
 * reads slowly holds one page in memory, not the backlog.
 */
import type { ServerResponse } from 'node:http'
import type { RelayClosing, RelayDelivery, RelayGap, RelayReady } from '../../contract/relay-stream.js'
import { parseEvent } from './parse-event.js'
import { routes } from '../routing.js'
import type { PendingDelivery, RelayStore, TokenRecord } from '../store/types.js'

const PAGE = 100
/**
 * Deliveries sent on a stream and not yet acked, at most: past it the stream waits for acks.
 * A listener whose app is slow then gets no flood of redeliveries of what it is still working
 * on, and the relay holds a bounded state per stream.
 */
export const RELAY_WINDOW = 256

export interface StreamHost {
  store: RelayStore
  /** Unacked deliveries in flight per stream (default RELAY_WINDOW). */
  window?: number
  now: () => number
  redeliverMs: readonly number[]
  onDelivered: (token: string, first: boolean) => void
  onFiltered: (token: string, n: number) => void
  onError: (err: unknown, stream: RelayStream) => void
}

interface Unacked {
  due: number
  sends: number
}

export class RelayStream {
  /** The highest seq sent on this stream: the pump goes on from here. */
  private cursor = 0
  private readonly unacked = new Map<number, Unacked>()
  private pumping = false
  private again = false
  /** Acks committed elsewhere arrived while pumping: look again once the pump is done. */
  private syncWanted = false
  /** Set once `ready` (and any gap) went out: no delivery may precede them. */
  private live = false
  closed = false
  readonly openedAt: number

  constructor(
    readonly token: TokenRecord,
    readonly address: string,
    private readonly res: ServerResponse,
    private readonly host: StreamHost,
  ) {
    this.openedAt = host.now()
  }

  private get window(): number {
    return this.host.window ?? RELAY_WINDOW
  }

  get channel(): string {
    return this.token.channel
  }

  /** Opens the stream: ready, any untold gap, then the backlog. */
  async start(): Promise<void> {
    const { store } = this.host
    const backlog = await store.backlog(this.token.name)
    this.write('ready', { token: this.token.name, channel: this.token.channel, backlog, serverTime: new Date(this.host.now()).toISOString() } satisfies RelayReady)
    await this.tellGap()
    this.live = true
    this.pump()
  }

  async tellGap(): Promise<void> {
    const gap = await this.host.store.takeGap(this.token.name)
    if (!gap || this.closed) return
    const frame: RelayGap = { lost: gap.lost, reason: gap.reason ?? 'retention', ...(gap.fromSeq ? { fromSeq: gap.fromSeq } : {}), ...(gap.toSeq ? { toSeq: gap.toSeq } : {}) }
    this.write('gap', frame)
  }

  /** Sends what is new; a call while pumping makes the running pump go round once more. */
  pump(): void {
    if (this.closed || !this.live) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    void this.drainPending()
      .catch((err) => this.host.onError(err, this))
      .finally(() => {
        this.pumping = false
        if (this.syncWanted) void this.syncAcks().catch((err) => this.host.onError(err, this))
      })
  }

  private async drainPending(): Promise<void> {
    do {
      this.again = false
      for (;;) {
        if (this.unacked.size >= this.window) return
        const page = await this.host.store.pending(this.token.name, this.cursor, PAGE)
        if (this.closed) return
        const last = await this.sendPage(page, false)
        this.cursor = Math.max(this.cursor, last)
        if (last < (page[page.length - 1]?.seq ?? 0)) return // the window is full: acks pump again
        if (page.length < PAGE || this.closed) break
      }
    } while (this.again && !this.closed)
  }

  /** Sends again what this stream sent and did not see acked once its backoff passed. */
  async redeliverDue(): Promise<void> {
    if (this.closed || this.pumping || this.unacked.size === 0) return
    const now = this.host.now()
    let due = false
    for (const u of this.unacked.values()) if (u.due <= now) due = true
    if (!due) return
    // One writer at a time: a wake-up during this waits for it (again), then pumps.
    this.pumping = true
    try {
      await this.resend(now)
    } finally {
      this.pumping = false
    }
    if (this.again) this.pump()
  }

  private async resend(now: number): Promise<void> {
    const seen = new Set<number>()
    const resend: PendingDelivery[] = []
    for await (const d of this.pendingUpToCursor()) {
      seen.add(d.seq)
      const u = this.unacked.get(d.seq)
      if (u && u.due <= now) resend.push(d)
    }
    // Acked elsewhere (a replaced stream's late ack) or pruned: nothing to send again.
    this.forgetAllBut(seen)
    if (this.closed) return
    await this.sendPage(resend, true)
  }

  /** What the store still has pending for this token, up to what this stream has sent, page by page. */
  private async *pendingUpToCursor(): AsyncGenerator<PendingDelivery> {
    for (let after = 0; ; ) {
      const page = await this.host.store.pending(this.token.name, after, PAGE)
      for (const d of page) {
        if (d.seq > this.cursor) return
        yield d
      }
      if (page.length < PAGE) return
      after = page[page.length - 1]!.seq
    }
  }

  /** Drops from the window what the store no longer has pending; returns how many went. */
  private forgetAllBut(pending: ReadonlySet<number>): number {
    const before = this.unacked.size
    for (const seq of [...this.unacked.keys()]) if (!pending.has(seq)) this.unacked.delete(seq)
    return before - this.unacked.size
  }

  /** Sends (or, excluded by routing, acks) the page in order; returns the last seq it dealt with. */
  private async sendPage(page: PendingDelivery[], again: boolean): Promise<number> {
    const sent: number[] = []
    const excluded: number[] = []
    let last = 0
    for (const d of page) {
      if (this.closed) break
      if (!again && this.unacked.size >= this.window && !this.unacked.has(d.seq) && routes(this.token, d.eventType, parseEvent(d.body))) break
      last = d.seq
      if (!again && this.unacked.has(d.seq)) continue
      if (!routes(this.token, d.eventType, parseEvent(d.body))) {
        excluded.push(d.seq)
        continue
      }
      const frame: RelayDelivery = { seq: d.seq, arrivedAt: d.arrivedAt, headers: d.headers, body: Buffer.from(d.body).toString('base64'), attempt: d.sends + 1 }
      const prev = this.unacked.get(d.seq)
      const sends = (prev?.sends ?? 0) + 1
      const backoff = this.host.redeliverMs[Math.min(sends - 1, this.host.redeliverMs.length - 1)]!
      this.unacked.set(d.seq, { sends, due: this.host.now() + backoff })
      sent.push(d.seq)
      this.host.onDelivered(this.token.name, d.sends === 0)
      if (!this.write('delivery', frame, d.seq)) await this.drained()
    }
    if (sent.length > 0) await this.host.store.markSent(this.token.name, sent)
    if (excluded.length > 0) {
      await this.host.store.ack(this.token.name, excluded, new Date(this.host.now()).toISOString())
      this.host.onFiltered(this.token.name, excluded.length)
    }
    return last
  }

  /**
   * Acks another instance committed (its ack reached that one): when the window is full, drop
   * from it what the store no longer has pending for this token, then send on.
   */
  async syncAcks(): Promise<void> {
    if (this.closed) return
    if (this.pumping) {
      this.syncWanted = true
      return
    }
    this.syncWanted = false
    if (this.unacked.size < this.window) return
    const pending = new Set<number>()
    for await (const d of this.pendingUpToCursor()) pending.add(d.seq)
    if (this.forgetAllBut(pending) > 0) this.pump()
  }

  acked(seqs: readonly number[]): void {
    const wasFull = this.unacked.size >= this.window
    for (const s of seqs) this.unacked.delete(s)
    if (wasFull && this.unacked.size < this.window) this.pump()
  }

  ping(): void {
    if (!this.closed) this.res.write(': ping\n\n')
  }

  close(reason: RelayClosing['reason'], message: string): void {
    if (this.closed) return
    this.write('closing', { reason, message } satisfies RelayClosing)
    this.closed = true
    this.res.end()
  }

  /** The client went away. */
  gone(): void {
    this.closed = true
  }

  private write(event: string, data: unknown, id?: number): boolean {
    if (this.closed || this.res.destroyed) return true
    return this.res.write(`event: ${event}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`)
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done)
        this.res.off('close', done)
        resolve()
      }
      this.res.once('drain', done)
      this.res.once('close', done)
    })
  }
}
