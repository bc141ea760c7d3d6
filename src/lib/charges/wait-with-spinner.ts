/**
 * Runs a `--wait` with its terminal feedback: a spinner on stderr (terminal only) that shows
 * the charge's current state, and a closing line on stderr when the state is reached.
 */
import type { Charge } from '../contract/schemas.js'
import { painter } from '../output/color.js'
import { paintStatus } from '../output/charge-view.js'
import type { IO } from '../output/io.js'
import { createSpinner } from '../output/spinner.js'
import type { WaitRequest } from './wait-flags.js'
import { type WaitOutcome, waitForStatus } from './wait.js'

export async function waitWithSpinner(
  io: IO,
  getCharge: (id: string) => Promise<Charge>,
  wait: WaitRequest,
  start: { id: string; initial?: Charge },
): Promise<WaitOutcome> {
  const paint = painter(io.colorErr)
  const label = (c?: Charge) => `Waiting for ${paint('bold', wait.target)} (up to ${wait.timeoutText})${c ? ` · ${c.id} is ${paintStatus(paint, c.status)}` : ''}`
  const spinner = createSpinner(io, label(start.initial))
  let outcome: WaitOutcome
  try {
    outcome = await waitForStatus({ getCharge, id: start.id, target: wait.target, timeoutMs: wait.timeoutMs, initial: start.initial, onPoll: (c) => spinner.update(label(c)) })
  } finally {
    spinner.stop()
  }
  if (outcome.reached && io.isStderrTTY) io.err(`${paint('green', '✓')} ${outcome.charge.id} is ${paintStatus(paint, outcome.charge.status)}\n`)
  return outcome
}
