/**
 * Webhook faults (`--webhook-faults`): a layer around the delivery worker, never a branch in it.
 * It decorates the two seams the worker already has — the event sink in front of it (delay,
 * reorder) and the sender behind it (lose, fail-first, duplicate) — so the worker's schedule runs
 * as it always does, and a sandbox without faults installs no layer at all.
 *
 * Every fault is chosen when the event is published, from a seeded PRNG that draws the same four
 * numbers per event whatever they decide: the same seed and the same sequence of events give the
 * same faults. Only attempts of the retry schedule are touched; a resend goes out as asked.
 */
import { WEBHOOK_HEADERS } from '../../contract/events.js'
import { mulberry32 } from '../chaos.js'
import type { SandboxClock } from '../clock.js'
import { type DeliverySender, failureOfStatus } from '../deliveries/sender.js'
import type { EventSink, StoredEvent } from '../types.js'
import type { WebhookFaultRates } from './spec.js'

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
  /** Delayed events not yet handed on: clock timer ids. */
  private readonly delayed = new Set<number>()
  /** Bumped by reset(): timers of an older generation hand nothing on. */
  private generation = 0

  constructor(
    readonly rates: WebhookFaultRates,
    readonly seed: number,
    private readonly clock: SandboxClock,
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
        return { status: 0, body: '', notSent: true, injected: [...marks, 'lose'] }
      }
      if (decision.failFirst) {
        decision.failFirst = false
        if (!decision.duplicate) this.decisions.delete(id!)
        throw new InjectedNetworkError([...marks, 'fail-first'])
      }
      const res = await inner(d)
      const succeeded = failureOfStatus(res.status) === undefined
      if (succeeded || !decision.duplicate) this.decisions.delete(id!)
      return { ...res, ...(marks.length ? { injected: marks } : {}), ...(succeeded && decision.duplicate ? { duplicate: true } : {}) }
    }
  }

  /** Forgets held and delayed events and pending decisions (the sandbox's data is being emptied). */
  reset(): void {
    this.generation++
    for (const id of this.delayed) this.clock.cancel(id)
    this.delayed.clear()
    for (const list of this.held.values()) for (const h of list) this.clock.cancel(h.timer)
    this.held.clear()
    this.decisions.clear()
  }

  private publish(event: StoredEvent, inner: EventSink): void {
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
    this.delayed.add(timer)
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
        inner.publish(h.event)
      }
      return
    }
    if (!holdBack) return inner.publish(event)
    decision.marks.push('reorder')
    const generation = this.generation
    const timer = this.clock.schedule(this.clock.now() + REORDER_MAX_HOLD_MS, () => {
      if (generation !== this.generation) return
      const list = this.held.get(lane!)
      const i = list?.findIndex((h) => h.timer === timer) ?? -1
      if (i < 0) return
      list!.splice(i, 1)
      if (!list!.length) this.held.delete(lane!)
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
