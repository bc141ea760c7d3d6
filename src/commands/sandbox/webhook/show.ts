import { painter } from '../../../lib/output/color.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { endpointLines, endpointView } from '../../../lib/sandbox-client/panel-view.js'
import type { IO } from '../../../lib/output/io.js'
import type { NoWebhookEndpoint, PanelWebhookEndpoint } from '../../../lib/sandbox-client/panel-client.js'

export default class SandboxWebhookShow extends PanelCommand<typeof SandboxWebhookShow, PanelWebhookEndpoint | NoWebhookEndpoint> {
  static override summary = 'Show the webhook URL of a sandbox environment and whether it is active.'
  static override description =
    'The URL the sandbox delivers to, whether it is active or was deactivated after 24 h without a successful delivery, and ' +
    'when a delivery last succeeded. Piped: `key<TAB>value` lines. Exit 4 when no URL is set for the environment.'

  static override examples = ['<%= config.bin %> sandbox webhook show', '<%= config.bin %> sandbox webhook show --env live --json', '<%= config.bin %> sandbox webhook show | grep -q "active\ttrue"']

  static override flags = { env: envFlag }

  /** `show` exits 4 while no URL is set (for scripts); the bare `svc sandbox webhook` shows "none set". */
  protected noUrlIsAnAnswer = false

  async run(): Promise<PanelWebhookEndpoint | NoWebhookEndpoint> {
    const panel = await this.panel()
    return this.noUrlIsAnAnswer ? panel.findWebhook(this.envChoice()) : panel.getWebhook(this.envChoice())
  }

  protected override async render(endpoint: PanelWebhookEndpoint | NoWebhookEndpoint, io: IO): Promise<void> {
    if (!io.isStdoutTTY) return io.out(endpointLines(endpoint))
    const paint = painter(io.color)
    io.out(`${await this.badge('out', endpoint.environment)} ${paint('bold', 'Webhook endpoint')}\n${endpointView(endpoint, paint)}`)
  }
}
