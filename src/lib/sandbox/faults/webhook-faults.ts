/**
 * Webhook faults (`--webhook-faults`): a layer around the delivery worker, never a branch in it.
 * It decorates the two seams the worker already has — the event sink in front of it (delay,
 * reorder) and the sender behind it (lose, fail-first, duplicate) — so the worker's schedule runs
 * as it always does, and a sandbox without faults installs no layer at all.
 *
 * Every fault is chosen when the event is published, from a seeded PRNG that draws the same four
 * numbers per event whatever they decide: the same seed and the same sequence of events give the
 * same faults. Only attempts of the retry schedule are touched; a resend goes out as asked.
 *
 * Faults hit the `test` environment only: `live` stands for production, where a merchant's app
 * must see what the real service sends; its events pass untouched and draw nothing (so live
 * traffic does not shift the test faults a seed replays).
 *
 * Each injected fault is named in the sandbox's log (a `fail-first` must not read as a real
 * reset), and events held back (reorder, delay) show in the delivery log as `held` until they go
 * out (showHeld).
 */
import { WEBHOOK_HEADERS } from '../../contract/event-types.js'
import { mulberry32 } from '../http/chaos.js'
import type { SandboxClock } from '../engine/clock.js'
import { type DeliverySender, failureOfStatus } from '../deliveries/sender.js'
import type { DeliveryRecord } from '../../contract/panel.js'
import type { DeliveryWorker, EventSink, StoredEvent } from '../types.js'
import type { WebhookFaultRates } from './spec.js'
import type { Environment } from '../../contract/schemas.js'

export type FaultMark = 'duplicate' | 'reorder' | 'lose' | 'delay' | 'fail-first'

/**
 * How long a reordered event waits for the next event of its resource on the sandbox clock; then
 * it goes out anyway (a charge's last event has no next one, and must not be lost by `reorder`).
 */
export const REORDER_MAX_HOLD_MS = 60_000
/** Decisions kept for events whose delivery has not used them yet (an endpoint-less environment never does). */
const MAX_DECISIONS = 100_000

interface Decision {
  duplicate: boolean
  lose: boolean
  failFirst: boolean
  /** Marks for the first attempt from the sink side (delay, reorder). */
  marks: FaultMark[]
}

interface Held {
  event: StoredEvent
  timer: number
}

/** The error a `fail-first` attempt fails with: a network error, as the sender's own would be. */
export class InjectedNetworkError extends Error {
  readonly code = 'ECONNRESET'
  readonly injected: FaultMark[]
  constructor(marks: FaultMark[]) {
    super('connection reset (injected by --webhook-faults fail-first)')
    this.name = 'InjectedNetworkError'
    this.injected = marks
  }
}

export class WebhookFaults {
  private readonly random: () => number
  private readonly decisions = new Map<string, Decision>()
  /** Reordered events waiting for the next event of their resource, by lane. */
  private readonly held = new Map<string, Held[]>()
  /** Delayed events not yet handed on, by clock timer id. */
  private readonly delayed = new Map<number, StoredEvent>()
  /** Bumped by reset(): timers of an older generation hand nothing on. */
  private generation = 0

  constructor(
    readonly rates: WebhookFaultRates,
    readonly seed: number,
    private readonly clock: SandboxClock,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.random = mulberry32(seed)
  }

  /** The sink in front of the worker: decides the event's faults, then delays or holds it back. */
  sink(inner: EventSink): EventSink {
    return { publish: (event) => this.publish(event, inner) }
  }

  /** The sender behind the worker: loses, fails or duplicates the first attempts as decided. */
  sender(inner: DeliverySender): DeliverySender {
    return async (d) => {
      if (d.scheduled === false) return inner(d)
      const id = d.headers[WEBHOOK_HEADERS.eventId]
      const decision = id === undefined ? undefined : this.decisions.get(id)
      if (!decision) return inner(d)
      const marks = decision.marks
      decision.marks = []
      if (decision.lose) {
        this.decisions.delete(id!)
        this.note('lose', id!, d.headers[WEBHOOK_HEADERS.eventType], 'never sent; the delivery counts as done, as the service would believe')
        return { status: 0, body: '', notSent: true, injected: [...marks, 'lose'] }
      }
      if (decision.failFirst) {
        decision.failFirst = false
        if (!decision.duplicate) this.decisions.delete(id!)
        this.note('fail-first', id!, d.headers[WEBHOOK_HEADERS.eventType], 'the first attempt fails as a connection reset; the retry schedule runs')
        throw new InjectedNetworkError([...marks, 'fail-first'])
      }
      const res = await inner(d)
      const succeeded = failureOfStatus(res.status) === undefined
      if (succeeded || !decision.duplicate) this.decisions.delete(id!)
      if (succeeded && decision.duplicate) this.note('duplicate', id!, d.headers[WEBHOOK_HEADERS.eventType], 'delivered once more with the same event id, signed afresh')
      return { ...res, ...(marks.length ? { injected: marks } : {}), ...(succeeded && decision.duplicate ? { duplicate: true } : {}) }
    }
  }

  /** Forgets held and delayed events and pending decisions (the sandbox's data is being emptied). */
  reset(): void {
    this.generation++
    for (const id of this.delayed.keys()) this.clock.cancel(id)
    this.delayed.clear()
    for (const list of this.held.values()) for (const h of list) this.clock.cancel(h.timer)
    this.held.clear()
    this.decisions.clear()
  }

  /**
   * The worker as the panels see it: its delivery log with the events this layer still holds
   * back (reorder, delay) as `held` deliveries on top, so that none is invisible until released.
   */
  showHeld(worker: DeliveryWorker): DeliveryWorker {
    return {
      publish: (event) => worker.publish(event),
      getEndpoint: (env) => worker.getEndpoint(env),
      setEndpoint: (env, url) => worker.setEndpoint(env, url),
      removeEndpoint: (env) => worker.removeEndpoint(env),
      list: (filter = {}) => {
        const held = this.heldRecords(worker, filter)
        const rows = worker.list(filter)
        return held.length ? [...held, ...rows].slice(0, Math.max(rows.length, Math.min(Math.max(1, Math.floor(filter.limit ?? 50)), 1000))) : rows
      },
      resend: (eventId, env) => worker.resend(eventId, env),
      ...(worker.flush ? { flush: () => worker.flush!() } : {}),
      ...(worker.restore ? { restore: () => worker.restore!() } : {}),
      close: () => worker.close(),
      ...(worker.reset ? { reset: () => worker.reset!() } : {}),
    }
  }

  /** Held-back events as deliveries in state `held`, newest first; only where the environment has a URL (else nothing would be sent). */
  private heldRecords(worker: DeliveryWorker, filter: { environment?: Environment; eventId?: string }): DeliveryRecord[] {
    const out: Array<{ event: StoredEvent; mark: FaultMark }> = []
    for (const event of this.delayed.values()) out.push({ event, mark: 'delay' })
    for (const list of this.held.values()) for (const h of list) out.push({ event: h.event, mark: 'reorder' })
    const records: DeliveryRecord[] = []
    for (const { event, mark } of out) {
      if ((filter.environment && event.environment !== filter.environment) || (filter.eventId && event.id !== filter.eventId)) continue
      const endpoint = worker.getEndpoint(event.environment)
      if (!endpoint?.active) continue
      const marks = this.decisions.get(event.id)?.marks ?? []
      records.push({
        eventId: event.id,
        type: event.type,
        environment: event.environment,
        url: endpoint.url,
        attempts: 0,
        state: 'held',
        createdAt: event.createdAt,
        body: event.body,
        injected: [...new Set<string>([...marks, mark])],
        ...(filter.eventId ? { attemptLog: [] } : {}),
      })
    }
    return records.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
  }

  /** One line in the sandbox's log per injected fault. */
  private note(fault: FaultMark, eventId: string, type: string | undefined, what: string): void {
    this.log(`webhook fault (injected, --webhook-faults ${fault}): ${eventId}${type ? ` ${type}` : ''}: ${what}`)
  }

  private publish(event: StoredEvent, inner: EventSink): void {
    // Live mirrors production: no fault, no draw.
    if (event.environment !== 'test') return inner.publish(event)
    // Four draws per event, always, in this order: the sequence depends on the events alone.
    const r = this.rates
    const duplicate = this.random() < r.duplicate
    const reorder = this.random() < r.reorder
    const lose = this.random() < r.lose
    const failFirst = this.random() < r.failFirst
    const lane = event.resourceKey === undefined ? undefined : `${event.environment}:${event.resourceKey}`
    const decision: Decision = { duplicate, lose, failFirst, marks: [] }
    if (r.delayMs > 0) decision.marks.push('delay')
    const holdBack = reorder && !lose && lane !== undefined
    if (duplicate || lose || failFirst || holdBack || decision.marks.length) this.remember(event.id, decision)
    const handOn = (): void => this.release(event, lane, holdBack, decision, inner)
    if (r.delayMs <= 0) return handOn()
    const generation = this.generation
    const timer = this.clock.schedule(this.clock.now() + r.delayMs, () => {
      this.delayed.delete(timer)
      if (generation === this.generation) handOn()
    })
    this.delayed.set(timer, event)
  }

  /** Hands the event on, or holds it back until the next event of its resource went out. */
  private release(event: StoredEvent, lane: string | undefined, holdBack: boolean, decision: Decision, inner: EventSink): void {
    const waiting = lane === undefined ? undefined : this.held.get(lane)
    if (waiting) {
      // This one goes first; the held ones follow it in its lane (the worker sends a resource's
      // first attempts one after the other), so they arrive after it.
      this.held.delete(lane!)
      inner.publish(event)
      for (const h of waiting) {
        this.clock.cancel(h.timer)
        this.note('reorder', h.event.id, h.event.type, `released after ${event.id} ${event.type}, the next event of its resource`)
        inner.publish(h.event)
      }
      return
    }
    if (!holdBack) return inner.publish(event)
    decision.marks.push('reorder')
    this.note('reorder', event.id, event.type, `held back until the next event of its resource goes out (at most ${REORDER_MAX_HOLD_MS / 1000} s of sandbox time)`)
    const generation = this.generation
    const timer = this.clock.schedule(this.clock.now() + REORDER_MAX_HOLD_MS, () => {
      if (generation !== this.generation) return
      const list = this.held.get(lane!)
      const i = list?.findIndex((h) => h.timer === timer) ?? -1
      if (i < 0) return
      list!.splice(i, 1)
      if (!list!.length) this.held.delete(lane!)
      this.note('reorder', event.id, event.type, `released after ${REORDER_MAX_HOLD_MS / 1000} s with no next event of its resource`)
      inner.publish(event)
    })
    this.held.set(lane!, [{ event, timer }])
  }

  private remember(eventId: string, decision: Decision): void {
    if (this.decisions.size >= MAX_DECISIONS) this.decisions.delete(this.decisions.keys().next().value!)
    this.decisions.set(eventId, decision)
  }
}

/** A seed for a run that did not give one: printed, so the run can be replayed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31)
}
