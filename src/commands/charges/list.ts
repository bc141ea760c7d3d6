import { Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { chargeListView, overdueListView } from '../../lib/charges/list-sink.js'
import { withFlags } from '../../lib/command-kit/operator-flags.js'
import { listQueryFromFlags, operatorFlags, overdueInputFromFlags, settledInputFromFlags } from '../../lib/command-kit/charge-list-flags.js'
import { listOverdue, listSettled } from '../../lib/services/operator-operations.js'
import { CSV_CELLS_HELP } from '../../lib/command-kit/csv-flags.js'
import { listFlags } from '../../lib/command-kit/list-flags.js'
import { CHARGE_STATUSES } from '../../lib/domain/charge-states.js'
import type { IO } from '../../lib/output/io.js'
import type { ListSource, ListView } from '../../lib/output/list-printer.js'
import type { ChargeList } from '../../lib/contract/schemas.js'

export default class ChargesList extends ApiCommand<typeof ChargesList, ChargeList | undefined> {
  static override summary = 'List charges, newest first, filtered by status, order id and creation time.'
  static override description =
    'On a terminal: a table fitted to its width (narrower than about 110 columns the CREATED column goes, then ids are cut ' +
    'in the middle, then AGE, then EXTERNAL ID below 66 columns; -q and piped output keep whole ids). Piped: tab-separated rows, no header, in the stable column order ' +
    '`id status amountInCents externalId createdAt` (RFC 3339 times; with --overdue two more at the end: estimatedAt, ' +
    "lateMs). Terminal times are in --tz (default the machine's zone). -q prints ids only, --ndjson one charge per " +
    'line, --json the API list object (with --all, a JSON array). --all follows every page, streaming as it goes. ' +
    'Times take RFC 3339 or friendly forms: 2h, 7d, today, yesterday, 2026-11-01. Relative forms count back from the ' +
    "service's clock (read from its Date header, one small request first), so they follow a sandbox clock moved with " +
    '`svc sandbox clock advance`.\n\n' +
    'Operators: --settled-after/--settled-before list charges whose settlement.settledAt falls in the range, whatever their ' +
    'status now (a refunded charge was settled first); they scan status=settled and status=refunded back by creation until ' +
    'createdAt is older than --settled-after minus --lookback (default 30d), every page, streamed; a charge listed by both ' +
    '(refunded while the scans run) is printed once, in its state read last. Piped rows append settledAt. Their dates are the ' +
    "operator's days: 2026-11-03 is that day in --tz (default the machine's zone), also today, yesterday, an ISO instant, or " +
    "24h / 7d back from the service's clock. --overdue lists paid_pending_settlement charges whose settlement.estimatedAt " +
    "lies more than --grace (default 1h) in the past by the service's clock (its Date header), oldest first, with how late " +
    'each is. On a terminal the settled filters show a SETTLED column (settlement.settledAt in --tz) in place of AGE, and ' +
    '--overdue shows ESTIMATED and LATE; piped --overdue rows append estimatedAt and lateMs (how late, in ms). --csv writes RFC 4180 with a header row and the columns id, externalId, status, environment, createdAt, paidAt, ' +
    'estimatedAt, settledAt, grossInCents, feeInCents, netInCents, feeBps, feeFixedInCents, blockchainTxId, payerName, ' +
    `description, metadata (JSON); ${CSV_CELLS_HELP}.`

  static override examples = [
    '<%= config.bin %> charges list --status awaiting_payment --created-after 2h',
    '<%= config.bin %> charges list -q --status awaiting_payment --all | <%= config.bin %> charges cancel -',
    '<%= config.bin %> charges list --all --created-after yesterday --ndjson | jq -r .amount.netInCents',
    '<%= config.bin %> charges list --external-id order-1042 --json',
    '<%= config.bin %> sandbox clock advance 25h && <%= config.bin %> charges list --created-after 2h   # 2 h on the sandbox clock',
    '<%= config.bin %> charges list --settled-after yesterday --settled-before today --tz America/Sao_Paulo   # what settled yesterday',
    '<%= config.bin %> charges list --overdue --grace 1h   # paid, late to settle',
    '<%= config.bin %> charges list --overdue | cut -f1,6,7   # id, estimatedAt, lateMs',
    "<%= config.bin %> charges list --all --created-after 2026-11-01 --csv --separator ';' > charges.csv   # for accounting",
    "<%= config.bin %> charges list --all --csv --separator ';' --bom > charges.csv   # opens in Excel with accents intact",
  ]

  static override flags = {
    status: Flags.string({ description: 'Only charges in this state.', options: CHARGE_STATUSES }),
    'external-id': Flags.string({ description: 'Only the charge with this order id.' }),
    'created-after': Flags.string({ description: 'Created after this time (RFC 3339, 2026-11-01, yesterday, 2h…).', helpValue: 'TIME' }),
    'created-before': Flags.string({ description: 'Created before this time (same forms).', helpValue: 'TIME' }),
    limit: Flags.string({ description: 'Charges per page, 1 to 100 (API default 20).', helpValue: 'N' }),
    'starting-after': Flags.string({ description: 'Cursor: the id of the last charge of the previous page.', helpValue: 'ID' }),
    all: Flags.boolean({ description: 'Follow every page to the end (streamed).' }),
    ...listFlags({ ndjson: 'One charge per line as JSON, streamed.', quiet: 'Print only ids, one per line.', csv: 'RFC 4180 CSV with a header row and the documented columns (streamed).' }),
    ...operatorFlags,
  }

  /** One page is the result; --all streams every page as it comes, and returns nothing. */
  async run(): Promise<ChargeList | undefined> {
    const f = this.flags
    this.listOutput() // a bad --separator is exit 2 before anything is sent
    const settled = f['settled-after'] !== undefined || f['settled-before'] !== undefined
    if (f.overdue) {
      const late = await listOverdue(overdueInputFromFlags(f), () => this.client())
      return this.stream(` · overdue settlements (grace ${f.grace ?? '1h'})`, late, () => overdueListView(this.io, f.tz), 'table')
    }
    if (settled) {
      const charges = await withFlags('See `svc charges list --help` for the date forms.', () => listSettled(settledInputFromFlags(f), () => this.client()))
      return this.stream(' · settled in range', charges, (now) => chargeListView(this.io, now, { timeZone: f.tz, settled }))
    }
    const query = await listQueryFromFlags(f, () => this.client())
    const client = await this.client()
    const what = query.status ? ` · ${query.status}` : ''
    if (f.all) return this.stream(what, client.paginateCharges(query), (now) => chargeListView(this.io, now, { timeZone: f.tz }))
    await this.heading(what)
    return client.listCharges(query)
  }

  /** On a terminal, the list's heading on stderr. */
  private async heading(what: string): Promise<void> {
    if (this.listOutput().format === 'table') this.note(`${await this.badge('err')} charges${what}`)
  }

  /** Every charge as it comes, in the chosen format, after its heading; then the footer (`'table'`: only under a terminal table). */
  private async stream<I>(what: string, charges: ListSource<I>, view: (now: () => Date) => ListView<I>, footerIn?: 'table'): Promise<undefined> {
    const client = await this.client()
    await this.heading(what)
    const count = await this.printList(
      charges,
      view(() => client.serverNow()),
    )
    if (!footerIn || this.listOutput().format === 'table') this.footer(count, undefined)
    return undefined
  }

  protected override async render(page: ChargeList | undefined, io: IO): Promise<void> {
    if (!page) return
    const client = await this.client()
    const count = await this.printList(
      page.data,
      chargeListView(io, () => client.serverNow(), { timeZone: this.flags.tz }),
    )
    this.footer(count, this.listOutput().format === 'table' && page.hasMore ? page.data.at(-1)?.id : undefined)
    // A pipeline (list -q | cancel -) would silently act on the first page only: say so, on stderr.
    if (page.hasMore && !io.isStdoutTTY) this.note('more charges exist: add --all to get every page')
  }

  /** Terminal-only hints on stderr: nothing found, or how to get the next page. */
  private footer(count: number, nextCursor: string | undefined): void {
    if (!this.io.isStderrTTY) return
    if (count === 0) this.note('No charges match.')
    else if (nextCursor) this.note(`More charges: --starting-after ${nextCursor}, or --all for every page.`)
  }
}
