/**
 * Waiting for a charge's state: polls `GET /v1/charges/{id}` (the authority, spec 1) until the
 * charge is in the state, reaches a state from which it can no longer be reached, or the time
 * runs out. A door reads its own words into the typed WaitInput (the CLI: `--wait`,
 * `--wait-timeout`, command-kit/wait-flags.ts) and words the outcome itself.
 * Time and sleep are injected (the command factory's clock) so tests never sleep on the wall clock.
 *
 * "Can no longer be reached" follows the transition table: `expired` or `failed` end a wait for
 * `settled`, but `canceled` does not, because a canceled QR stays payable and a late payment
 * prevails (spec 3 and 4.4); such a wait ends at its timeout.
 */
import type { Charge } from '../contract/schemas.js'
import { type ChargeStatus, canReach } from '../domain/charge-states.js'

/** A wait as typed, by any door: until the charge is in `until`, for at most `timeoutMs`. */
export interface WaitInput {
  until: ChargeStatus
  timeoutMs: number
}

export interface WaitClock {
  now: () => number
  sleep: (ms: number) => Promise<void>
}

export const POLL_INTERVAL_MS = 1000

export interface WaitOptions extends WaitInput {
  getCharge: (id: string) => Promise<Charge>
  id: string
  intervalMs?: number
  /** The commands' is their factory's (command-kit/factory.ts); tests pass one that never sleeps. */
  clock: WaitClock
  /** A charge already in hand (e.g. just created): checked before the first poll. */
  initial?: Charge
  /** Called with every charge read, for a spinner. */
  onPoll?: (charge: Charge) => void
}

export type WaitOutcome = { reached: true; charge: Charge } | { reached: false; reason: 'ended' | 'timeout'; charge: Charge }

export async function waitForStatus(opts: WaitOptions): Promise<WaitOutcome> {
  const { clock } = opts
  const interval = opts.intervalMs ?? POLL_INTERVAL_MS
  const deadline = clock.now() + opts.timeoutMs
  let charge = opts.initial ?? (await opts.getCharge(opts.id))
  for (;;) {
    opts.onPoll?.(charge)
    if (charge.status === opts.until) return { reached: true, charge }
    if (!canReach(charge.status, opts.until)) return { reached: false, reason: 'ended', charge }
    const left = deadline - clock.now()
    if (left <= 0) return { reached: false, reason: 'timeout', charge }
    await clock.sleep(Math.min(interval, left))
    charge = await opts.getCharge(opts.id)
  }
}
