import { Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { reportFlags } from '../../lib/command-kit/report-flags.js'
import { FlagReader, withFlags } from '../../lib/command-kit/operator-flags.js'
import { reportSettlements } from '../../lib/services/operator-operations.js'
import type { SettlementReport } from '../../lib/domain/reports.js'
import { painter } from '../../lib/output/color.js'
import { csvList } from '../../lib/output/list-printer.js'
import { createSpinner } from '../../lib/output/spinner.js'
import type { IO } from '../../lib/output/io.js'
import { SETTLEMENT_CSV_COLUMNS, settlementTable, settlementTsv } from '../../lib/output/report-view.js'

export default class ReportSettlements extends ApiCommand<typeof ReportSettlements, SettlementReport> {
  static override summary = 'What settled, per day, week or month in your zone: count, gross, fee, net, and refunds.'
  static override description =
    'Per period: settled count, gross, fee and net by settlement.settledAt, refunded count and gross by the refunded ' +
    "charge's updatedAt, and a total row. Days are the operator's days in --tz (default the machine's zone); a day starts at " +
    'local midnight (or, where daylight saving skipped midnight, when the day began). --to names the last day included. ' +
    'Every charge is checked (fee + net = gross): one that does not balance is listed, never summed. Scans every page of ' +
    'status=settled and status=refunded created from --from minus --lookback (default 30d) to --to, streamed; a charge read by ' +
    'both scans (refunded while the report runs) is summed once, as read last (memory: about 10 MB per 100,000 charges in ' +
    'range). At most 10,000 periods (27 years by day): a longer range exits 2 asking for a coarser --by; dates beyond the ' +
    "service's (years 0000 to 9999, UTC) exit 2 naming the flag. " +
    'Amounts are integer centavos in --json, --csv and piped rows (no header; start end settledCount grossInCents feeInCents ' +
    'netInCents refundedCount refundedGrossInCents, tab-separated, then a last row whose start is `total` and end empty, ' +
    'with the sums; --csv has no total row), R$ on a terminal (a table fitted to its width: period labels shorten to ' +
    '24/11–30/11, then columns that are all zero go, then refunded gross, refunded count, fee, settled count). --json: { from, to, tz, by, periods: [{ start, end, settled: ' +
    '{ count, grossInCents, feeInCents, netInCents }, refunded: { count, grossInCents } }], total, unbalanced: [ids] }.'

  static override examples = [
    '<%= config.bin %> report settlements --from yesterday --to yesterday --tz America/Sao_Paulo   # how much settled yesterday',
    '<%= config.bin %> report settlements --from 2026-11-01 --to 2026-11-30 --by week',
    "<%= config.bin %> report settlements --from 2026-11-01 --to 2026-11-30 --csv --separator ';' > settlements.csv",
    "<%= config.bin %> report settlements --from 2026-11-01 --to 2026-11-30 --csv --separator ';' --bom > settlements.csv   # for Excel",
    '<%= config.bin %> report settlements --from 7d --to today --json | jq .total.settled.netInCents',
    "<%= config.bin %> report settlements --from 2026-11-01 --to 2026-11-30 | awk -F'\\t' '$1 == \"total\" { print $6 }'   # net, piped",
  ]

  static override flags = {
    ...reportFlags,
    lookback: Flags.string({ description: 'How long before --from a charge may have been created and still settle in range (default 30d).', helpValue: 'DURATION' }),
  }

  async run(): Promise<SettlementReport> {
    this.listOutput()
    const f = this.flags
    // The lookback is read, and refused, before the range: a bad one is said alone.
    const r = new FlagReader('See `svc report settlements --help`.')
    const lookbackMs = r.duration('lookback', f.lookback, '30d')
    r.done()
    // Every page is read: on a terminal, say how far it got (stderr; gone once the report prints).
    let spinner: ReturnType<typeof createSpinner> | undefined
    const input = { from: f.from, to: f.to, by: f.by, timeZone: f.tz, lookbackMs }
    const report = await withFlags('See `svc report settlements --help` for the date forms.', () =>
      reportSettlements(input, () => this.client(), {
        onRange: async (range) => {
          if (this.io.isStderrTTY && !f.json) this.note(`${await this.badge('err')} settlements · ${range.timeZone}`)
          spinner = createSpinner(this.io, 'reading charges…')
        },
        onRead: (n) => spinner?.update(`reading settled and refunded charges… ${n.toLocaleString('en-US')}`),
      }),
    ).finally(() => spinner?.stop())
    this.warnUnbalanced(report.unbalanced)
    if (this.flags.csv) await this.printList(report.periods, csvList(SETTLEMENT_CSV_COLUMNS))
    return report
  }

  protected override render(report: SettlementReport, io: IO): void {
    if (this.flags.csv) return
    io.out(io.isStdoutTTY ? settlementTable(report, painter(io.color), io.columns) : settlementTsv(report))
  }

  private warnUnbalanced(ids: string[]): void {
    if (ids.length > 0) this.warnUser(`${ids.length} charge(s) do not balance (fee + net ≠ gross) and were not summed: ${ids.join(', ')}`)
  }
}
