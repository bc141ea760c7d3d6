import { Args, Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { quietFlag } from '../../lib/command-kit/base.js'
import { withFlags } from '../../lib/command-kit/operator-flags.js'
import { advanceCharge } from '../../lib/services/advance-charge.js'
import { assertChargeId } from '../../lib/charges/charge-id.js'
import { ADVANCE_TARGETS } from '../../lib/domain/charge-states.js'
import { chargeFieldLines, renderChargeView } from '../../lib/output/charge-view.js'
import type { Charge } from '../../lib/contract/schemas.js'
import { painter } from '../../lib/output/color.js'
import type { IO } from '../../lib/output/io.js'

export default class TestAdvance extends ApiCommand<typeof TestAdvance, Charge> {
  static override summary = 'Move a test charge to a new state (sandbox only, no money moves).'
  static override description =
    'Calls the sandbox advance operation, which follows the same state machine as production: a backwards move ' +
    'exits 5 (invalid_transition). Works only with a svc_test_ key: with a live key it exits 3 before sending ' +
    'anything. Shows the new status and the settlement fields (paidAt, estimatedAt, settledAt, blockchainTxId).'

  static override examples = [
    '<%= config.bin %> test advance 6650a1b2c3d4e5f60718293a --status paid_pending_settlement',
    '<%= config.bin %> test advance 6650a1b2c3d4e5f60718293a --status settled --json | jq .settlement.blockchainTxId',
    '<%= config.bin %> charges create --amount 1500 -q | xargs -I{} <%= config.bin %> test advance {} --status expired',
    'id=$(<%= config.bin %> test advance 6650a1b2c3d4e5f60718293a --status paid_pending_settlement -q)',
  ]

  static override args = {
    id: Args.string({ description: 'Id of a test charge (24 hexadecimal characters).', required: true, ignoreStdin: true }),
  }

  static override flags = {
    status: Flags.string({ description: 'The state to move the charge to.', options: ADVANCE_TARGETS, required: true }),
    quiet: quietFlag('the charge id'),
  }

  async run(): Promise<Charge> {
    const id = assertChargeId(this.args.id)
    const credentials = await this.credentials()
    return withFlags(`Give --status as one of: ${ADVANCE_TARGETS.join(', ')}.`, () => advanceCharge(() => this.client(), credentials, id, this.flags.status))
  }

  protected override async render(charge: Charge, io: IO): Promise<void> {
    if (this.flags.quiet) return io.out(`${charge.id}\n`)
    if (!io.isStdoutTTY) return io.out(chargeFieldLines(charge))
    const now = (await this.client()).serverNow()
    io.out(renderChargeView(charge, { paint: painter(io.color), headline: `Charge moved to ${charge.status}`, now }))
  }
}
