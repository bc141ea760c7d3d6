import { painter } from '../../../lib/output/color.js'
import type { PanelAccountSettings } from '../../../lib/sandbox-client/panel-client.js'
import { PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { settingsLines, settingsView } from '../../../lib/sandbox-client/panel-view.js'
import type { IO } from '../../../lib/output/io.js'

export default class SandboxAccountShow extends PanelCommand<typeof SandboxAccountShow, PanelAccountSettings> {
  static override summary = "Show the sandbox merchant's plan and account state: fees, settlement hold, activation, block, QR validity."
  static override description =
    'The settings `svc sandbox account set` changes, as they are now. Labelled on a terminal, `field<TAB>value` lines when ' + 'piped (the same fields as --json), the settings object with --json.'

  static override examples = ['<%= config.bin %> sandbox account show', '<%= config.bin %> sandbox account show --json | jq .feeBps', '<%= config.bin %> sandbox account show | grep ^blocked']

  async run(): Promise<PanelAccountSettings> {
    return (await this.panel()).getAccount()
  }

  protected override render(settings: PanelAccountSettings, io: IO): void {
    if (!io.isStdoutTTY) return io.out(settingsLines(settings))
    const paint = painter(io.color)
    io.out(`${paint('bold', 'Sandbox account')}\n${settingsView(settings, paint)}`)
  }
}
