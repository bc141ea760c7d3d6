import { Args } from '@oclif/core'
import { painter } from '../../../lib/output/color.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { quietFlag } from '../../../lib/command-kit/base.js'
import type { IO } from '../../../lib/output/io.js'

export default class SandboxDeliveriesResend extends PanelCommand<typeof SandboxDeliveriesResend, { eventId: string }> {
  static override summary = 'Send a webhook delivery again, with the same event id.'
  static override description =
    "Like the panel's resend button: the same event id and body, a fresh X-SVC-Timestamp and signature, counted as one more " +
    'attempt in the delivery log. It goes out even when the endpoint is deactivated. Your handler should deduplicate by event id. ' +
    'Acts on the environment of the key (or --env). Exit 4 when that environment has no delivery of the event, like ' +
    '`svc sandbox deliveries --event-id`.'

  static override examples = ['<%= config.bin %> sandbox deliveries resend evt_3f2a9c01d4e5b6a7c8d9e0f1', '<%= config.bin %> sandbox deliveries resend evt_3f2a9c01d4e5b6a7c8d9e0f1 --env live --json']

  static override args = { eventId: Args.string({ description: 'Id of the event whose delivery to send again.', required: true }) }
  static override flags = { env: envFlag, quiet: quietFlag('the event id (as piped)') }

  async run(): Promise<{ eventId: string }> {
    return (await this.panel()).resendDelivery(this.args.eventId, this.envChoice())
  }

  protected override render(result: { eventId: string }, io: IO): void {
    if (this.flags.quiet || !io.isStdoutTTY) return io.out(`${result.eventId}\n`)
    const paint = painter(io.color)
    io.out(`Resending ${paint('bold', result.eventId)} (same event id, fresh signature).\n`)
    this.note(paint('dim', `See the outcome with \`svc sandbox deliveries --event-id ${result.eventId}\`.`))
  }
}
