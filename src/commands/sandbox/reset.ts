import { Flags } from '@oclif/core'
import { PanelCommand } from '../../lib/command-kit/sandbox-panel.js'
import { sandboxTarget, sandboxTargetFlags } from '../../lib/command-kit/sandbox-target.js'
import { promptConfirm } from '../../lib/input/prompt.js'
import { runSandboxReset, type SandboxResetResult } from '../../lib/services/sandbox-reset.js'
import { provenRunState } from '../../lib/sandbox-client/runfile.js'

export default class SandboxReset extends PanelCommand<typeof SandboxReset, SandboxResetResult> {
  static override summary = "Empty the local sandbox's data, keeping its keys and webhook secret."
  static override description =
    'Deletes every charge, event, delivery, withdrawal and product sale, and the pending expiries, settlements and retries. ' +
    'The merchant, its API keys and webhook secret, the plan, the webhook URLs and the clock stay, so profiles and your ' +
    "app's configuration keep working. A running sandbox is reset in place (through its panel, with the `sandbox` profile's " +
    'key); a stopped one is reset on disk. Asks first on a terminal; without a terminal pass --yes (else exit 2).'

  static override examples = ['<%= config.bin %> sandbox reset', '<%= config.bin %> sandbox reset --yes', '<%= config.bin %> sandbox reset --data ./.sandbox --yes']

  static override flags = {
    ...sandboxTargetFlags,
    yes: Flags.boolean({ char: 'y', description: 'Do not ask for confirmation.' }),
  }

  async run(): Promise<SandboxResetResult> {
    const target = sandboxTarget(this.flags, this.io.env)
    return runSandboxReset({
      target,
      state: await provenRunState(target.dir),
      yes: this.flags.yes,
      canPrompt: this.io.canPrompt,
      confirm: (question) => promptConfirm(this.io, question),
      panel: async () => {
        const panel = await this.panel()
        return { baseUrl: (await this.credentials()).baseUrl, reset: () => panel.reset() }
      },
    })
  }

  protected override toJson(r: SandboxResetResult): unknown {
    return r.reset ? { reset: true, running: r.running } : undefined
  }

  protected override render(r: SandboxResetResult): void {
    if (!r.reset) return this.note('Nothing was reset.')
    this.note(`Reset ${r.where}: charges, events, deliveries, withdrawals and sales emptied; keys, secret, plan and webhook URLs kept.`)
  }
}
