/**
 * The sandbox's webhook delivery worker (spec 6.1, 6.2, 6.4): every published event is logged
 * and POSTed at once to its environment's endpoint; only a 2xx is a success; failures retry on
 * the sandbox clock until the 24 h window closes, then the delivery fails, and an endpoint with
 * no success in that window is deactivated (the e-mail notice is logged) until its URL is saved
 * again. It takes any event with a resource key — charges, withdrawals, split charges, sales —
 * without knowing what the event is about: storage is delivery-log.ts, timing schedule.ts,
 * sending sender.ts, the endpoints and their health endpoints.ts. Log writes join the sandbox's group commit (one transaction per turn).
 *
 * What a crash (kill -9) loses: the log rows of the last turn, not yet committed. Nothing is lost
 * for the receiver: an event whose row was lost is still marked undispatched beside its resource
 * and restore() hands it over again, and an attempt whose outcome was lost is made again
 * (receivers deduplicate by event id): at least once, as spec 6.4 promises. A clean stop
 * (close()) commits everything, and pending rows are picked up by restore() on the next start.
 */
import type { DeliveryRecord } from '../../contract/panel.js'
import { LIMITS } from '../../contract/limits.js'
import type { SandboxClock } from '../engine/clock.js'
import { GroupCommit } from '../store/group-commit.js'
import type { EventSink, SandboxContext, StoredEvent } from '../types.js'
import { type AttemptOutcome, type DeliveryQuery, DeliveryLog, type StoredDelivery } from './delivery-log.js'
import { type EndpointInfo, Endpoints } from './endpoints.js'
import { DueTimers, nextRetryAt, ResourceLanes, windowEnd } from './schedule.js'
import { type DeliverySender, deliveryHeaders, describeSendError, failureOfStatus, outboundSender, RESPONSE_SNIPPET } from './sender.js'
import type { Environment } from '../../contract/schemas.js'

export type { AttemptRecord, DeliveryRecord, DeliveryState } from '../../contract/panel.js'
export type { EndpointInfo } from './endpoints.js'
export type { DeliveryResponse, DeliverySender, OutgoingDelivery } from './sender.js'

export interface WebhookDeliveriesOptions {
  send?: DeliverySender
  /** Per-attempt timeout (spec: 10 s). */
  timeoutMs?: number
  /** Wall clock for X-SVC-Timestamp (tests). */
  wallNow?: () => number
  /** Decorates the sender (the webhook faults layer, faults/); absent: the sender as is. */
  wrapSend?: (send: DeliverySender) => DeliverySender
}

/** A delivery in memory while it is pending or being resent. */
interface Job extends StoredDelivery {
  /** Bumped on every (re)schedule, so stale timer entries are skipped. */
  gen: number
}

export class WebhookDeliveries implements EventSink {
  private readonly clock: SandboxClock
  private readonly log: (line: string) => void
  private readonly secret: string
  private readonly send: DeliverySender
  private readonly closeSender?: () => Promise<void>
  private readonly timeoutMs: number
  private readonly wallNow: () => number
  private readonly store: DeliveryLog
  private readonly endpoints: Endpoints
  private readonly pending = new Map<string, Job>()
  private readonly writes: GroupCommit
  private readonly timers: DueTimers
  private readonly lanes = new ResourceLanes<Job>()
  private readonly work = new Set<Promise<void>>()
  private readonly onActivity?: () => void
  /** Bumped by reset(): timers of an older generation are stale. */
  private generation = 0
  private restored = false
  private closed = false

  constructor(ctx: SandboxContext, opts: WebhookDeliveriesOptions = {}) {
    this.clock = ctx.clock
    this.log = ctx.log
    this.onActivity = ctx.onActivity
    this.secret = ctx.webhookSecret
    this.timeoutMs = opts.timeoutMs ?? LIMITS.webhookTimeoutMs
    this.wallNow = opts.wallNow ?? Date.now
    this.writes = ctx.writes ?? new GroupCommit(ctx.db)
    this.timers = new DueTimers(ctx.clock)
    if (opts.send) {
      this.send = opts.send
    } else {
      const sender = outboundSender()
      this.send = sender.send
      this.closeSender = sender.close
    }
    if (opts.wrapSend) this.send = opts.wrapSend(this.send)
    this.store = new DeliveryLog(ctx.db)
    this.endpoints = new Endpoints(this.store, (write) => this.queue(write), this.log)
  }

  // ------------------------------------------------------------ endpoints

  getEndpoint(environment: Environment): EndpointInfo | undefined {
    return this.endpoints.info(environment)
  }

  /** Saves the environment's URL; saving again reactivates a deactivated endpoint (spec 6.4.8). */
  setEndpoint(environment: Environment, url: string): EndpointInfo {
    return this.endpoints.save(environment, url, this.clock.now())
  }

  /**
   * Removes the environment's URL: later events are not delivered (as before any URL was set).
   * Deliveries already pending keep their retries, to the URL they were made for. False when none was set.
   */
  removeEndpoint(environment: Environment): boolean {
    return this.endpoints.remove(environment)
  }

  // ------------------------------------------------------------ publishing

  publish(event: StoredEvent): void {
    const ep = this.endpoints.target(event.environment)
    if (!ep) {
      // No URL configured for this environment: nothing to deliver, and nothing to hand over again.
      this.queue(() => this.store.markDispatched(event.id))
      return
    }
    if (this.pending.has(event.id)) return // the same event published twice
    const now = this.clock.now()
    const row = { eventId: event.id, type: event.type, env: event.environment, body: event.body, url: ep.url, createdAt: now, resourceKey: event.resourceKey }
    if (!ep.active) {
      // A deactivated endpoint gets no new deliveries; the log still shows what was not sent.
      this.queue(() => {
        this.store.insert({ ...row, state: 'skipped' })
        this.store.markDispatched(event.id)
      })
      return
    }
    // The row and the mark in one commit: a crash loses both (and restore() hands the event over again) or neither.
    this.queue(() => {
      this.store.insert({ ...row, state: 'pending' })
      this.store.markDispatched(event.id)
    })
    const job: Job = { ...row, state: 'pending', attempts: 0, retryIndex: 0, dueAt: now, gen: 0 }
    this.pending.set(job.eventId, job)
    // After close() the row stays pending with its due time; restore() picks it up on the next start.
    if (!this.closed) this.firstAttempt(job)
  }

  /** Starts a job's first attempt now, or queues it behind the one of its resource in flight. */
  private firstAttempt(job: Job): void {
    const lane = job.resourceKey === undefined ? undefined : `${job.env}:${job.resourceKey}`
    this.lanes.enqueue(
      lane,
      job,
      (j) => this.attempt(j, this.clock.now(), false),
      (p) => this.track(p),
      () => this.closed,
    )
  }

  /**
   * Sends the delivery again: same event id and body, fresh timestamp and signature, one more attempt.
   * Undefined when there is no delivery of that event (in `environment`, when given: the panel acts on one environment).
   */
  resend(eventId: string, environment?: Environment): { eventId: string } | undefined {
    let job = this.pending.get(eventId)
    if (!job) {
      this.flushWrites()
      const stored = this.store.get(eventId)
      if (!stored) return undefined
      job = { ...stored, gen: 0 }
    }
    if (environment !== undefined && job.env !== environment) return undefined
    this.track(this.attempt(job, this.clock.now(), true))
    return { eventId }
  }

  list(filter: DeliveryQuery = {}): DeliveryRecord[] {
    this.flushWrites()
    return this.store.list(filter)
  }

  // ------------------------------------------------------------ lifecycle

  /** After a restart: re-schedules pending deliveries and the pending 24 h endpoint checks from the db. */
  restore(): void {
    if (this.restored) return
    this.restored = true
    this.flushWrites()
    const now = this.clock.now()
    for (const stored of this.store.pending()) {
      if (this.pending.has(stored.eventId)) continue
      const job: Job = { ...stored, dueAt: Math.max(stored.dueAt, now), gen: 0 }
      this.pending.set(job.eventId, job)
      // Never attempted (queued in its lane when the sandbox stopped): first attempts in order, now.
      if (job.attempts === 0) this.firstAttempt(job)
      else this.pushJob(job)
    }
    for (const c of this.store.pendingChecks()) this.pushCheck(c.eventId, c.env, c.firstAttemptAt, Math.max(c.checkAt, now))
    // At least once (spec 6.4): events saved with their resource whose delivery row a crash lost.
    const lost = this.store.undispatched()
    if (lost.length) this.log(`webhooks: ${lost.length} event${lost.length === 1 ? '' : 's'} saved before a crash but never handed to delivery: delivering now`)
    for (const event of lost) this.publish(event)
    this.armTimers()
  }

  /**
   * Resolves once the attempts in flight have ended and the retries that fell due meanwhile
   * have run, with everything written. `maxRounds` bounds the wait under a steady stream of new
   * events (each round waits for what is in flight at its start; a retry chain takes two).
   */
  async flush(maxRounds = 64): Promise<void> {
    for (let round = 0; this.work.size && round < maxRounds; round++) await Promise.all([...this.work])
    // The endpoints' last success is written at most once a second; a flush (export, close) writes the latest.
    this.endpoints.persistLastSuccess()
    this.flushWrites()
  }

  /**
   * Forgets every delivery (the data is being emptied): waits for the attempts in flight, then
   * drops the pending retries, the queued first attempts and the 24 h checks. Endpoints stay.
   */
  async reset(): Promise<void> {
    await this.flush(Number.POSITIVE_INFINITY)
    this.pending.clear()
    this.generation++
  }

  /** Stops scheduling, waits for the deliveries in flight. Pending retries stay in the db for restore(). */
  async close(): Promise<void> {
    this.closed = true
    this.timers.stop()
    await this.flush(Number.POSITIVE_INFINITY)
    await this.closeSender?.().catch(() => {})
  }

  // ------------------------------------------------------------ attempts

  /** `duplicate`: the second delivery the faults layer asked for (outside the schedule, like a resend). */
  private async attempt(job: Job, at: number, manual: boolean, duplicate = false): Promise<void> {
    const scheduled = !manual && !duplicate
    // A job dropped by reset() (queued behind another of its resource) is not sent.
    if (scheduled && this.pending.get(job.eventId) !== job) return
    const ep = this.endpoints.target(job.env)
    if (scheduled && (!ep || !ep.active)) {
      // Notices stop while the endpoint is deactivated (spec 6.4.8); a resend still goes out.
      this.pending.delete(job.eventId)
      job.state = 'failed'
      this.queue(() => this.store.markFailed(job.eventId, 'endpoint deactivated'))
      return
    }
    const url = ep?.url ?? job.url
    job.url = url
    const headers = deliveryHeaders(this.secret, this.wallNow(), { id: job.eventId, type: job.type, body: job.body })
    const simStart = this.clock.now()
    const wallStart = performance.now()
    let status: number | undefined
    let error: string | undefined
    let response: string | undefined
    let injected: string[] | undefined = duplicate ? ['duplicate'] : undefined
    let again = false
    try {
      const res = await this.send({ url, headers, body: job.body, timeoutMs: this.timeoutMs, scheduled })
      if (res.injected) injected = res.injected
      again = res.duplicate === true
      if (res.notSent) {
        response = '(not sent: lost by --webhook-faults)'
      } else {
        status = res.status
        response = res.body.slice(0, RESPONSE_SNIPPET)
        error = failureOfStatus(status)
      }
    } catch (err) {
      error = describeSendError(err, this.timeoutMs)
      injected = (err as { injected?: string[] }).injected ?? injected
    }
    const durationMs = Math.round(performance.now() - wallStart)
    // Sandbox time the attempt took: 0 on a manual clock, wall time × speed otherwise (bounded,
    // so that a clock advanced meanwhile does not push the retry past its window).
    const elapsed = Math.min(Math.max(0, this.clock.now() - simStart), (this.timeoutMs + 1000) * this.clock.speed)
    this.finish(job, { at, url, status, error, response, durationMs, manual, ...(injected ? { injected } : {}) }, at + elapsed)
    if (again && !this.closed) this.track(this.attempt(job, this.clock.now(), false, true))
  }

  private finish(job: Job, r: AttemptOutcome, finishedAt: number): void {
    const stillPending = this.pending.get(job.eventId) === job
    let nextRetry: number | null = null
    let checkAt: number | null = null
    if (r.error === undefined) {
      job.state = 'succeeded'
      this.pending.delete(job.eventId)
      job.gen++
      this.endpoints.noteSuccess(job.env, r.at)
    } else if (r.manual || !stillPending) {
      // A failed resend leaves the schedule (or the final state) as it was.
      if (stillPending) nextRetry = job.dueAt
      else if (job.state === 'skipped') job.state = 'failed'
      this.log(`webhooks: ${job.eventId} ${job.type} → ${r.url}: ${r.error} (${r.injected?.includes('duplicate') ? 'injected duplicate' : 'resend'})`)
    } else {
      job.retryIndex++
      job.firstAttemptAt ??= r.at
      const next = nextRetryAt(job.retryIndex, finishedAt, job.firstAttemptAt)
      if (next === undefined) {
        job.state = 'failed'
        this.pending.delete(job.eventId)
        checkAt = windowEnd(job.firstAttemptAt)
        this.log(`webhooks: ${job.eventId} ${job.type} → ${r.url}: ${r.error}; no retry left within 24 h: delivery failed`)
      } else {
        nextRetry = next
        job.dueAt = next
        this.log(`webhooks: ${job.eventId} ${job.type} → ${r.url}: ${r.error}; retry ${job.retryIndex} at ${iso(next)}`)
      }
    }
    const { state, retryIndex, eventId } = job
    this.queue(() => this.store.recordAttempt(eventId, r, { state, retryIndex, nextRetryAt: nextRetry, checkAt }))
    this.onActivity?.()
    if (this.closed) return
    if (nextRetry !== null && !r.manual && stillPending) this.pushJob(job)
    if (checkAt !== null) this.pushCheck(eventId, job.env, job.firstAttemptAt!, checkAt)
    if (nextRetry !== null || checkAt !== null) this.armTimers()
  }

  /** At the end of a failed delivery's 24 h window: deactivate an endpoint that had no success in it. */
  private checkWindow(eventId: string, env: Environment, firstAttemptAt: number, due: number): void {
    this.queue(() => this.store.checkDone(eventId))
    this.endpoints.checkWindow(env, firstAttemptAt, due)
  }

  // ------------------------------------------------------------ writes

  /** Queues a write into the turn's group commit (one commit for a burst of deliveries). */
  private queue(write: () => void): void {
    this.writes.defer(write, this.writeFailed)
  }

  private lastWriteError: unknown
  private readonly writeFailed = (err: unknown): void => {
    // A failed commit fails every write of its batch with the same error: one line, not hundreds.
    if (err === this.lastWriteError) return
    this.lastWriteError = err
    this.log(`webhooks: could not save the delivery log: ${err instanceof Error ? err.message : String(err)}`)
  }

  /** Commits what is queued, for a reader of the tables. */
  private flushWrites(): void {
    this.writes.flush()
  }

  // ------------------------------------------------------------ scheduling

  private pushJob(job: Job): void {
    const gen = ++job.gen
    this.timers.add(
      job.dueAt,
      (due) => this.track(this.attempt(job, due, false)),
      () => job.gen === gen && this.pending.get(job.eventId) === job,
    )
  }

  private pushCheck(eventId: string, env: Environment, firstAttemptAt: number, due: number): void {
    const generation = this.generation
    this.timers.add(
      due,
      (d) => this.checkWindow(eventId, env, firstAttemptAt, d),
      () => generation === this.generation,
    )
  }

  /** Re-arms the clock timer; runs at once what already fell due (an advance runs it itself, in order). */
  private armTimers(): void {
    if (this.timers.arm() && !this.clock.advancing) this.track(this.clock.tick(), false)
  }

  /** `hold`: an advance waits for it before its next timer (never a tick: that waits for the advance). */
  private track(p: Promise<void>, hold = true): void {
    const tracked: Promise<void> = p.catch((err: unknown) => this.log(`webhooks: internal error: ${err instanceof Error ? err.message : String(err)}`)).finally(() => this.work.delete(tracked))
    this.work.add(tracked)
    if (hold) this.clock.hold(tracked)
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}
