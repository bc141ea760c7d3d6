/**
 * `--wait STATE` of `charges create` and `charges get`: polls the charge until it is in STATE,
 * with its terminal feedback: a spinner on stderr (terminal only) that shows the charge's current
 * state, and a closing line on stderr when the state is reached.
 */
import type { WaitRequest } from '../charges/wait-flags.js'
import { type WaitClock, type WaitOutcome, waitForStatus } from '../charges/wait.js'
import type { Charge } from '../contract/schemas.js'
import { painter } from '../output/color.js'
import { paintStatus } from '../output/charge-view.js'
import type { IO } from '../output/io.js'
import { createSpinner } from '../output/spinner.js'

export interface ChargeWaitOptions {
  io: IO
  getCharge: (id: string) => Promise<Charge>
  wait: WaitRequest
  id: string
  /** The charge as last read, so the first poll is not a second request for the same thing. */
  initial?: Charge
  clock?: WaitClock
}

export async function runChargeWait(opts: ChargeWaitOptions): Promise<WaitOutcome> {
  const { io, getCharge, wait } = opts
  const start = { id: opts.id, initial: opts.initial }
  const paint = painter(io.colorErr)
  const label = (c?: Charge) => `Waiting for ${paint('bold', wait.target)} (up to ${wait.timeoutText})${c ? ` · ${c.id} is ${paintStatus(paint, c.status)}` : ''}`
  const spinner = createSpinner(io, label(start.initial))
  let outcome: WaitOutcome
  try {
    outcome = await waitForStatus({ getCharge, id: start.id, target: wait.target, timeoutMs: wait.timeoutMs, initial: start.initial, clock: opts.clock, onPoll: (c) => spinner.update(label(c)) })
  } finally {
    spinner.stop()
  }
  if (outcome.reached && io.isStderrTTY) io.err(`${paint('green', '✓')} ${outcome.charge.id} is ${paintStatus(paint, outcome.charge.status)}\n`)
  return outcome
}
