import { painter } from '../../../lib/output/color.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelKey } from '../../../lib/sandbox-client/panel-client.js'

export default class SandboxKeysCreate extends PanelCommand<typeof SandboxKeysCreate, PanelKey> {
  static override summary = 'Create another API key in the sandbox (shown in full this once).'
  static override description =
    'A new svc_test_ or svc_live_ key for the local sandbox, e.g. to try a key rotation. This is the only time the key is ' +
    'printed in full; `keys list` shows it masked. Piped, only the key is printed, so it can go straight into a variable.'

  static override examples = ['<%= config.bin %> sandbox keys create --env test', 'NEW_KEY=$(<%= config.bin %> sandbox keys create --env live)', '<%= config.bin %> sandbox keys create --json']

  static override flags = { env: envFlag }

  async run(): Promise<PanelKey> {
    return (await this.panel()).createKey(this.envChoice())
  }

  protected override async render(key: PanelKey, io: IO): Promise<void> {
    if (!io.isStdoutTTY) return io.out(`${key.key}\n`)
    const paint = painter(io.color)
    io.out(`${await this.badge('out', key.environment)} New key: ${paint('bold', key.key)}\n`)
    this.note(paint('dim', 'Copy it now: it is not shown in full again. Use it with --api-key, SVC_API_KEY or `svc login --with-key-stdin`.'))
  }
}
