import { Flags } from '@oclif/core'
import { withFlags } from '../lib/command-kit/operator-flags.js'
import { nextStepInCliWords } from '../lib/command-kit/next-step-words.js'
import { ApiCommand } from '../lib/command-kit/api.js'
import { EXIT } from '../lib/errors.js'
import type { IO } from '../lib/output/io.js'
import { painter } from '../lib/output/color.js'
import { statusView } from '../lib/services/status-view.js'
import { isLoopbackUrl } from '../lib/net/loopback.js'
import type { DeliveryRecord } from '../lib/contract/panel.js'
import type { StatusReport, StatusSources } from '../lib/services/status.js'

export default class Status extends ApiCommand<typeof Status, StatusReport> {
  static override summary = 'What needs a person now: late settlements, refunds to reverse, a deactivated webhook, failed deliveries.'
  static override description =
    "Overdue settlements (paid_pending_settlement past settlement.estimatedAt by more than --grace, by the service's clock), " +
    'refunds since --since (orders to reverse; refunded charges created up to 30 days before are scanned), the webhook endpoint ' +
    'deactivated (GET /v1/account, with how to reactivate: saving the URL again), on a local sandbox the deliveries its log ' +
    'gave up on since --since (`svc sandbox deliveries --state failed`), and, where this machine keeps a listener event log ' +
    '(`svc webhooks listen`), deliveries that never reached the app and charge.split.failed / withdrawal.failed events since ' +
    '--since. Against the real service, the deliveries it gave up on are in its panel (Webhooks): the API does not list them. ' +
    '--json: { items: [{ kind, count, … }], unreadable: [{ source, path?, reason }] } with kind overdue_settlements, refunds, ' +
    'webhook_inactive, failed_deliveries, failed_forwards, split_failed or withdrawal_failed. Piped: one line per item, kind and ' +
    'count, then (tab-separated; centavos, RFC 3339 instants, ids comma-separated): overdue_settlements grossInCents oldestId ' +
    'oldestEstimatedAt lateMs; refunds grossInCents since chargeIds; webhook_inactive environment url; failed_deliveries, ' +
    'failed_forwards and withdrawal_failed eventIds; split_failed chargeIds. With --exit-status, exits 9 when there is at least ' +
    'one item, so cron and monitoring can run it. When a source cannot be read (the event log locked, damaged or not a ' +
    'database), what the others said is still printed, the source is named on stderr and in unreadable, and the exit code is ' +
    '10 ("could not tell"), with or without --exit-status, ahead of 9.'

  static override examples = [
    '<%= config.bin %> status',
    '<%= config.bin %> status --since 24h --exit-status || notify-ops   # in cron: 9 needs a person, 10 could not tell',
    '<%= config.bin %> status | cut -f1-3   # kind, count, and grossInCents where there is money',
    '<%= config.bin %> status --json | jq ".items[] | select(.kind == \\"webhook_inactive\\")"   # was the endpoint deactivated?',
  ]

  static override flags = {
    since: Flags.string({ description: 'How far back to look for refunds and failed deliveries.', default: '24h', helpValue: 'DURATION' }),
    grace: Flags.string({ description: 'How late a settlement must be to count as overdue.', default: '1h', helpValue: 'DURATION' }),
    'exit-status': Flags.boolean({ description: 'Exit 9 when anything needs a person.' }),
  }

  async run(): Promise<StatusReport> {
    const { getStatus } = await import('../lib/services/status.js')
    const report = await withFlags('See `svc status --help`.', () => getStatus({ since: this.flags.since, grace: this.flags.grace }, () => this.sources()))
    for (const u of report.unreadable) {
      this.warnUser(`could not read ${u.source === 'event_log' ? `the listener's event log ${u.path}` : "the sandbox's delivery log"} (${u.reason}): what it holds is not in this status`)
    }
    // Could not tell (10) outranks needs a person (9): the list is incomplete, whatever it holds.
    if (report.unreadable.length > 0) this.failAfterOutput(EXIT.couldNotTell)
    else if (this.flags['exit-status'] && report.items.length > 0) this.failAfterOutput(EXIT.needsAttention)
    return report
  }

  /** Where the report is read from: the API, this machine's event log, and a local sandbox's delivery log. */
  private async sources(): Promise<StatusSources> {
    const client = await this.client()
    const { baseUrl } = await this.credentials()
    const local = isLoopbackUrl(baseUrl)
    // A local sandbox keeps a delivery log of its own: its failed deliveries are read there.
    const sandbox = local && (await (await import('../lib/sandbox-client/panel-client.js')).detectSandbox(baseUrl, { timeoutMs: this.timeoutMs() }))
    return {
      client,
      env: this.io.env,
      localNow: () => this.now(),
      webhookPanel: local ? 'sandbox' : 'service',
      say: nextStepInCliWords,
      ...(sandbox ? { sandboxFailedDeliveries: (since: Date) => this.sandboxFailedDeliveries(since) } : {}),
    }
  }

  private async sandboxFailedDeliveries(since: Date): Promise<DeliveryRecord[]> {
    const { apiKey, baseUrl } = await this.credentials()
    const panel = await this.factory.newPanelClient({ apiKey, baseUrl, timeoutMs: this.timeoutMs(), debug: this.debugLog(apiKey) })
    const failed: DeliveryRecord[] = []
    for await (const page of panel.allDeliveries({ state: 'failed', since: since.toISOString() })) failed.push(...page)
    return failed
  }

  protected override async render(report: StatusReport, io: IO): Promise<void> {
    if (io.isStderrTTY) this.note(`${await this.badge('err')} status`)
    io.out(statusView(report, painter(io.color), io.isStdoutTTY))
  }
}
