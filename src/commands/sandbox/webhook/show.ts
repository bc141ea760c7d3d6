import { painter } from '../../../lib/output/color.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { endpointLines, endpointView } from '../../../lib/sandbox-client/views.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelWebhookEndpoint } from '../../../lib/sandbox-client/client.js'

export default class SandboxWebhookShow extends PanelCommand<typeof SandboxWebhookShow, PanelWebhookEndpoint> {
  static override summary = 'Show the webhook URL of a sandbox environment and whether it is active.'
  static override description =
    'The URL the sandbox delivers to, whether it is active or was deactivated after 24 h without a successful delivery, and ' +
    'when a delivery last succeeded. Piped: `key<TAB>value` lines. Exit 4 when no URL is set for the environment.'

  static override examples = ['<%= config.bin %> sandbox webhook show', '<%= config.bin %> sandbox webhook show --env live --json', '<%= config.bin %> sandbox webhook show | grep -q "active\ttrue"']

  static override flags = { env: envFlag }

  async run(): Promise<PanelWebhookEndpoint> {
    return (await this.panel()).getWebhook(this.envChoice())
  }

  protected override async render(endpoint: PanelWebhookEndpoint, io: IO): Promise<void> {
    if (!io.isStdoutTTY) return io.out(endpointLines(endpoint))
    const paint = painter(io.color)
    io.out(`${await this.badge('out', endpoint.environment)} ${paint('bold', 'Webhook endpoint')}\n${endpointView(endpoint, paint)}`)
  }
}
