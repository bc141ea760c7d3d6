import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import type { CheckReport } from '../../lib/services/check-webhook.js'
import { maskSecret } from '../../lib/config/mask.js'
import { resolveWebhookSecrets, SECRET_FLAG_WARNING } from '../../lib/config/resolve.js'
import { NetworkError, UsageError, EXIT } from '../../lib/errors.js'
import { parseEndpointUrl } from '../../lib/webhooks/check/endpoint.js'

export default class WebhooksCheck extends BaseCommand<typeof WebhooksCheck, CheckReport> {
  static override summary = 'Prove a webhook handler right: fire a battery of signed deliveries at it and report row by row.'
  static override description =
    'Sends, one after another, the deliveries of spec part 6 to URL, signed with your webhook secret, and checks each answer: ' +
    'a valid charge.settled and the same event again (2xx), a forged signature, another secret, no or a malformed signature ' +
    'header, a body re-serialised after signing, timestamps 301 s old and ahead (not 2xx), a body signed as sent but not ' +
    'compact, an unknown event type and a withdrawal.paid (2xx). A redirect is never followed and never counts as success; a ' +
    'row that takes over 10 s fails. Event ids are fresh on every run.\n\n' +
    'On a terminal: a table with ✓/✗ and the time of each row. Piped: one tab-separated line per row ' +
    '(pass|fail, id, name, expected, observed, ms, note). --json: {url, passed, failed, reachable, rows: [...]}.\n\n' +
    'Exit codes: 0 every row passed; 1 at least one row failed; 2 bad usage (no secret, bad URL); 7 the URL could not be ' +
    'reached at all (connection refused, unknown host).'

  static override examples = [
    'SVC_WEBHOOK_SECRET=whsec_… <%= config.bin %> webhooks check http://localhost:3000/webhooks   # the secret stays out of ps',
    "SVC_WEBHOOK_SECRET=whsec_… <%= config.bin %> webhooks check localhost:3000/webhooks --json | jq '.rows[] | select(.pass | not)'",
    '<%= config.bin %> webhooks check https://staging.example.com/hooks/svc --profile staging',
  ]

  static override args = {
    url: Args.string({ description: 'URL of your webhook handler (scheme optional: localhost:3000/webhooks).', required: true }),
  }

  static override flags = {
    secret: Flags.string({
      description: "Webhook secret your handler verifies with (or SVC_WEBHOOK_SECRET, or the profile's). Repeatable; the first signs. Visible to other processes: prefer SVC_WEBHOOK_SECRET or the profile.",
      multiple: true,
    }),
    profile: Flags.string({ char: 'p', description: 'Profile whose webhook secret to use (or SVC_PROFILE; default: the default profile).' }),
  }

  async run(): Promise<CheckReport> {
    if (this.flags.secret?.length) this.warnUser(SECRET_FLAG_WARNING)
    const url = parseEndpointUrl(this.args.url)
    const secrets = await resolveWebhookSecrets({ secret: this.flags.secret, profile: this.flags.profile }, this.io.env)
    if (secrets.length === 0) {
      throw new UsageError('A webhook secret is required to sign the deliveries.', {
        field: 'secret',
        hint: 'Pass --secret (the one your handler verifies with), set SVC_WEBHOOK_SECRET, or use a profile that has one.',
      })
    }
    const { runWebhookCheck } = await import('../../lib/services/check-webhook.js')
    const { createReportPrinter } = await import('../../lib/webhooks/check/check-view.js')
    // Rows are shown as they run (a slow handler takes seconds per row); the summary comes with the result.
    const printer = this.flags.json ? undefined : createReportPrinter(this.io)
    this.summary = printer?.end
    if (printer) this.note(`Sending signed deliveries to ${url.href} (secret ${maskSecret(secrets[0]) || '…'})`)
    const report = await runWebhookCheck({ url, secrets, onStart: printer?.start, onRow: printer?.row })
    if (!report.reachable) {
      const reason = report.rows[0]?.observed.replace(/^not run: /, '') ?? `could not connect to ${url.href}`
      this.failAfterOutput(new NetworkError(reason.charAt(0).toUpperCase() + reason.slice(1), { hint: 'Is the handler running and listening on that address? Start it, then run the check again.' }))
    } else if (report.failed > 0) this.failAfterOutput(EXIT.unexpected)
    return report
  }

  private summary?: (report: CheckReport) => void

  protected override render(report: CheckReport): void {
    this.summary?.(report)
  }
}
