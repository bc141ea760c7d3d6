import { Flags } from '@oclif/core'
import { withFlags } from '../../../lib/command-kit/operator-flags.js'
import { DELIVERY_STATES, type DeliveryState } from '../../../lib/contract/panel.js'
import { painter } from '../../../lib/output/color.js'
import { CSV_CELLS_HELP } from '../../../lib/command-kit/csv-flags.js'
import { listFlags } from '../../../lib/command-kit/list-flags.js'
import { pages } from '../../../lib/output/list-printer.js'
import type { PanelDelivery } from '../../../lib/sandbox-client/panel-client.js'
import { listSandboxDeliveries } from '../../../lib/services/sandbox-deliveries.js'
import { envFlag, PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { sandboxDeliveriesTable, deliveriesTsv, deliveryDetail, deliveryListView } from '../../../lib/sandbox-client/panel-view.js'
import type { IO } from '../../../lib/output/io.js'

/** The delivery log, and the sandbox's time when it is shown on a terminal. */
interface DeliveryLog {
  data: PanelDelivery[]
  now?: string
}

export default class SandboxDeliveries extends PanelCommand<typeof SandboxDeliveries, DeliveryLog | undefined> {
  static override summary = "Show the sandbox's webhook delivery log: attempts, last status, next retry, state (`resend EVENT_ID` sends one again)."
  static override description =
    'Newest first, for the environment of the key (or --env). On a terminal the table fits its width (narrower, the URL ' +
    'goes, event ids are cut in the middle, evt_01a2…9f3c, then TRIES and ANSWER go): TRIES is the ' +
    'number of attempts, ANSWER the last status (or error), RETRY when the next one is due on the sandbox clock. State is pending (retrying at 10s, 30s, 2min … 12h within 24 h), ' +
    'succeeded (a 2xx), failed (no 2xx within 24 h) or skipped (the endpoint was deactivated). Faults a `sandbox start --webhook-faults` injected are marked: ' +
    '"lost (injected)" for an event never sent (state `lost` in --json), "held (injected: reorder)" for an event held back and not yet sent (state `held`, 0 attempts; ' +
    'also `delay`), "succeeded (injected: fail-first, duplicate)" and per attempt otherwise; `injected` in --json. Faults touch the test environment only. With --event-id, a terminal also ' +
    'shows every attempt with its answer and the body that was sent; an event with no delivery in the environment exits 4 ' +
    '(not_found), like `deliveries resend`, while a log with no deliveries at all is an empty list (exit 0). Piped: tab-separated rows, no header, in the order ' +
    '`eventId type url attempts lastStatus nextRetryAt state injected createdAt`, injected the faults, comma-separated (empty when none). ' +
    '--state, --type (exact, or a prefix with *: charge.*) and --since (24h, 7d, a day, an ISO instant; on the sandbox clock) filter on the sandbox; ' +
    '--all follows every page (1000 at a time, streamed) with any output: --ndjson one delivery per line, --csv RFC 4180 with a header row ' +
    '(eventId, type, environment, createdAt, url, state, attempts, lastStatus, lastError, nextRetryAt, firstAttemptAt, injected; ' +
    `${CSV_CELLS_HELP}).`

  static override examples = [
    '<%= config.bin %> sandbox deliveries',
    '<%= config.bin %> sandbox deliveries --event-id evt_3f2a9c01d4e5b6a7c8d9e0f1',
    "<%= config.bin %> sandbox deliveries | awk -F'\\t' '$7 == \"failed\" {print $1}'",
    "<%= config.bin %> sandbox deliveries --env live --json | jq '.data[].state'",
    "<%= config.bin %> sandbox deliveries | awk -F'\\t' '$8 ~ /duplicate/ {print $1}'   # the deliveries a fault was injected into",
    '<%= config.bin %> sandbox deliveries resend evt_3f2a9c01d4e5b6a7c8d9e0f1',
    '<%= config.bin %> sandbox deliveries --state failed --since 24h   # which deliveries failed today, and why (ANSWER)',
    "<%= config.bin %> sandbox deliveries --all --type 'charge.*' --csv > deliveries.csv",
  ]

  static override flags = {
    'event-id': Flags.string({ description: 'Only the delivery of this event, with its attempts.', helpValue: 'ID' }),
    limit: Flags.integer({ description: 'At most this many deliveries (1 to 1000).', default: 50, min: 1, max: 1000, helpValue: 'N' }),
    env: envFlag,
    state: Flags.string({ description: 'Only deliveries in this state.', options: [...DELIVERY_STATES] }),
    type: Flags.string({ description: 'Only this event type (a trailing * matches a prefix, e.g. charge.*).', helpValue: 'PATTERN' }),
    since: Flags.string({ description: 'Only deliveries created since (24h, 7d, 2026-11-03, an ISO instant).', helpValue: 'DATE' }),
    all: Flags.boolean({ description: 'Every delivery that matches, page after page (streamed).' }),
    ...listFlags({ ndjson: 'One delivery per line as JSON, streamed.', quiet: 'Print only the event ids, one per line.', csv: 'RFC 4180 CSV with a header row (streamed).' }),
  }

  async run(): Promise<DeliveryLog | undefined> {
    this.listOutput()
    const { flags } = this
    const input = { env: this.envChoice(), eventId: flags['event-id'], limit: flags.limit, state: flags.state as DeliveryState | undefined, type: flags.type, since: flags.since, all: flags.all }
    const log = await withFlags('See `svc sandbox deliveries --help`.', () =>
      listSandboxDeliveries(input, { panel: () => this.panel(), now: () => this.now(), environment: async () => (await this.credentials()).environment }),
    )
    const panel = await this.panel()
    if (flags.all || flags.ndjson || flags.csv) {
      // --all, --ndjson, --csv: every page (or the one asked for), written as it comes.
      await this.printList(
        pages(log.pages),
        deliveryListView(this.io, async () => Date.parse((await panel.getClock()).now)),
      )
      return undefined
    }
    const tty = this.io.isStdoutTTY && !flags.json && !flags.quiet
    const [data, clock] = await Promise.all([log.page(), tty ? panel.getClock() : undefined])
    return { data, now: clock?.now }
  }

  protected override toJson({ data }: DeliveryLog): unknown {
    return { data }
  }

  protected override async render({ data, now }: DeliveryLog, io: IO): Promise<void> {
    if (this.flags.quiet) return io.out(data.map((d) => `${d.eventId}\n`).join(''))
    if (now === undefined) return io.out(deliveriesTsv(data))
    const paint = painter(io.color)
    this.note(`${await this.badge('err', this.envChoice())} webhook deliveries`)
    if (!data.length) return this.note('No deliveries yet. Set a URL with `svc sandbox webhook set URL`, then create a charge.')
    io.out(sandboxDeliveriesTable(data, Date.parse(now), paint, io.columns))
    if (this.flags['event-id'] && data[0]) io.out(deliveryDetail(data[0], paint))
  }
}
