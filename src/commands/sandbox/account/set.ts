import { Flags } from '@oclif/core'
import { parseDuration } from '../../../lib/domain/time.js'
import { UsageError } from '../../../lib/errors.js'
import { painter } from '../../../lib/output/color.js'
import type { PanelAccountPatch, PanelAccountSettings } from '../../../lib/sandbox-client/panel-client.js'
import { PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { settingsLines, settingsView } from '../../../lib/sandbox-client/panel-view.js'
import type { IO } from '../../../lib/output/io.js'

const bool = (description: string) => Flags.string({ description, options: ['true', 'false'] })

export default class SandboxAccountSet extends PanelCommand<typeof SandboxAccountSet, PanelAccountSettings> {
  static override summary = "Change the sandbox merchant's plan and account state: fees, settlement hold, activation, block."
  static override description =
    'What the real service changes when the merchant switches plan or support acts on the account. Fees apply to charges ' +
    'created afterwards and to `svc account`; the hold applies to charges paid afterwards. --hold-settlements keeps paid charges waiting past their settlement estimate (`svc test advance ID --status settled` still settles one), so `svc charges list --overdue` and `svc status` can be rehearsed. --activated false answers charge ' +
    'creation 403 merchant_not_activated, --blocked true 403 charge_blocked. Prints the resulting settings.'

  static override examples = [
    '<%= config.bin %> sandbox account set --fee-bps 250 --fee-fixed 0',
    '<%= config.bin %> sandbox account set --hold-hours 1',
    '<%= config.bin %> sandbox account set --activated false',
    '<%= config.bin %> sandbox account set --blocked true --json',
    '<%= config.bin %> sandbox account set --hold-settlements   # paid charges wait: rehearse late settlements',
  ]

  static override flags = {
    'fee-bps': Flags.integer({ description: 'Percentage fee of the plan in basis points (199 = 1,99%).', min: 0, max: 10_000, helpValue: 'N' }),
    'fee-fixed': Flags.integer({ description: 'Fixed fee per charge in centavos.', min: 0, max: 100_000, helpValue: 'N' }),
    'hold-hours': Flags.integer({ description: 'Settlement hold after payment, in hours.', min: 0, max: 2160, helpValue: 'N' }),
    activated: bool('Whether the merchant is cleared to charge.'),
    blocked: bool('Whether charging is blocked for the merchant.'),
    'merchant-id-present': bool('Whether the account has a merchant id (false: 403 missing_merchant_id).'),
    'qr-validity': Flags.string({ description: "How long a new charge's QR stays payable, e.g. 15m, 1h.", helpValue: 'DURATION' }),
    'hold-settlements': Flags.boolean({
      description:
        'Keep paid charges in paid_pending_settlement past their estimatedAt (rehearse late settlements); --no-hold-settlements settles the waiting ones at once, dated at the release (settledAt, updatedAt and charge.settled show when they really settled, late).',
      allowNo: true,
    }),
  }

  async run(): Promise<PanelAccountSettings> {
    const patch = toPatch(this.flags)
    if (Object.keys(patch).length === 0) {
      throw new UsageError('Nothing to change.', { hint: 'Pass at least one of --fee-bps, --fee-fixed, --hold-hours, --activated, --blocked, --qr-validity, --hold-settlements.' })
    }
    return (await this.panel()).updateAccount(patch)
  }

  protected override render(settings: PanelAccountSettings, io: IO): void {
    if (!io.isStdoutTTY) return io.out(settingsLines(settings))
    const paint = painter(io.color)
    io.out(`${paint('bold', 'Sandbox account updated')}\n${settingsView(settings, paint)}`)
  }
}

function toPatch(flags: SandboxAccountSet['flags']): PanelAccountPatch {
  const patch: PanelAccountPatch & { merchantIdPresent?: boolean } = {}
  if (flags['fee-bps'] !== undefined) patch.feeBps = flags['fee-bps']
  if (flags['fee-fixed'] !== undefined) patch.feeFixedInCents = flags['fee-fixed']
  if (flags['hold-hours'] !== undefined) patch.settlementDelayHours = flags['hold-hours']
  if (flags.activated !== undefined) patch.activated = flags.activated === 'true'
  if (flags.blocked !== undefined) patch.blocked = flags.blocked === 'true'
  if (flags['hold-settlements'] !== undefined) patch.holdSettlements = flags['hold-settlements']
  if (flags['merchant-id-present'] !== undefined) patch.merchantIdPresent = flags['merchant-id-present'] === 'true'
  if (flags['qr-validity'] !== undefined) {
    const ms = parseDuration(flags['qr-validity'])
    if (ms === undefined || ms < 1000 || ms % 1000 !== 0) {
      throw new UsageError(`--qr-validity must be a whole number of seconds as a duration such as 15m or 1h, not "${flags['qr-validity']}".`, { field: 'qr-validity' })
    }
    patch.qrValiditySeconds = ms / 1000
  }
  return patch
}
