import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { withFlags } from '../../lib/command-kit/operator-flags.js'
import { CSV_CELLS_HELP } from '../../lib/command-kit/csv-flags.js'
import { listFlags } from '../../lib/command-kit/list-flags.js'
import { pages } from '../../lib/output/list-printer.js'
import { type EventLogInput, listEventLog, type LoggedDelivery } from '../../lib/services/webhook-events.js'
import { deliveryJson, eventLogListView } from '../../lib/webhooks/events-view.js'
import type { IO } from '../../lib/output/io.js'

/** The deliveries read from the event log, and where it is. */
interface EventLogPage {
  path: string
  records: LoggedDelivery[]
}

export default class WebhooksEvents extends BaseCommand<typeof WebhooksEvents, EventLogPage | undefined> {
  static override summary = 'Show the deliveries `svc webhooks listen` received, newest first, from the local event log.'
  static override description =
    'Every delivery is there, verified or not: verification result, what became of it (forwarded, failed, rejected, ' +
    "duplicate, skipped), the app's status, latency and how many times this listener received the event (not the service's attempt count, which `svc sandbox deliveries` shows). On a terminal: a table fitted to its width (with a TARGET column when the listener routed to several apps, kept " +
    'down to 80 columns; narrower, columns go and event ids and targets are cut in the middle). Piped: tab-separated rows in the ' +
    'order receivedAt eventId type verification outcome status forwardStatus latencyMs received source target (the app it was forwarded to). --json prints an ' +
    'array with headers and the raw body (text, or bodyBase64 when it is not UTF-8), each with target (the URL) and route (the --forward PATTERN ' +
    'that chose it; null for the bare URL and for events logged before 0.3); --ndjson one object per line. ' +
    '--state keeps one outcome (failed: never reached the app), --since the deliveries received since (24h, 7d, a day, an ' +
    'ISO instant), --all every row (streamed page by page, whatever the log holds). --csv: RFC 4180 with a header row ' +
    '(receivedAt, eventId, type, verification, verifyReason, outcome, answeredStatus, forwardStatus, latencyMs, received, ' +
    `source, target, error), ${CSV_CELLS_HELP}.`

  static override examples = [
    '<%= config.bin %> webhooks events',
    '<%= config.bin %> webhooks events --type charge.settled --limit 5 --json',
    '<%= config.bin %> webhooks events --type "charge.*" --ndjson | jq -r .eventId',
    '<%= config.bin %> webhooks events --state failed --since 24h   # what never reached the app today',
    "<%= config.bin %> webhooks events --all --csv --separator ';' > events.csv",
  ]

  static override flags = {
    limit: Flags.integer({ description: 'How many deliveries, newest first.', default: 20, min: 1, max: 10_000 }),
    type: Flags.string({ description: 'Only this event type (a trailing * matches a prefix, e.g. charge.*).' }),
    'event-id': Flags.string({ description: 'Only the deliveries of this event.' }),
    ...listFlags({
      ndjson: 'One delivery per line as JSON.',
      quiet: 'Print only the event ids (an event forwarded to several targets: once per delivery), one per line.',
      csv: 'RFC 4180 CSV with a header row (streamed).',
    }),
    state: Flags.string({ description: 'Only deliveries with this outcome.', options: ['forwarded', 'failed', 'rejected', 'duplicate', 'skipped'] }),
    since: Flags.string({ description: 'Only deliveries received since (24h, 7d, 2026-11-03, an ISO instant).', helpValue: 'DATE' }),
    all: Flags.boolean({ description: 'Every matching delivery, not just --limit (streamed).' }),
  }

  async run(): Promise<EventLogPage | undefined> {
    this.listOutput()
    const { flags } = this
    const input = { type: flags.type, eventId: flags['event-id'], state: flags.state as EventLogInput['state'], since: flags.since, limit: flags.limit, all: flags.all }
    const log = await withFlags('See `svc webhooks events --help`.', () => listEventLog(input, { openEventStore: this.factory.openEventStore, now: () => this.now() }))
    try {
      if (!(flags.all || flags.csv || flags.ndjson)) return { path: log.path, records: [...log.pages].flat() }
      // Rows as they are read, one page in memory: --ndjson, --csv, and --all in any output.
      await this.printList(pages(log.pages), eventLogListView(this.io))
      return undefined
    } finally {
      log.close()
    }
  }

  protected override toJson({ records }: EventLogPage): unknown {
    return records.map(deliveryJson)
  }

  protected override async render({ path, records }: EventLogPage, io: IO): Promise<void> {
    if (records.length === 0 && this.listOutput().format !== 'quiet')
      return this.note(`No deliveries in ${path}${this.flags.type ? ` of type ${this.flags.type}` : ''}. Start one with \`svc webhooks listen --forward localhost:3000\`.`)
    await this.printList(pages([records]), eventLogListView(io))
  }
}
