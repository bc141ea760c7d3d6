/**
 * The division of a split charge's asset (spec 4.8): once a split charge is `settled`, its net
 * amount is divided among its destinations — one move of the split, pending → completed (a txId
 * per destination) or failed — with its `charge.split.*` event. Pure: the engine saves, publishes
 * and re-arms; the timer (charge-timers.ts) or the panel decides when.
 */
import type { Charge } from '../../contract/schemas.js'
import type { Split } from '../../contract/split-charges.js'
import { SandboxApiError } from '../api-error.js'
import { newBlockchainTxId } from '../store/ids.js'
import { splitOf } from '../../contract/charge-split.js'
import type { StoredEvent } from '../types.js'
import { resourceEvent } from './resource-events.js'

/** How long (sandbox time) after `charge.settled` a split charge's asset is divided. */
export const SPLIT_RUNS_AFTER_MS = 60_000
/** The one gross amount (R$ 14,04) whose split fails (`charge.split.failed`), so clients can see it. */
export const SPLIT_FAILS_AMOUNT = 1404
export const SPLIT_FAILURE_REASON = 'the transaction dividing the asset was not confirmed (simulated); the asset stays held'

export type SplitOutcome = 'completed' | 'failed'

/** Whether the division is still to run: a settled charge whose split is pending (a refunded one never is). */
export function divisionPending(charge: Charge): boolean {
  return charge.status === 'settled' && splitOf(charge)?.status === 'pending'
}

/** The instant a charge's division falls due, if it is still to run. */
export function divisionDueAt(charge: Charge): number | undefined {
  if (!divisionPending(charge) || !charge.settlement.settledAt) return undefined
  return Date.parse(charge.settlement.settledAt) + SPLIT_RUNS_AFTER_MS
}

/** Why the division cannot run now on `charge` (the panel's "divide now"), or undefined when it can. */
export function divisionRefusal(charge: Charge): SandboxApiError | undefined {
  const split = splitOf(charge)
  if (!split) return new SandboxApiError('invalid_transition', 'A cobrança não é uma cobrança com divisão (split).')
  if (charge.status !== 'settled' || split.status !== 'pending') {
    return new SandboxApiError('invalid_transition', `A divisão só roda numa cobrança settled com divisão pendente: está em ${charge.status}, divisão ${split.status}.`)
  }
  return undefined
}

/** The division at instant `atMs`, ending as `outcome` says, or as the amount decides. */
export function divide(charge: Charge, atMs: number, outcome?: SplitOutcome): { charge: Charge; event: StoredEvent } {
  const split = splitOf(charge)
  if (!split) throw new Error('bug: division of a charge without a split')
  const ends: SplitOutcome = outcome ?? (charge.amount.grossInCents === SPLIT_FAILS_AMOUNT ? 'failed' : 'completed')
  const at = new Date(atMs).toISOString()
  const done: Split =
    ends === 'completed'
      ? { ...split, status: 'completed', destinations: split.destinations.map((d) => ({ ...d, txId: newBlockchainTxId() })), completedAt: at }
      : { ...split, status: 'failed', failureReason: SPLIT_FAILURE_REASON }
  const next: Charge = { ...charge, split: done, updatedAt: at }
  return { charge: next, event: resourceEvent(`charge.split.${ends}`, next.environment, atMs, `charge:${next.id}`, { charge: next }) }
}
