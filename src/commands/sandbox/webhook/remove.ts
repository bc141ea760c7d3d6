import { envFlag, PanelCommand } from '../../../lib/command/sandbox-panel.js'

export default class SandboxWebhookRemove extends PanelCommand<typeof SandboxWebhookRemove> {
  static override summary = 'Remove the webhook URL of a sandbox environment: its events are no longer delivered.'
  static override description =
    'As if no URL had ever been set: later events of the environment are logged but not sent. Deliveries already pending keep ' +
    'their retries. Exits 4 when the environment has no URL. `svc webhooks listen` does this by itself on a clean stop when ' +
    'there was no URL before it.'

  static override examples = ['<%= config.bin %> sandbox webhook remove', '<%= config.bin %> sandbox webhook remove --env live']

  static override flags = { env: envFlag }

  async run(): Promise<void> {
    const r = await (await this.panel()).removeWebhook(this.envChoice())
    if (this.flags.json) return this.printJson(r)
    this.note(`${await this.badge('err', r.environment)} Webhook URL removed: events of ${r.environment} are no longer delivered.`)
  }
}
