import { ApiCommand } from '../../lib/command-kit/api.js'
import { quietFlag } from '../../lib/command-kit/base.js'
import { ApiError } from '../../lib/errors.js'
import { painter } from '../../lib/output/color.js'
import type { IO } from '../../lib/output/io.js'
import { sendTestWebhook } from '../../lib/services/test-webhook.js'

const LOOPBACK = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i

export default class WebhooksTest extends ApiCommand<typeof WebhooksTest, { eventId: string }> {
  static override summary = 'Send a signed charge.test event to the webhook URL of this environment.'
  static override description =
    'Calls POST /v1/webhooks/test. The service signs and delivers a `charge.test` event exactly like a real one; ' +
    'the printed eventId equals the `id` in the delivered body, so you can find it in your logs or in ' +
    '`svc webhooks events`. Piped, only the id is printed. Exit 4 when no webhook URL is configured.\n\n' +
    'It reads GET /v1/account first. When the service has deactivated the endpoint (24 h without a successful ' +
    'delivery), nothing is sent (the service would skip the delivery): it says so, says how to reactivate the ' +
    'endpoint (save the URL again: in the panel, or `svc sandbox webhook set URL --env ENV` for the sandbox) and ' +
    'exits 9, with `{"error": {"code": "webhook_inactive", …}}` on stderr under --json.'

  static override examples = [
    '<%= config.bin %> webhooks test',
    'EVENT=$(<%= config.bin %> webhooks test) && grep "$EVENT" app.log',
    '<%= config.bin %> webhooks test --profile sandbox --json',
    '<%= config.bin %> webhooks test; [ $? -eq 9 ] && echo "the endpoint is inactive: save its URL again"',
  ]

  static override flags = { quiet: quietFlag('the event id (as piped)') }

  async run(): Promise<{ eventId: string }> {
    const client = await this.client()
    const result = await sendTestWebhook(client, { sandbox: LOOPBACK.test((await this.credentials()).baseUrl) }).catch(async (err: unknown) => {
      throw err instanceof ApiError && err.status === 404 ? await this.withSetUpHint(err) : err
    })
    return { eventId: result.eventId }
  }

  protected override async render(result: { eventId: string }, io: IO): Promise<void> {
    if (this.flags.quiet || !io.isStdoutTTY) return io.out(`${result.eventId}\n`)
    const paint = painter(io.color)
    io.out(`${await this.badge('out')} Sent a charge.test event: ${paint('bold', result.eventId)}\n`)
    this.note(paint('dim', 'The delivered body carries this id. See deliveries with `svc webhooks listen` or `svc webhooks events`.'))
  }

  /** A 404 here means no URL is configured: say where to set one. */
  private async withSetUpHint(err: ApiError): Promise<ApiError> {
    const { baseUrl, environment } = await this.credentials()
    const hint = LOOPBACK.test(baseUrl)
      ? `No webhook URL is configured for the ${environment} environment of the local sandbox: run \`svc sandbox webhook set URL --env ${environment}\`, or \`svc webhooks listen\`, which registers itself.`
      : `No webhook URL is configured for the ${environment} environment: set it in the panel (API, Webhook), then try again.`
    return new ApiError({ status: err.status, code: err.apiCode, message: err.message, details: err.details, requestId: err.requestId, hint })
  }
}
