import { Args } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { quietFlag } from '../../lib/command-kit/base.js'
import { UsageError } from '../../lib/errors.js'
import type { Withdrawal } from '../../lib/contract/withdrawals.js'
import { painter } from '../../lib/output/color.js'
import type { IO } from '../../lib/output/io.js'
import { renderWithdrawalView, withdrawalFieldLines } from '../../lib/output/withdrawal-view.js'

export default class WithdrawalsGet extends ApiCommand<typeof WithdrawalsGet, Withdrawal> {
  static override summary = 'Show one withdrawal: status, amount, the Pix key paid and, once paid, its end-to-end id.'
  static override description =
    'Reads GET /v1/withdrawals/{id}. On a terminal: labelled fields with R$ amounts and local times. Piped: one ' +
    '`field<TAB>value` line per field with the raw API values. --json: the API object. A withdrawal of the other ' +
    'environment, or none, exits 4. In the sandbox, start one with `svc trigger withdrawal.paid`.'

  static override examples = [
    '<%= config.bin %> withdrawals get 01a20e83549f57bd65470178',
    '<%= config.bin %> withdrawals get 01a20e83549f57bd65470178 --json | jq -r .pix.endToEndId',
    '<%= config.bin %> trigger withdrawal.paid --json | jq -r .resources[0].id | xargs <%= config.bin %> withdrawals get',
  ]

  static override args = {
    id: Args.string({ description: 'Withdrawal id (24 hexadecimal characters).', required: true }),
  }

  static override flags = { quiet: quietFlag('the withdrawal id') }

  async run(): Promise<Withdrawal> {
    const id = this.args.id.trim()
    if (!/^[0-9a-f]{24}$/.test(id)) throw new UsageError(`ID must be 24 hexadecimal characters (lowercase), not ${JSON.stringify(this.args.id)}.`, { field: 'id' })
    return (await this.client()).getWithdrawal(id)
  }

  protected override async render(w: Withdrawal, io: IO): Promise<void> {
    if (this.flags.quiet) return io.out(`${w.id}\n`)
    if (!io.isStdoutTTY) return io.out(withdrawalFieldLines(w))
    io.out(renderWithdrawalView(w, { paint: painter(io.color), now: (await this.client()).serverNow() }))
  }
}
