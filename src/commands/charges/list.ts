import { Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { hasRelativeTime, parseListFlags } from '../../lib/charges/list-query.js'
import { chargeSink, listMode } from '../../lib/charges/list-sink.js'
import { CHARGE_STATUSES } from '../../lib/domain/charge-states.js'
import type { IO } from '../../lib/output/io.js'
import type { ChargeList } from '../../lib/contract/schemas.js'

export default class ChargesList extends ApiCommand<typeof ChargesList, ChargeList | undefined> {
  static override summary = 'List charges, newest first, filtered by status, order id and creation time.'
  static override description =
    'On a terminal: a table fitted to its width (narrower than about 110 columns the CREATED column goes, then ids are cut ' +
    'in the middle, then AGE, then EXTERNAL ID below 66 columns; -q and piped output keep whole ids). Piped: tab-separated rows, no header, in the stable column order ' +
    '`id status amountInCents externalId createdAt` (RFC 3339 times). -q prints ids only, --ndjson one charge per ' +
    'line, --json the API list object (with --all, a JSON array). --all follows every page, streaming as it goes. ' +
    'Times take RFC 3339 or friendly forms: 2h, 7d, today, yesterday, 2026-11-01. Relative forms count back from the ' +
    "service's clock (read from its Date header, one small request first), so they follow a sandbox clock moved with " +
    '`svc sandbox clock advance`.'

  static override examples = [
    '<%= config.bin %> charges list --status awaiting_payment --created-after 2h',
    '<%= config.bin %> charges list -q --status awaiting_payment --all | <%= config.bin %> charges cancel -',
    '<%= config.bin %> charges list --all --created-after yesterday --ndjson | jq -r .amount.netInCents',
    '<%= config.bin %> charges list --external-id order-1042 --json',
    '<%= config.bin %> sandbox clock advance 25h && <%= config.bin %> charges list --created-after 2h   # 2 h on the sandbox clock',
  ]

  static override flags = {
    status: Flags.string({ description: 'Only charges in this state.', options: CHARGE_STATUSES }),
    'external-id': Flags.string({ description: 'Only the charge with this order id.' }),
    'created-after': Flags.string({ description: 'Created after this time (RFC 3339, 2026-11-01, yesterday, 2h…).', helpValue: 'TIME' }),
    'created-before': Flags.string({ description: 'Created before this time (same forms).', helpValue: 'TIME' }),
    limit: Flags.string({ description: 'Charges per page, 1 to 100 (API default 20).', helpValue: 'N' }),
    'starting-after': Flags.string({ description: 'Cursor: the id of the last charge of the previous page.', helpValue: 'ID' }),
    all: Flags.boolean({ description: 'Follow every page to the end (streamed).' }),
    ndjson: Flags.boolean({ description: 'One charge per line as JSON, streamed.', exclusive: ['json', 'quiet'], helpGroup: 'OUTPUT' }),
    quiet: Flags.boolean({ char: 'q', description: 'Print only ids, one per line.', exclusive: ['json', 'ndjson'], helpGroup: 'OUTPUT' }),
  }

  /** One page is the result; --all streams every page as it comes, and returns nothing. */
  async run(): Promise<ChargeList | undefined> {
    let query = parseListFlags(this.flags)
    const client = await this.client()
    if (hasRelativeTime(this.flags)) {
      // `2h` means two hours before the server's now (a sandbox clock may be days ahead): one
      // small request reads its Date header, then the flags are computed again on that clock.
      await client.listCharges({ limit: 1 })
      query = parseListFlags(this.flags, client.serverNow())
    }
    const mode = listMode(this.flags, this.io)
    if (mode === 'table') this.note(`${await this.badge('err')} charges${query.status ? ` · ${query.status}` : ''}`)
    if (!this.flags.all) return client.listCharges(query)
    const sink = chargeSink(this.io, mode, () => client.serverNow())
    for await (const charge of client.paginateCharges(query)) sink.write(charge)
    this.footer(sink.end(), undefined)
    return undefined
  }

  protected override async render(page: ChargeList | undefined, io: IO): Promise<void> {
    if (!page) return
    const client = await this.client()
    const mode = listMode(this.flags, io)
    const sink = chargeSink(io, mode, () => client.serverNow())
    for (const charge of page.data) sink.write(charge)
    this.footer(sink.end(), mode === 'table' && page.hasMore ? page.data.at(-1)?.id : undefined)
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
