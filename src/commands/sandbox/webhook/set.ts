import { Args } from '@oclif/core'
import { UsageError } from '../../../lib/errors.js'
import { painter } from '../../../lib/output/color.js'
import { isHttpUrl } from '../../../lib/net/url.js'
import { envFlag, PanelCommand } from '../../../lib/command/sandbox-panel.js'

export default class SandboxWebhookSet extends PanelCommand<typeof SandboxWebhookSet> {
  static override summary = 'Set the webhook URL of a sandbox environment (saving it again reactivates it).'
  static override description =
    'What the panel\'s API > Webhook page does, for the local sandbox: every event of the environment is POSTed to this URL, ' +
    'signed with the webhook secret. An endpoint with no successful delivery for 24 h is deactivated; saving its URL again ' +
    '(even the same one) reactivates it. `svc webhooks listen` does this by itself.'

  static override examples = [
    '<%= config.bin %> sandbox webhook set http://127.0.0.1:3000/webhooks',
    '<%= config.bin %> sandbox webhook set https://example.test/hooks --env live',
    '<%= config.bin %> sandbox webhook set http://localhost:4242/ --json',
  ]

  static override args = { url: Args.string({ description: 'http:// or https:// URL that receives the deliveries.', required: true }) }
  static override flags = { env: envFlag }

  async run(): Promise<void> {
    const url = this.args.url
    if (!isHttpUrl(url)) throw new UsageError(`URL must be an absolute http:// or https:// URL, not "${url}".`, { field: 'url' })
    const endpoint = await (await this.panel()).setWebhook(url, this.envChoice())
    if (this.flags.json) return this.printJson(endpoint)
    if (!this.io.isStdoutTTY) return this.io.out(`${endpoint.url}\n`)
    const paint = painter(this.io.color)
    this.io.out(`${await this.badge('out', endpoint.environment)} Webhook URL set: ${paint('bold', endpoint.url)} ${paint('green', '(active)')}\n`)
  }
}
