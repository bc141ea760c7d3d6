/**
 * `--wait STATE`: polls `GET /v1/charges/{id}` (the authority, spec 1) until the charge is in
 * STATE, reaches a state from which STATE can no longer be reached, or the time runs out.
 * Time and sleep are injected (the command factory's clock) so tests never sleep on the wall clock.
 *
 * "Can no longer be reached" follows the transition table: `expired` or `failed` end a wait for
 * `settled`, but `canceled` does not, because a canceled QR stays payable and a late payment
 * prevails (spec 3 and 4.4); such a wait ends at its timeout.
 */
import type { Charge } from '../contract/schemas.js'
import { type ChargeStatus, canReach } from '../domain/charge-states.js'
import { parseDuration } from '../domain/time.js'
import { UsageError, WaitError } from '../errors.js'

export interface WaitRequest {
  target: ChargeStatus
  timeoutMs: number
  timeoutText: string
}

/** The validated `--wait STATE [--wait-timeout D]`, or undefined without --wait. Checked before any request. */
export function parseWaitFlags(flags: { wait?: string; 'wait-timeout'?: string }): WaitRequest | undefined {
  const text = flags['wait-timeout'] ?? '10m'
  const timeoutMs = parseDuration(text)
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw new UsageError(`Invalid --wait-timeout; nothing was sent.`, {
      details: [{ field: '--wait-timeout', message: `"${text}" is not a duration such as 90s, 10m or 1h` }],
    })
  }
  if (!flags.wait) return undefined
  return { target: flags.wait as ChargeStatus, timeoutMs, timeoutText: text }
}

export interface WaitClock {
  now: () => number
  sleep: (ms: number) => Promise<void>
}

export const POLL_INTERVAL_MS = 1000

export interface WaitOptions {
  getCharge: (id: string) => Promise<Charge>
  id: string
  target: ChargeStatus
  timeoutMs: number
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
    if (charge.status === opts.target) return { reached: true, charge }
    if (!canReach(charge.status, opts.target)) return { reached: false, reason: 'ended', charge }
    const left = deadline - clock.now()
    if (left <= 0) return { reached: false, reason: 'timeout', charge }
    await clock.sleep(Math.min(interval, left))
    charge = await opts.getCharge(opts.id)
  }
}

/** The exit-8 error for an outcome that did not reach its target. */
export function waitError(outcome: Extract<WaitOutcome, { reached: false }>, target: ChargeStatus, timeoutText: string): WaitError {
  const { charge } = outcome
  if (outcome.reason === 'ended') {
    return new WaitError(`Charge ${charge.id} is ${charge.status}: it can no longer become ${target}.`)
  }
  return new WaitError(
    `Timed out after ${timeoutText} waiting for charge ${charge.id} to become ${target}; it is ${charge.status}.`,
    `Wait longer with --wait-timeout, or check it later with \`svc charges get ${charge.id}\`.`,
  )
}
