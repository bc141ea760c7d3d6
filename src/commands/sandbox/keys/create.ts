import { painter } from '../../../lib/output/color.js'
import { envFlag, PanelCommand } from '../../../lib/command/sandbox-panel.js'

export default class SandboxKeysCreate extends PanelCommand<typeof SandboxKeysCreate> {
  static override summary = 'Create another API key in the sandbox (shown in full this once).'
  static override description =
    'A new svc_test_ or svc_live_ key for the local sandbox, e.g. to try a key rotation. This is the only time the key is ' +
    'printed in full; `keys list` shows it masked. Piped, only the key is printed, so it can go straight into a variable.'

  static override examples = [
    '<%= config.bin %> sandbox keys create --env test',
    'NEW_KEY=$(<%= config.bin %> sandbox keys create --env live)',
    '<%= config.bin %> sandbox keys create --json',
  ]

  static override flags = { env: envFlag }

  async run(): Promise<void> {
    const key = await (await this.panel()).createKey(this.envChoice())
    if (this.flags.json) return this.printJson(key)
    if (!this.io.isStdoutTTY) return this.io.out(`${key.key}\n`)
    const paint = painter(this.io.color)
    this.io.out(`${await this.badge('out', key.environment)} New key: ${paint('bold', key.key)}\n`)
    this.note(paint('dim', 'Copy it now: it is not shown in full again. Use it with --api-key, SVC_API_KEY or `svc login --with-key-stdin`.'))
  }
}
