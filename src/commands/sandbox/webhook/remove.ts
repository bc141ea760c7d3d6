import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import type { PanelClient } from '../../../lib/sandbox-client/panel-client.js'

type Removed = Awaited<ReturnType<PanelClient['removeWebhook']>>

export default class SandboxWebhookRemove extends PanelCommand<typeof SandboxWebhookRemove, Removed> {
  static override summary = 'Remove the webhook URL of a sandbox environment: its events are no longer delivered.'
  static override description =
    'As if no URL had ever been set: later events of the environment are logged but not sent. Deliveries already pending keep ' +
    'their retries. Exits 4 when the environment has no URL. `svc webhooks listen` does this by itself on a clean stop when ' +
    'there was no URL before it.'

  static override examples = ['<%= config.bin %> sandbox webhook remove', '<%= config.bin %> sandbox webhook remove --env live']

  static override flags = { env: envFlag }

  async run(): Promise<Removed> {
    return (await this.panel()).removeWebhook(this.envChoice())
  }

  protected override async render(r: Removed): Promise<void> {
    this.note(`${await this.badge('err', r.environment)} Webhook URL removed: events of ${r.environment} are no longer delivered.`)
  }
}
