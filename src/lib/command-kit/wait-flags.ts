/** `--wait STATE [--wait-timeout D]`, the flags of `charges create` and `charges get`, and their reading into the typed wait (charges/wait.ts). */
import { Flags } from '@oclif/core'
import { CHARGE_STATUSES, type ChargeStatus } from '../domain/charge-states.js'
import { parseDuration } from '../domain/time.js'
import { UsageError } from '../errors.js'
import type { ChargeWait } from '../services/wait-charge.js'

export const waitFlags = {
  wait: Flags.string({
    description: 'Poll until the charge is in this state (exit 8 if it ends in another state or the wait times out).',
    options: CHARGE_STATUSES,
    helpValue: 'STATE',
  }),
  'wait-timeout': Flags.string({ description: 'How long --wait may take, e.g. 90s, 10m, 1h.', default: '10m', helpValue: 'DURATION' }),
}

/** The typed wait of `--wait STATE [--wait-timeout D]`, or undefined without --wait; a bad --wait-timeout is a usage error (exit 2) even then, before any request. */
export function waitInputFromFlags(flags: { wait?: string; 'wait-timeout'?: string }): ChargeWait | undefined {
  const text = flags['wait-timeout'] ?? '10m'
  const timeoutMs = parseDuration(text)
  if (timeoutMs === undefined || timeoutMs <= 0) {
    throw new UsageError(`Invalid --wait-timeout; nothing was sent.`, {
      details: [{ field: '--wait-timeout', message: `"${text}" is not a duration such as 90s, 10m or 1h` }],
    })
  }
  if (!flags.wait) return undefined
  return { until: flags.wait as ChargeStatus, timeoutMs, timeoutText: text }
}
