/**
 * `--wait STATE` of `charges create` and `charges get`: polls the charge until it is in STATE,
 * with its terminal feedback: a spinner on stderr (terminal only) that shows the charge's current
 * state, and a closing line on stderr when the state is reached. The flags are command-kit's
 * `waitFlags`, read into the typed wait by its `waitInputFromFlags`; the outcome carries the
 * exit-8 error to report, if any.
 */
import { type WaitClock, type WaitInput, type WaitOutcome, waitForStatus } from '../charges/wait.js'
import type { ChargeStatus } from '../domain/charge-states.js'
import { WaitError } from '../errors.js'
import type { Charge } from '../contract/schemas.js'
import { painter } from '../output/color.js'
import { paintStatus } from '../output/charge-view.js'
import type { IO } from '../output/io.js'
import { createSpinner } from '../output/spinner.js'

/** The typed wait, with its timeout as the user gave it (`10m`), for the spinner and the messages. */
export interface ChargeWait extends WaitInput {
  timeoutText: string
}

export interface ChargeWaitOptions {
  io: IO
  getCharge: (id: string) => Promise<Charge>
  wait: ChargeWait
  id: string
  /** The charge as last read, so the first poll is not a second request for the same thing. */
  initial?: Charge
  clock: WaitClock
}

/** The charge as the wait left it, and the error to report after printing it when the wait failed. */
export interface ChargeWaitResult {
  charge: Charge
  failure?: WaitError
}

export async function runChargeWait(opts: ChargeWaitOptions): Promise<ChargeWaitResult> {
  const { io, getCharge, wait } = opts
  const start = { id: opts.id, initial: opts.initial }
  const paint = painter(io.colorErr)
  const label = (c?: Charge) => `Waiting for ${paint('bold', wait.until)} (up to ${wait.timeoutText})${c ? ` · ${c.id} is ${paintStatus(paint, c.status)}` : ''}`
  const spinner = createSpinner(io, label(start.initial))
  let outcome: WaitOutcome
  try {
    outcome = await waitForStatus({ getCharge, id: start.id, until: wait.until, timeoutMs: wait.timeoutMs, initial: start.initial, clock: opts.clock, onPoll: (c) => spinner.update(label(c)) })
  } finally {
    spinner.stop()
  }
  if (outcome.reached && io.isStderrTTY) io.err(`${paint('green', '✓')} ${outcome.charge.id} is ${paintStatus(paint, outcome.charge.status)}\n`)
  return outcome.reached ? { charge: outcome.charge } : { charge: outcome.charge, failure: waitError(outcome, wait.until, wait.timeoutText) }
}

/** The exit-8 error for an outcome that did not reach its state. */
export function waitError(outcome: Extract<WaitOutcome, { reached: false }>, until: ChargeStatus, timeoutText: string): WaitError {
  const { charge } = outcome
  if (outcome.reason === 'ended') {
    return new WaitError(`Charge ${charge.id} is ${charge.status}: it can no longer become ${until}.`)
  }
  return new WaitError(
    `Timed out after ${timeoutText} waiting for charge ${charge.id} to become ${until}; it is ${charge.status}.`,
    `Wait longer with --wait-timeout, or check it later with \`svc charges get ${charge.id}\`.`,
  )
}
