import { Flags } from '@oclif/core'
import { FlagReader } from '../lib/charges/operator-flags.js'
import { ApiCommand } from '../lib/command-kit/api.js'
import { EXIT } from '../lib/errors.js'
import type { IO } from '../lib/output/io.js'
import { painter } from '../lib/output/color.js'
import { statusView } from '../lib/services/status-view.js'
import { isLoopbackUrl } from '../lib/net/loopback.js'
import type { StatusReport } from '../lib/services/status.js'

export default class Status extends ApiCommand<typeof Status, StatusReport> {
  static override summary = 'What needs a person now: late settlements, refunds to reverse, a deactivated webhook, failed deliveries.'
  static override description =
    "Overdue settlements (paid_pending_settlement past settlement.estimatedAt by more than --grace, by the service's clock), " +
    'refunds since --since (orders to reverse; refunded charges created up to 30 days before are scanned), the webhook endpoint ' +
    'deactivated (GET /v1/account, with how to reactivate: saving the URL again), and, where this machine keeps a listener ' +
    'event log (`svc webhooks listen`), deliveries that never reached the app and charge.split.failed / withdrawal.failed ' +
    'events since --since. --json: { items: [{ kind, count, … }] } with kind overdue_settlements, refunds, webhook_inactive, ' +
    'failed_forwards, split_failed or withdrawal_failed. With --exit-status, exits 9 when there is at least one item, so ' +
    'cron and monitoring can run it.'

  static override examples = [
    '<%= config.bin %> status',
    '<%= config.bin %> status --since 24h --exit-status || notify-ops   # in cron',
    '<%= config.bin %> status --json | jq ".items[] | select(.kind == \\"webhook_inactive\\")"   # was the endpoint deactivated?',
  ]

  static override flags = {
    since: Flags.string({ description: 'How far back to look for refunds and failed deliveries.', default: '24h', helpValue: 'DURATION' }),
    grace: Flags.string({ description: 'How late a settlement must be to count as overdue.', default: '1h', helpValue: 'DURATION' }),
    'exit-status': Flags.boolean({ description: 'Exit 9 when anything needs a person.' }),
  }

  async run(): Promise<StatusReport> {
    const r = new FlagReader('See `svc status --help`.')
    const sinceMs = r.duration('since', this.flags.since, '24h')
    const graceMs = r.duration('grace', this.flags.grace, '1h')
    r.done()
    const client = await this.client()
    const { baseUrl } = await this.credentials()
    const { collectStatus } = await import('../lib/services/status.js')
    const { defaultEventsDbPath } = await import('../lib/webhooks/event-store.js')
    const local = isLoopbackUrl(baseUrl)
    const report = await collectStatus({
      client,
      sinceMs,
      graceMs,
      lookbackMs: 30 * 86_400_000,
      eventLogPath: defaultEventsDbPath(this.io.env),
      localNow: () => new Date(),
      reactivateHint: (url) =>
        local ? `save the URL again to reactivate it: svc sandbox webhook set ${url}` : "save the URL again in the service's panel (Webhooks) to reactivate it; events sent meanwhile were not retried",
    })
    if (this.flags['exit-status'] && report.items.length > 0) this.failAfterOutput(EXIT.needsAttention)
    return report
  }

  protected override async render(report: StatusReport, io: IO): Promise<void> {
    if (io.isStderrTTY) this.note(`${await this.badge('err')} status`)
    io.out(statusView(report, painter(io.color), io.isStdoutTTY))
  }
}
