import { Args } from '@oclif/core'
import { UsageError } from '../../../lib/errors.js'
import { painter } from '../../../lib/output/color.js'
import { isHttpUrl } from '../../../lib/contract/url.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelWebhookEndpoint } from '../../../lib/sandbox-client/panel-client.js'

export default class SandboxWebhookSet extends PanelCommand<typeof SandboxWebhookSet, PanelWebhookEndpoint> {
  static override summary = 'Set the webhook URL of a sandbox environment (saving it again reactivates it).'
  static override description =
    "What the panel's API > Webhook page does, for the local sandbox: every event of the environment is POSTed to this URL, " +
    'signed with the webhook secret. An endpoint with no successful delivery for 24 h is deactivated; saving its URL again ' +
    '(even the same one) reactivates it. `svc webhooks listen` does this by itself.'

  static override examples = [
    '<%= config.bin %> sandbox webhook set http://127.0.0.1:3000/webhooks',
    '<%= config.bin %> sandbox webhook set https://example.test/hooks --env live',
    '<%= config.bin %> sandbox webhook set http://localhost:4242/ --json',
  ]

  static override args = { url: Args.string({ description: 'http:// or https:// URL that receives the deliveries.', required: true }) }
  static override flags = { env: envFlag }

  async run(): Promise<PanelWebhookEndpoint> {
    const url = this.args.url
    if (!isHttpUrl(url)) throw new UsageError(`URL must be an absolute http:// or https:// URL, not "${url}".`, { field: 'url' })
    return (await this.panel()).setWebhook(url, this.envChoice())
  }

  protected override async render(endpoint: PanelWebhookEndpoint, io: IO): Promise<void> {
    if (!io.isStdoutTTY) return io.out(`${endpoint.url}\n`)
    const paint = painter(io.color)
    io.out(`${await this.badge('out', endpoint.environment)} Webhook URL set: ${paint('bold', endpoint.url)} ${paint('green', '(active)')}\n`)
  }
}
