import { Args } from '@oclif/core'
import { UsageError } from '../../../lib/errors.js'
import { painter } from '../../../lib/output/color.js'
import { readStdinLines } from '../../../lib/input/stdin.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelKey } from '../../../lib/sandbox-client/panel-client.js'

export default class SandboxKeysRevoke extends PanelCommand<typeof SandboxKeysRevoke, PanelKey> {
  static override summary = 'Revoke a sandbox API key: requests with it get 401 revoked_api_key.'
  static override description =
    'KEY is the masked form as `keys list` shows it (svc_test_…a1b2, or with three dots: svc_test_...a1b2) when that names ' +
    'exactly one key; exit 4 when it names none. A full key is refused as an argument (exit 2, nothing sent): keys never go ' +
    'on the command line, where the shell history and the process list keep them. To name a key in full, pass `-` and ' +
    'give it on stdin. The key travels in the request body, never in a URL.'

  static override examples = [
    '<%= config.bin %> sandbox keys revoke svc_test_…a1b2',
    'printf %s "$OLD_KEY" | <%= config.bin %> sandbox keys revoke -',
    '<%= config.bin %> sandbox keys revoke svc_live_…9f3c --env live --json',
  ]

  static override args = { key: Args.string({ description: 'The masked key to revoke (svc_test_…a1b2), or - to read the key (full or masked) from stdin.', required: true }) }
  static override flags = { env: envFlag }

  async run(): Promise<PanelKey> {
    let key = this.args.key
    if (key !== '-' && !/…|\.\.\./.test(key)) {
      throw new UsageError('A full API key on the command line is refused: the shell history and the process list would keep it. Nothing was sent.', {
        field: 'key',
        hint: 'Pass its masked form as `svc sandbox keys list` shows it (svc_test_…a1b2 or svc_test_...a1b2), or `-` and the key on stdin: printf %s "$OLD_KEY" | svc sandbox keys revoke -',
      })
    }
    if (key === '-') {
      const lines = await readStdinLines(this.io.stdin)
      if (lines.length !== 1) throw new UsageError(`Expected exactly one key on stdin, got ${lines.length}.`, { field: 'key' })
      key = lines[0]!
    }
    return (await this.panel()).revokeKey(key, this.envChoice())
  }

  protected override async render(revoked: PanelKey, io: IO): Promise<void> {
    if (!io.isStdoutTTY) return io.out(`${revoked.key}\trevoked\n`)
    const paint = painter(io.color)
    io.out(`${await this.badge('out', revoked.environment)} Revoked ${paint('bold', revoked.key)}\n`)
  }
}
