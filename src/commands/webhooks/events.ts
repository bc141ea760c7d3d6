import { Flags } from '@oclif/core'
import { BaseCommand, quietFlag } from '../../lib/command-kit/base.js'
import { painter } from '../../lib/output/color.js'
import { type DeliveryRecord, EventStore } from '../../lib/webhooks/event-store.js'
import { eventLogTable, deliveryJson, deliveryTsvRow } from '../../lib/webhooks/events-view.js'
import type { IO } from '../../lib/output/io.js'

/** The deliveries read from the event log, and where it is. */
interface EventLogPage {
  path: string
  records: DeliveryRecord[]
}

export default class WebhooksEvents extends BaseCommand<typeof WebhooksEvents, EventLogPage> {
  static override summary = 'Show the deliveries `svc webhooks listen` received, newest first, from the local event log.'
  static override description =
    'Every delivery is there, verified or not: verification result, what became of it (forwarded, failed, rejected, ' +
    "duplicate, skipped), the app's status, latency and how many times this listener received the event (not the service's attempt count, which `svc sandbox deliveries` shows). On a terminal: a table fitted to its width (with a TARGET column when the listener routed to several apps, kept " +
    'down to 80 columns; narrower, columns go and event ids and targets are cut in the middle). Piped: tab-separated rows in the ' +
    'order receivedAt eventId type verification outcome status forwardStatus latencyMs received source target (the app it was forwarded to). --json prints an ' +
    'array with headers and the raw body (text, or bodyBase64 when it is not UTF-8), each with target (the URL) and route (the --forward PATTERN ' +
    'that chose it; null for the bare URL and for events logged before 0.3); --ndjson one object per line.'

  static override examples = [
    '<%= config.bin %> webhooks events',
    '<%= config.bin %> webhooks events --type charge.settled --limit 5 --json',
    '<%= config.bin %> webhooks events --type "charge.*" --ndjson | jq -r .eventId',
  ]

  static override flags = {
    limit: Flags.integer({ description: 'How many deliveries, newest first.', default: 20, min: 1, max: 10_000 }),
    type: Flags.string({ description: 'Only this event type (a trailing * matches a prefix, e.g. charge.*).' }),
    'event-id': Flags.string({ description: 'Only the deliveries of this event.' }),
    ndjson: Flags.boolean({ description: 'One delivery per line as JSON.', exclusive: ['json', 'quiet'], helpGroup: 'OUTPUT' }),
    quiet: quietFlag('the event ids (an event forwarded to several targets: once per delivery)'),
  }

  async run(): Promise<EventLogPage> {
    const store = await EventStore.open({ env: this.io.env })
    try {
      return { path: store.path, records: store.list({ limit: this.flags.limit, type: this.flags.type, eventId: this.flags['event-id'] }) }
    } finally {
      store.close()
    }
  }

  protected override toJson({ records }: EventLogPage): unknown {
    return records.map(deliveryJson)
  }

  protected override render({ path, records }: EventLogPage, io: IO): void {
    if (this.flags.ndjson) return io.out(records.map((r) => `${JSON.stringify(deliveryJson(r))}\n`).join(''))
    if (this.flags.quiet) return io.out(records.map((r) => `${r.eventId}\n`).join(''))
    if (records.length === 0) return this.note(`No deliveries in ${path}${this.flags.type ? ` of type ${this.flags.type}` : ''}. Start one with \`svc webhooks listen --forward localhost:3000\`.`)
    if (io.isStdoutTTY) io.out(eventLogTable(records, painter(io.color), io.columns))
    else io.out(records.map(deliveryTsvRow).join(''))
  }
}
