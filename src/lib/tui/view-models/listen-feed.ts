/**
 * The live view's model: the listener's deliveries (newest first, capped), the charges' lanes,
 * and each charge event's confirmation against the API. An external store for React
 * (`subscribe` / `getSnapshot`), with no React in it, so it is tested on its own.
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
  private readonly listeners = new Set<() => void>()
  private readonly activity = new ActivityBook()
  private state: FeedState = { deliveries: [], lanes: [], activity: [], notices: [], startNotes: [], counts: emptyCounts() }
  private readonly confirmations = new Set<Promise<void>>()

  constructor(opts: ListenFeedOptions = {}) {
    this.maxDeliveries = opts.maxDeliveries ?? 200
    this.lanes = new LaneBook(opts.maxLanes ?? 20)
    this.confirmer = opts.confirmer
    this.confirmEnvironment = opts.confirmEnvironment
    this.showTargets = Boolean(opts.showTargets)
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): FeedState => this.state

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
    const c = this.state.counts
    const counts = record.source === 'replay' ? { ...c, replays: c.replays + 1 } : { ...c, total: c.total + 1, [record.outcome]: c[record.outcome] + 1 }
    const charge = summary.charge
    // One clock for the lanes, the service's: when the event says the state changed (its arrival
    // when it does not say), as `charges watch` shows the charge's own times.
    const at = summary.createdAt && !Number.isNaN(Date.parse(summary.createdAt)) ? new Date(summary.createdAt).toISOString() : record.receivedAt
    const localNow = this.state.localNow && this.state.localNow > record.receivedAt ? this.state.localNow : record.receivedAt
    // Only trusted (or knowingly unverified), first-seen charge events move a lane.
    const trusted = record.source !== 'replay' && record.verification !== 'failed' && record.outcome !== 'duplicate'
    // A forged event's date must not move the view's idea of the service's day.
    const serviceNow = !trusted || (this.state.serviceNow && this.state.serviceNow > at) ? this.state.serviceNow : at
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
    const deliveries = [delivery, ...this.state.deliveries].slice(0, this.maxDeliveries)
    this.set({ ...this.state, deliveries, counts, lanes: this.lanes.list(), activity: this.activity.list(), serviceNow, localNow })
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
    this.set({ ...this.state, registration: summary, startNotes: [...this.state.startNotes, ...notes] })
  }

  notice(text: string): void {
    this.set({ ...this.state, notices: [...this.state.notices, text].slice(-MAX_NOTICES) })
  }

  /** `chargeId` undefined: the delivery's verdict only (a replay), not its lane's. */
  private setVerdict(seq: number, chargeId: string | undefined, verdict: Verdict): void {
    if (chargeId) this.lanes.setVerdict(chargeId, verdict)
    const deliveries = this.state.deliveries.map((d) => (d.seq === seq ? { ...d, verdict } : d))
    this.set({ ...this.state, deliveries, lanes: this.lanes.list() })
  }

  private set(state: FeedState): void {
    this.state = state
    for (const l of this.listeners) l()
  }
}
