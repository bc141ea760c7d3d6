/**
 * The charge state machine of spec part 3: the one transition table that drives the sandbox
 * engine, the CLI's local pre-check of `test advance`, and the lanes and colours of the TUI.
 *
 * Choices where the spec says "not shown" (listed in the README):
 * - `created` is transient: a charge whose QR is issued leaves it at once for `awaiting_payment`;
 *   a provider failure while issuing the QR moves it to `failed`.
 * - `failed` is reachable from `created` and `awaiting_payment` (the charge died unpaid).
 * - `refunded` is reachable from `paid_pending_settlement` and `settled`.
 * - Sandbox advance walks the shortest forward path to its target, one real transition (and one
 *   event) per step: `settled` from `awaiting_payment` passes through `paid_pending_settlement`.
 */
export const CHARGE_STATUSES = ['created', 'awaiting_payment', 'paid_pending_settlement', 'settled', 'expired', 'canceled', 'failed', 'refunded'] as const
export type ChargeStatus = (typeof CHARGE_STATUSES)[number]

export const ADVANCE_TARGETS = ['paid_pending_settlement', 'settled', 'expired', 'refunded'] as const
export type AdvanceTarget = (typeof ADVANCE_TARGETS)[number]

export type Trigger = 'issue_qr' | 'pay' | 'settle' | 'cancel' | 'expire' | 'refund' | 'fail'

export interface Transition {
  from: ChargeStatus
  to: ChargeStatus
  trigger: Trigger
  /** The event emitted by this move (spec 6.3). */
  event: string
}

export const TRANSITIONS: readonly Transition[] = [
  { from: 'created', to: 'awaiting_payment', trigger: 'issue_qr', event: 'charge.awaiting_payment' },
  { from: 'created', to: 'failed', trigger: 'fail', event: 'charge.failed' },
  { from: 'awaiting_payment', to: 'paid_pending_settlement', trigger: 'pay', event: 'charge.paid_pending_settlement' },
  { from: 'awaiting_payment', to: 'canceled', trigger: 'cancel', event: 'charge.canceled' },
  { from: 'awaiting_payment', to: 'expired', trigger: 'expire', event: 'charge.expired' },
  { from: 'awaiting_payment', to: 'failed', trigger: 'fail', event: 'charge.failed' },
  { from: 'canceled', to: 'paid_pending_settlement', trigger: 'pay', event: 'charge.paid_pending_settlement' },
  { from: 'paid_pending_settlement', to: 'settled', trigger: 'settle', event: 'charge.settled' },
  { from: 'paid_pending_settlement', to: 'refunded', trigger: 'refund', event: 'charge.refunded' },
  { from: 'settled', to: 'refunded', trigger: 'refund', event: 'charge.refunded' },
]

/** The move `trigger` makes from `from`, or undefined when the machine forbids it. */
export function transitionFor(from: ChargeStatus, trigger: Trigger): Transition | undefined {
  return TRANSITIONS.find((t) => t.from === from && t.trigger === trigger)
}

/** States with no move out other than a late payment or a refund: the lane of a charge ends here. */
export const FINAL_STATUSES: readonly ChargeStatus[] = ['settled', 'expired', 'canceled', 'failed', 'refunded']

export function isFinal(status: ChargeStatus): boolean {
  return FINAL_STATUSES.includes(status)
}

/**
 * The shortest chain of moves from `from` to `to` (empty when they are equal), or undefined when
 * the machine never leads there. `allow` narrows the moves that may be taken. Every question of
 * the kind "can B still follow A?" is answered here, from the one table.
 */
export function shortestPath(from: ChargeStatus, to: ChargeStatus, allow: (t: Transition) => boolean = () => true): Transition[] | undefined {
  if (from === to) return []
  const queue: Array<{ at: ChargeStatus; path: Transition[] }> = [{ at: from, path: [] }]
  const seen = new Set<ChargeStatus>([from])
  while (queue.length > 0) {
    const { at, path } = queue.shift()!
    for (const t of TRANSITIONS) {
      if (t.from !== at || seen.has(t.to) || !allow(t)) continue
      const next = [...path, t]
      if (t.to === to) return next
      seen.add(t.to)
      queue.push({ at: t.to, path: next })
    }
  }
  return undefined
}

/** Whether a charge in `from` can be in `to` later (or is already): zero or more moves. */
export function canReach(from: ChargeStatus, to: ChargeStatus): boolean {
  return shortestPath(from, to) !== undefined
}

/**
 * The path of transitions a sandbox advance to `target` takes from `from` (shortest, forward
 * only), or undefined when the target cannot be reached: 409 `invalid_transition`. Cancel and
 * fail are merchant or provider acts, never a step of an advance.
 */
export function advancePath(from: ChargeStatus, target: AdvanceTarget): Transition[] | undefined {
  if (from === target) return undefined
  return shortestPath(from, target, (t) => t.trigger !== 'cancel' && t.trigger !== 'fail')
}

/**
 * The states a charge passed through before reaching `to`. `created` is transient and every charge
 * that got its QR passed `awaiting_payment`, so the path goes through it where it can: a `failed`
 * charge is drawn as one that died awaiting payment (failing straight from `created`, when the QR
 * could not be issued, is the rarer case and looks the same from outside).
 */
export function statesBefore(to: ChargeStatus): ChargeStatus[] {
  const first = CHARGE_STATUSES[0]
  if (to === first) return []
  const viaQr = to === 'awaiting_payment' ? undefined : shortestPath('awaiting_payment', to)
  if (viaQr) return [first, ...viaQr.map((t) => t.from)]
  return (shortestPath(first, to) ?? []).map((t) => t.from)
}

/** The order in which a charge's lane is drawn. */
export const LANE_ORDER: readonly ChargeStatus[] = ['created', 'awaiting_payment', 'paid_pending_settlement', 'settled']

export type StatusTone = 'pending' | 'progress' | 'success' | 'ended' | 'danger'

export const STATUS_TONE: Record<ChargeStatus, StatusTone> = {
  created: 'pending',
  awaiting_payment: 'pending',
  paid_pending_settlement: 'progress',
  settled: 'success',
  expired: 'ended',
  canceled: 'ended',
  failed: 'danger',
  refunded: 'danger',
}

/** The charge status an event type announces, if it is a charge state event. */
export function statusOfEventType(type: string): ChargeStatus | undefined {
  const t = TRANSITIONS.find((x) => x.event === type)
  return t?.to
}
