/**
 * Lanes: each charge's path through its states, as events (or polls) report them. The order of
 * the lane and the colours come from the domain's transition table; an arrival that cannot
 * follow the lane's current state is flagged out of order. At most `max` lanes are kept (the
 * ones updated last), so a listener that runs for days stays small.
 */
import { type ChargeStatus, canReach, LANE_ORDER, shortestPath, statesBefore, TRANSITIONS } from '../../domain/charge-states.js'
import type { Verdict } from '../../webhooks/confirm.js'

export interface LaneStep {
  status: ChargeStatus
  at: string
  eventId?: string
  outOfOrder: boolean
  /** Not seen, but the charge must have passed here to reach the first state seen. */
  inferred?: boolean
}

export interface Lane {
  chargeId: string
  steps: LaneStep[]
  current: ChargeStatus
  grossInCents?: number
  verdict?: Verdict
  /** A split charge's division, once its event came. */
  split?: { status: 'completed' | 'failed'; parts: number }
  /** Order of last update (higher is newer). */
  touched: number
}

export interface LaneUpdate {
  status: ChargeStatus
  at: string
  eventId?: string
  grossInCents?: number
}

/** The states a lane is drawn with: the happy path, then any other state it reached. */
export function laneColumns(lane: Pick<Lane, 'steps'>): ChargeStatus[] {
  const extra = lane.steps.map((s) => s.status).filter((s) => !LANE_ORDER.includes(s))
  return [...LANE_ORDER, ...new Set(extra)]
}

/** Whether some event announces that a charge reached `status` (none does for `created`). */
function hasEvent(status: ChargeStatus): boolean {
  return TRANSITIONS.some((t) => t.to === status)
}

export class LaneBook {
  private readonly lanes = new Map<string, Lane>()
  private clock = 0

  /**
   * `polled`: the states come from polling the charge (charges watch), which never sees events, so
   * the states it passed between two polls are simply reached (●), never "no event seen" (◌).
   */
  constructor(
    private readonly max = 20,
    private readonly opts: { polled?: boolean } = {},
  ) {}

  /** Applies one reported state; returns whether it arrived out of order. */
  apply(chargeId: string, update: LaneUpdate): { outOfOrder: boolean; changed: boolean } {
    const lane = this.lanes.get(chargeId)
    if (!lane) {
      // `created` has no event (no state change announces it): reached, never "event not received".
      const implied = statesBefore(update.status).map((status) => ({ status, at: update.at, outOfOrder: false, ...(this.opts.polled || !hasEvent(status) ? {} : { inferred: true }) }))
      this.lanes.set(chargeId, {
        chargeId,
        steps: [...implied, { status: update.status, at: update.at, eventId: update.eventId, outOfOrder: false }],
        current: update.status,
        grossInCents: update.grossInCents,
        touched: ++this.clock,
      })
      this.evict()
      return { outOfOrder: false, changed: true }
    }
    const known = lane.steps.find((s) => s.status === update.status)
    if (known && !known.inferred) return { outOfOrder: false, changed: false }
    if (known) {
      // A state we had inferred arrives late: it is out of order, but it confirms the path.
      const steps = lane.steps.map((s) => (s === known ? { ...s, at: update.at, eventId: update.eventId, inferred: false, outOfOrder: true } : s))
      this.lanes.set(chargeId, { ...lane, steps, touched: ++this.clock })
      return { outOfOrder: true, changed: true }
    }
    const outOfOrder = !canReach(lane.current, update.status)
    // Between two polls a charge may pass several states: they were reached, and are drawn so.
    const between =
      this.opts.polled && !outOfOrder
        ? (shortestPath(lane.current, update.status) ?? [])
            .slice(1)
            .map((t) => t.from)
            .filter((s) => !lane.steps.some((x) => x.status === s))
        : []
    const next: Lane = {
      ...lane,
      steps: [...lane.steps, ...between.map((status) => ({ status, at: update.at, outOfOrder: false })), { status: update.status, at: update.at, eventId: update.eventId, outOfOrder }],
      current: outOfOrder ? lane.current : update.status,
      grossInCents: lane.grossInCents ?? update.grossInCents,
      touched: ++this.clock,
    }
    this.lanes.set(chargeId, next)
    return { outOfOrder, changed: true }
  }

  /** A split event: the lane (created settled when unseen) shows the division's outcome. */
  setSplit(chargeId: string, split: NonNullable<Lane['split']>, at: string, grossInCents?: number): void {
    if (!this.lanes.has(chargeId)) this.apply(chargeId, { status: 'settled', at, grossInCents })
    const lane = this.lanes.get(chargeId)!
    // The amount too: a lane first seen through its split must not lose its R$.
    this.lanes.set(chargeId, { ...lane, split, grossInCents: lane.grossInCents ?? grossInCents, touched: ++this.clock })
  }

  setVerdict(chargeId: string, verdict: Verdict): void {
    const lane = this.lanes.get(chargeId)
    if (lane) this.lanes.set(chargeId, { ...lane, verdict })
  }

  /** Drops every lane but these (a watch of the newest charges follows the list as it moves on). */
  retain(chargeIds: ReadonlySet<string>): void {
    for (const id of [...this.lanes.keys()]) if (!chargeIds.has(id)) this.lanes.delete(id)
  }

  get(chargeId: string): Lane | undefined {
    return this.lanes.get(chargeId)
  }

  /** Most recently updated first. */
  list(): Lane[] {
    return [...this.lanes.values()].sort((a, b) => b.touched - a.touched)
  }

  private evict(): void {
    while (this.lanes.size > this.max) {
      const oldest = [...this.lanes.values()].reduce((a, b) => (a.touched <= b.touched ? a : b))
      this.lanes.delete(oldest.chargeId)
    }
  }
}
