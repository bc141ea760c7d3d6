import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Flags } from '@oclif/core'
import { PanelCommand } from '../../lib/command/sandbox-panel.js'
import { sandboxTarget, sandboxTargetFlags } from '../../lib/command/sandbox-target.js'
import { UsageError } from '../../lib/errors.js'
import { promptConfirm } from '../../lib/output/prompt.js'
import { probeSandbox } from '../../lib/sandbox-client/client.js'
import { runState } from '../../lib/services/sandbox-runfile.js'

export default class SandboxReset extends PanelCommand<typeof SandboxReset> {
  static override summary = 'Empty the local sandbox\'s data, keeping its keys and webhook secret.'
  static override description =
    'Deletes every charge, event, delivery, withdrawal and product sale, and the pending expiries, settlements and retries. ' +
    'The merchant, its API keys and webhook secret, the plan, the webhook URLs and the clock stay, so profiles and your ' +
    'app\'s configuration keep working. A running sandbox is reset in place (through its panel, with the `sandbox` profile\'s ' +
    'key); a stopped one is reset on disk. Asks first on a terminal; without a terminal pass --yes (else exit 2).'

  static override examples = ['<%= config.bin %> sandbox reset', '<%= config.bin %> sandbox reset --yes', '<%= config.bin %> sandbox reset --data ./.sandbox --yes']

  static override flags = {
    ...sandboxTargetFlags,
    yes: Flags.boolean({ char: 'y', description: 'Do not ask for confirmation.' }),
  }

  async run(): Promise<void> {
    const target = sandboxTarget(this.flags, this.io.env)
    const state = await runState(target.dir, { clean: true, probe: (url) => probeSandbox(url) })
    const where = state.kind === 'running' ? `the sandbox at ${state.info.baseUrl}` : target.inMemory ? '' : `the sandbox data in ${target.dataDir}`
    if (state.kind !== 'running' && target.inMemory) {
      throw new UsageError('No in-memory sandbox is running: there is nothing to reset (its data goes when it stops).', { field: 'in-memory' })
    }
    if (state.kind !== 'running' && !existsSync(join(target.dataDir!, 'sandbox.db'))) {
      throw new UsageError(`No sandbox data in ${target.dataDir}: nothing to reset.`, { field: 'data', hint: 'Name the data dir the sandbox uses with --data DIR.' })
    }
    if (!this.flags.yes) {
      if (!this.io.canPrompt) throw new UsageError(`Resetting empties ${where}: pass --yes to confirm (no terminal to ask on).`, { field: 'yes' })
      if (!(await promptConfirm(this.io, `Empty ${where} (charges, events, deliveries)? Keys and secret stay.`))) {
        this.note('Nothing was reset.')
        return
      }
    }
    if (state.kind === 'running') {
      const panel = await this.panel()
      const { baseUrl } = await this.credentials()
      if (baseUrl.replace(/\/+$/, '') !== state.info.baseUrl) {
        throw new UsageError(`The sandbox profile points at ${baseUrl}, but the running sandbox is at ${state.info.baseUrl}.`, {
          hint: `Pass --base-url ${state.info.baseUrl} with one of its keys (SVC_API_KEY), or restart it so it writes the profiles again.`,
        })
      }
      await panel.reset()
    } else {
      const { resetDataDir } = await import('../../lib/sandbox/sandbox.js')
      resetDataDir(target.dataDir!)
    }
    if (this.flags.json) return this.printJson({ reset: true, running: state.kind === 'running' })
    this.note(`Reset ${where}: charges, events, deliveries, withdrawals and sales emptied; keys, secret, plan and webhook URLs kept.`)
  }
}
