import { ApiCommand } from '../../lib/command-kit/api.js'
import { reportFlags } from '../../lib/command-kit/report-flags.js'
import { withFlags } from '../../lib/command-kit/operator-flags.js'
import { reportCharges } from '../../lib/services/operator-operations.js'
import type { ChargesReport } from '../../lib/domain/reports.js'
import { painter } from '../../lib/output/color.js'
import { csvList } from '../../lib/output/list-printer.js'
import { createSpinner } from '../../lib/output/spinner.js'
import type { IO } from '../../lib/output/io.js'
import { CHARGES_CSV_COLUMNS, chargesTable, chargesTsv } from '../../lib/output/report-view.js'

export default class ReportCharges extends ApiCommand<typeof ReportCharges, ChargesReport> {
  static override summary = 'Charges created per day, week or month in your zone: how many were paid, expired, canceled.'
  static override description =
    'Charges created in the range (the API filters by creation), per period: count and gross, overall and by status as it ' +
    "is now. Days are the operator's days in --tz (default the machine's zone); --to names the last day included. Every " +
    'charge is checked (fee + net = gross): one that does not balance is listed, never summed. Streams every page; a charge ' +
    'read twice is counted once, in its state read last. At most 10,000 periods (27 years by day): a longer range exits 2 ' +
    "asking for a coarser --by; dates beyond the service's (years 0000 to 9999, UTC) exit 2 naming the flag. --json: " +
    '{ from, to, tz, by, periods: [{ start, end, count, grossInCents, byStatus: { STATUS: { count, grossInCents } } }], ' +
    'total: { count, grossInCents, byStatus }, unbalanced: [ids] }. --csv and piped rows: start, end, count, grossInCents, ' +
    'then STATUSCount and STATUSGrossInCents for each status (awaiting_payment, paid_pending_settlement, settled, expired, ' +
    'canceled, failed, refunded). Piped rows have no header and end with a row whose start is `total` and end empty, with ' +
    'the sums (--csv has no total row). On a terminal, a table fitted to its width: period labels shorten to 24/11–30/11, ' +
    'then status columns that are all zero go, then failed, refunded, waiting, canceled, expired.'

  static override examples = [
    '<%= config.bin %> report charges --from 2026-11-01 --to 2026-11-30 --by week --tz America/Sao_Paulo',
    '<%= config.bin %> report charges --from today --to today --json | jq .total.byStatus',
    "<%= config.bin %> report charges --from 2026-11-01 --to 2026-11-30 --by month --csv --separator ';'",
  ]

  static override flags = reportFlags

  async run(): Promise<ChargesReport> {
    this.listOutput()
    const f = this.flags
    // Every page is read: on a terminal, say how far it got (stderr; gone once the report prints).
    let spinner: ReturnType<typeof createSpinner> | undefined
    const report = await withFlags('See `svc report charges --help` for the date forms.', () =>
      reportCharges({ from: f.from, to: f.to, by: f.by, timeZone: f.tz }, () => this.client(), {
        onRange: async (range) => {
          if (this.io.isStderrTTY && !f.json) this.note(`${await this.badge('err')} charges created · ${range.timeZone}`)
          spinner = createSpinner(this.io, 'reading charges…')
        },
        onRead: (n) => spinner?.update(`reading charges… ${n.toLocaleString('en-US')}`),
      }),
    ).finally(() => spinner?.stop())
    if (report.unbalanced.length > 0) {
      this.warnUser(`${report.unbalanced.length} charge(s) do not balance (fee + net ≠ gross) and were not summed: ${report.unbalanced.join(', ')}`)
    }
    if (this.flags.csv) await this.printList(report.periods, csvList(CHARGES_CSV_COLUMNS))
    return report
  }

  protected override render(report: ChargesReport, io: IO): void {
    if (this.flags.csv) return
    io.out(io.isStdoutTTY ? chargesTable(report, painter(io.color), io.columns) : chargesTsv(report))
  }
}
