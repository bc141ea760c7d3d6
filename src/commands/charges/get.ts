import { Args } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { quietFlag } from '../../lib/command-kit/base.js'
import { assertChargeId } from '../../lib/charges/charge-id.js'
import { waitFlags, waitInputFromFlags } from '../../lib/command-kit/wait-flags.js'
import { runChargeWait } from '../../lib/services/wait-charge.js'
import type { Charge } from '../../lib/contract/schemas.js'
import { chargeFieldLines, renderChargeView } from '../../lib/output/charge-view.js'
import { painter } from '../../lib/output/color.js'
import type { IO } from '../../lib/output/io.js'
import { renderQr } from '../../lib/output/qr.js'

export default class ChargesGet extends ApiCommand<typeof ChargesGet, Charge> {
  static override summary = 'Show one charge, read from the service (the authority on its state).'
  static override description =
    'On a terminal: status, gross/fee/net, expiry, settlement and, while it awaits payment, the QR. Piped: one ' +
    '`field<TAB>value` line per field with the raw API values (centavos, RFC 3339). --wait STATE polls every second ' +
    'until the charge is in STATE; exit 8 if it ends in another state or the wait times out.'

  static override examples = [
    '<%= config.bin %> charges get 6650a1b2c3d4e5f60718293a',
    '<%= config.bin %> charges get 6650a1b2c3d4e5f60718293a --json | jq .settlement',
    '<%= config.bin %> charges get "$id" --wait settled --wait-timeout 2h && release-order "$id"',
    '<%= config.bin %> charges get "$id" | grep ^status | cut -f2',
  ]

  static override args = {
    id: Args.string({ description: 'Charge id (24 hexadecimal characters).', required: true, ignoreStdin: true }),
  }

  static override flags = { ...waitFlags, quiet: quietFlag('the charge id (with --wait: once it is in the state)') }

  async run(): Promise<Charge> {
    const id = assertChargeId(this.args.id)
    const wait = waitInputFromFlags(this.flags)
    const client = await this.client()
    const charge: Charge = await client.getCharge(id)
    if (!wait) return charge
    const waited = await runChargeWait({ io: this.io, clock: this.factory.clock, getCharge: (i) => client.getCharge(i), wait, id, initial: charge })
    if (waited.failure) this.failAfterOutput(waited.failure)
    return waited.charge
  }

  protected override async render(charge: Charge, io: IO): Promise<void> {
    if (this.flags.quiet) return io.out(`${charge.id}\n`)
    if (!io.isStdoutTTY) return io.out(chargeFieldLines(charge))
    const qr = charge.status === 'awaiting_payment' ? await renderQr(charge.pix.qrCode, { color: io.color }) : undefined
    io.out(renderChargeView(charge, { paint: painter(io.color), qr, now: (await this.client()).serverNow() }))
  }
}
