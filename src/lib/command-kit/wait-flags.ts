/** `--wait STATE [--wait-timeout D]`, the flags of `charges create` and `charges get` (parsed by charges/wait.ts). */
import { Flags } from '@oclif/core'
import { CHARGE_STATUSES } from '../domain/charge-states.js'

export const waitFlags = {
  wait: Flags.string({
    description: 'Poll until the charge is in this state (exit 8 if it ends in another state or the wait times out).',
    options: CHARGE_STATUSES,
    helpValue: 'STATE',
  }),
  'wait-timeout': Flags.string({ description: 'How long --wait may take, e.g. 90s, 10m, 1h.', default: '10m', helpValue: 'DURATION' }),
}
