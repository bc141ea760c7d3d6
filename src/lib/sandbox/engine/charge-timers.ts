/**
 * The charges' deadlines on the sandbox clock: QR expiry, the provider's simulated failure,
 * settlement and the split's division, one DueQueue entry each, keyed `trigger env id`. Armed
 * after every saved move, re-armed from the database after a restart (and when the account's
 * hold on settlements is released). When one falls due, the charge is read again as saved and
 * the move happens at the due instant only if the machine still allows it; while settlements are
 * held, a due settlement does nothing; the release re-arms it at the release instant, so a held
 * charge settles when it is released (late, as the hold rehearses), never back-dated to its estimate.
 */
import type { Environment, Charge } from '../../contract/schemas.js'
import { type ChargeStatus, type Transition, type Trigger, transitionFor } from '../../domain/charge-states.js'

import type { SandboxClock } from './clock.js'
import { DueQueue } from './due-queue.js'
import { divisionDueAt, divisionPending } from './split-division.js'

/**
 * The one amount (R$ 14,03) at which the simulated provider loses an issued charge: it is
 * created as usual and, one minute later (sandbox time), if still unpaid, it moves to `failed`
 * with `charge.failed`, so clients can see that state and event.
 */
export const PROVIDER_FAILS_AMOUNT = 1403
export const PROVIDER_FAILS_AFTER_MS = 60_000

export type DueTrigger = Trigger | 'split'

export interface ChargeTimersDeps {
  clock: SandboxClock
  log: (line: string) => void
  /** The charge as saved now: a deadline acts on it, not on the copy it was armed with. */
  find: (env: Environment, id: string) => Charge | undefined
  /** The account's hold on settlements (a sandbox setting). */
  settlementsHeld: () => boolean
  /** Every charge that may be waiting for a deadline (awaiting payment, paid, settled with a pending split). */
  waiting: () => Iterable<Charge>
  /** Applies one state move at instant `atMs` (saved, published, re-armed by the engine). */
  move: (charge: Charge, t: Transition, atMs: number) => void
  /** Runs the split's division at instant `atMs`. */
  divide: (charge: Charge, atMs: number) => void
}

export class ChargeTimers {
  private readonly due: DueQueue
  private stopped = false

  constructor(private readonly deps: ChargeTimersDeps) {
    this.due = new DueQueue(deps.clock, (key, dueAt) => {
      const [trigger, env, id] = key.split(' ') as [DueTrigger, Environment, string]
      this.fire(env, id, trigger, dueAt)
    })
  }

  /** Sets the deadlines `charge` now waits for and forgets those it no longer does. */
  arm(charge: Charge): void {
    this.armFrom(charge, Number.NEGATIVE_INFINITY)
  }

  /** `arm`, with a settlement due no earlier than `settleNotBefore`. */
  private armFrom(charge: Charge, settleNotBefore: number): void {
    if (this.stopped) return
    const key = (trigger: DueTrigger) => `${trigger} ${charge.environment} ${charge.id}`
    const put = (trigger: DueTrigger, dueAt: number | undefined) => (dueAt === undefined ? this.due.delete(key(trigger)) : this.due.set(key(trigger), dueAt))
    const awaiting = charge.status === 'awaiting_payment'
    put('expire', awaiting ? Date.parse(charge.pix.expiresAt) : undefined)
    put('fail', awaiting && charge.amount.grossInCents === PROVIDER_FAILS_AMOUNT ? Date.parse(charge.createdAt) + PROVIDER_FAILS_AFTER_MS : undefined)
    put('settle', charge.status === 'paid_pending_settlement' && charge.settlement.estimatedAt ? Math.max(Date.parse(charge.settlement.estimatedAt), settleNotBefore) : undefined)
    put('split', divisionDueAt(charge))
  }

  /** Re-arms every charge still waiting for a deadline (after a restart: what fell due meanwhile runs at its due instant). */
  restore(): void {
    for (const charge of this.deps.waiting()) this.arm(charge)
  }

  /**
   * The hold on settlements was released: every charge whose estimate passed while held settles
   * now, at the release instant — a settlement dated at its estimate would change yesterday's
   * report after the fact and hide the lateness the hold rehearses.
   */
  release(): void {
    const now = this.deps.clock.now()
    for (const charge of this.deps.waiting()) this.armFrom(charge, now)
  }

  /** How many deadlines are pending. */
  get size(): number {
    return this.due.size
  }

  /** Forgets every pending deadline (the data is being emptied). */
  reset(): void {
    this.due.clear()
  }

  stop(): void {
    this.stopped = true
    this.due.stop()
  }

  /** A deadline fell due: the move happens at its due instant, if the machine still allows it. */
  private fire(env: Environment, id: string, trigger: DueTrigger, dueAt: number): void {
    if (this.stopped) return
    try {
      const charge = this.deps.find(env, id)
      if (!charge) return
      if (trigger === 'split') {
        // A split refunded before it ran is never divided: the asset went back to the payer.
        if (divisionPending(charge)) this.deps.divide(charge, dueAt)
        return
      }
      if (trigger === 'settle' && this.deps.settlementsHeld()) return
      const t = transitionFor(charge.status as ChargeStatus, trigger)
      if (!t) return
      this.deps.move(charge, t, dueAt)
      this.deps.log(`charge ${id}: ${t.from} → ${t.to}`)
    } catch (err) {
      this.deps.log(`charge ${id}: ${trigger} failed: ${(err as Error).message}`)
    }
  }
}
