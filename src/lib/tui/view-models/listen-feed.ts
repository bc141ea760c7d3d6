/**
 * The live view's model: the listener's deliveries (newest first, capped), the charges' lanes,
 * and each charge event's confirmation against the API. An external store for React
 * (`subscribe` / `getSnapshot`), with no React in it, so it is tested on its own.
 *
 * A delivery changes the feed's own books in place; the state the view reads (`getSnapshot`) is
 * made from them when it is asked for after a change, once, and kept until the next change. The
 * view hears of changes at once by default, or on a schedule (`schedule`): the live view hears
 * once a frame (`everyFrame`), because Ink renders synchronously on each notice, and under 50
 * connections a render per delivery held the listener to ~400 deliveries a second (issue 39).
 */
import { TEST_EVENT_TYPE } from '../../contract/event-types.js'
import { statusOfEventType } from '../../domain/charge-states.js'
import { type ChargeConfirmer, replayVerdict, type Verdict } from '../../webhooks/confirm.js'
import type { LoggedDelivery, Outcome } from '../../webhooks/event-store.js'
import { type EventSummary, summarizeEvent } from '../../webhooks/event-summary.js'
import type { ListenerDelivery } from '../../webhooks/listener.js'
import { targetName, targetOfLogged } from '../../webhooks/forward.js'
import { type Lane, LaneBook } from './lanes.js'
import { type ActivityLane, ActivityBook } from './activity.js'

/** A delivery as the view keeps it: the log's record without the raw bytes, plus what the view adds. */
export interface FeedDelivery extends Omit<LoggedDelivery, 'body'> {
  /** The start of the body as text, for the details view (the full bytes stay in the log). */
  bodyPreview: string
  summary: EventSummary
  skipVerify: boolean
  verdict?: Verdict
  outOfOrder?: boolean
  /** The target it went to (or would have), named from the record's forwardUrl and route: the URL, or `pattern=URL`. */
  target?: string
  /** Several targets: the row names this one's. */
  showTarget?: boolean
}

export interface FeedState {
  deliveries: FeedDelivery[]
  lanes: Lane[]
  /** Withdrawals and product sales, drawn below the charges. */
  activity: ActivityLane[]
  notices: string[]
  /** Where deliveries come from, in one line (the header's), once the listener knows. */
  registration?: string
  /** Start-up notes (registration, filter), shown once above the view. */
  startNotes: string[]
  /** Deliveries from the service by outcome; replays are counted apart. */
  counts: Record<Outcome, number> & { total: number; replays: number }
  /**
   * The service's clock as last seen (the newest event's `createdAt`): the lanes' times are the
   * events' own (when the service moved the charge, as `charges watch` shows them), and a lane is
   * dated when it is not from this day.
   */
  serviceNow?: string
  /** The local clock as last seen (the newest delivery's arrival): the rows' times are arrivals. */
  localNow?: string
}

export interface ListenFeedOptions {
  maxDeliveries?: number
  maxLanes?: number
  confirmer?: ChargeConfirmer
  /** The environment of the key the confirmer reads with: charges of the other one are not confirmed. */
  confirmEnvironment?: string
  /** The listener has several targets: each row says which one it went to. */
  showTargets?: boolean
  /**
   * When subscribers hear of changes: at once for each (default), or `flush` called later by this
   * schedule, once for all the changes made until then (`everyFrame()`).
   */
  schedule?: (flush: () => void) => void
}

/** Ink's own frame (30 a second): a view told more often than this draws frames nobody sees. */
export const FRAME_MS = 33

/** A schedule for `ListenFeedOptions.schedule`: once `ms` after the first change since the last notice. */
export function everyFrame(ms = FRAME_MS): (flush: () => void) => void {
  // unref: a notice pending is no reason to stay alive once the view has let go.
  return (flush) => setTimeout(flush, ms).unref()
}

const PREVIEW_BYTES = 4096
const MAX_NOTICES = 4

function emptyCounts(): FeedState['counts'] {
  return { total: 0, forwarded: 0, failed: 0, rejected: 0, duplicate: 0, skipped: 0, replays: 0 }
}

export class ListenFeed {
  private readonly maxDeliveries: number
  private readonly lanes: LaneBook
  private readonly confirmer?: ChargeConfirmer
  private readonly confirmEnvironment?: string
  private readonly showTargets: boolean
  private readonly schedule?: (flush: () => void) => void
  private readonly listeners = new Set<() => void>()
  private readonly activity = new ActivityBook()
  /** Newest first, at most maxDeliveries; an entry is replaced, never changed, so snapshots keep theirs. */
  private readonly deliveries: FeedDelivery[] = []
  private readonly counts = emptyCounts()
  /** The rest of the state, replaced as a whole on each change. */
  private rest: Omit<FeedState, 'deliveries' | 'lanes' | 'activity' | 'counts'> = { notices: [], startNotes: [] }
  /** The state last made for the view; undefined once something changed since. */
  private snapshot?: FeedState
  private noticePending = false
  private readonly confirmations = new Set<Promise<void>>()

  constructor(opts: ListenFeedOptions = {}) {
    this.maxDeliveries = opts.maxDeliveries ?? 200
    this.lanes = new LaneBook(opts.maxLanes ?? 20)
    this.confirmer = opts.confirmer
    this.confirmEnvironment = opts.confirmEnvironment
    this.showTargets = Boolean(opts.showTargets)
    this.schedule = opts.schedule
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The same object until the next change (React compares snapshots by identity). */
  getSnapshot = (): FeedState => {
    this.snapshot ??= { ...this.rest, deliveries: [...this.deliveries], counts: { ...this.counts }, lanes: this.lanes.list(), activity: this.activity.list() }
    return this.snapshot
  }

  /** Resolves when every confirmation started so far has its verdict (tests). */
  async settled(): Promise<void> {
    while (this.confirmations.size > 0) await Promise.allSettled([...this.confirmations])
  }

  /** A delivery handled by the listener (or a replay's record). */
  add(input: ListenerDelivery | { record: LoggedDelivery; skipVerify?: boolean }): void {
    const { record } = input
    const summary = 'summary' in input ? input.summary : summarizeEvent(record.body, record.headers)
    const target = targetOfLogged(record)
    const delivery: FeedDelivery = {
      ...record,
      bodyPreview: Buffer.from(record.body.subarray(0, PREVIEW_BYTES)).toString('utf8'),
      summary,
      skipVerify: Boolean(input.skipVerify),
      ...(target ? { target: targetName(target), showTarget: this.showTargets } : {}),
    }
    delete (delivery as { body?: unknown }).body
    const c = this.counts
    if (record.source === 'replay') c.replays++
    else {
      c.total++
      c[record.outcome]++
    }
    const charge = summary.charge
    // One clock for the lanes, the service's: when the event says the state changed (its arrival
    // when it does not say), as `charges watch` shows the charge's own times.
    const at = summary.createdAt && !Number.isNaN(Date.parse(summary.createdAt)) ? new Date(summary.createdAt).toISOString() : record.receivedAt
    const { localNow: lastLocal, serviceNow: lastService } = this.rest
    const localNow = lastLocal && lastLocal > record.receivedAt ? lastLocal : record.receivedAt
    // Only trusted (or knowingly unverified), first-seen charge events move a lane.
    const trusted = record.source !== 'replay' && record.verification !== 'failed' && record.outcome !== 'duplicate'
    // A forged event's date must not move the view's idea of the service's day.
    const serviceNow = !trusted || (lastService && lastService > at) ? lastService : at
    const announced = summary.type ? statusOfEventType(summary.type) : undefined
    let confirm = false
    const testEvent = summary.type === TEST_EVENT_TYPE
    // The service's own test event: green as what it is, never asked about (its charge is a sample).
    if (testEvent && record.verification !== 'failed') delivery.verdict = { kind: 'test' }
    if (charge && trusted && !testEvent) {
      if (announced) {
        const r = this.lanes.apply(charge.id, { status: announced, at, eventId: summary.eventId, grossInCents: charge.grossInCents })
        delivery.outOfOrder = r.outOfOrder
      }
      const readable = !this.confirmEnvironment || !summary.environment || summary.environment === this.confirmEnvironment
      if (this.confirmer && readable) {
        delivery.verdict = { kind: 'pending' }
        confirm = true
      }
    }
    // A replay sends an old event again: confirm it too, so one announcing a state the charge has
    // left is flagged stale (the app must not act on it without asking the API). Lanes stay as they are.
    const replayed = record.source === 'replay' && charge && announced !== undefined
    if (replayed && this.confirmer && (!this.confirmEnvironment || !summary.environment || summary.environment === this.confirmEnvironment)) {
      delivery.verdict = { kind: 'pending' }
      confirm = true
    }
    if (trusted && charge && summary.type?.startsWith('charge.split.')) {
      this.lanes.setSplit(charge.id, { status: summary.type === 'charge.split.completed' ? 'completed' : 'failed', parts: summary.split?.length ?? 0 }, at, charge.grossInCents)
    }
    const w = summary.withdrawal
    if (trusted && w?.id && w.status) {
      this.activity.apply('withdrawal', w.id, { status: w.status, at, amountInCents: w.amountInCents, detail: w.endToEndId })
    }
    const sale = summary.productPayment
    if (trusted && sale && summary.type === 'product.paid') {
      const detail = [sale.product, sale.buyerEmail].filter(Boolean).join(' · ')
      this.activity.apply('product', summary.eventId ?? String(record.seq), { status: 'paid', at, amountInCents: sale.valueInCents, detail })
    }
    this.deliveries.unshift(delivery)
    if (this.deliveries.length > this.maxDeliveries) this.deliveries.length = this.maxDeliveries
    this.rest = { ...this.rest, serviceNow, localNow }
    this.changed()
    if (confirm && charge && this.confirmer) {
      const job = this.confirmer
        .confirm(charge.id, announced, summary.environment)
        .then((verdict) => (replayed ? this.setVerdict(record.seq, undefined, replayVerdict(announced, verdict)) : this.setVerdict(record.seq, charge.id, verdict)))
      this.confirmations.add(job)
      void job.finally(() => this.confirmations.delete(job))
    }
  }

  /** Where deliveries come from (the header's line) and the start-up notes that say more. */
  setRegistration(summary: string, notes: readonly string[] = []): void {
    this.rest = { ...this.rest, registration: summary, startNotes: [...this.rest.startNotes, ...notes] }
    this.changed()
  }

  notice(text: string): void {
    this.rest = { ...this.rest, notices: [...this.rest.notices, text].slice(-MAX_NOTICES) }
    this.changed()
  }

  /** `chargeId` undefined: the delivery's verdict only (a replay), not its lane's. */
  private setVerdict(seq: number, chargeId: string | undefined, verdict: Verdict): void {
    if (chargeId) this.lanes.setVerdict(chargeId, verdict)
    this.deliveries.forEach((d, i) => {
      if (d.seq === seq) this.deliveries[i] = { ...d, verdict }
    })
    this.changed()
  }

  /** The next snapshot is made anew; subscribers hear of it now, or at the schedule's next flush. */
  private changed(): void {
    this.snapshot = undefined
    if (!this.schedule) return this.notify()
    if (this.noticePending) return
    this.noticePending = true
    this.schedule(() => {
      this.noticePending = false
      this.notify()
    })
  }

  private notify(): void {
    for (const l of this.listeners) l()
  }
}
