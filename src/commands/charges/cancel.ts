import { Args } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { quietFlag } from '../../lib/command-kit/base.js'
import { type CancelResult, cancelCharges, normalizeIds } from '../../lib/services/cancel-charges.js'
import { ApiError, SilentExit, UsageError, EXIT } from '../../lib/errors.js'
import { paintStatus } from '../../lib/output/charge-view.js'
import { painter } from '../../lib/output/color.js'
import { safeText } from '../../lib/output/safe-text.js'
import { readStdinLines } from '../../lib/input/stdin.js'

export default class ChargesCancel extends ApiCommand<typeof ChargesCancel> {
  static override summary = 'Cancel unpaid charges, by id or from stdin.'
  static override description =
    'Cancels each charge in turn and prints each result: `id<TAB>status` on stdout, or an error line for that id on ' +
    'stderr. The exit code is the worst of the results (e.g. 5 if one was already paid). Canceling does not invalidate ' +
    'the QR: the payment provider cannot, so a late payment still goes through (the charge then proceeds as paid). ' +
    "Remove the QR from the payer's view when you cancel. Every id is checked before anything is sent: values that " +
    'are not charge ids exit 2, the first 10 shown cut to 40 characters with control characters and non-UTF-8 bytes escaped.'

  static override examples = [
    '<%= config.bin %> charges cancel 6650a1b2c3d4e5f60718293a',
    '<%= config.bin %> charges list -q --status awaiting_payment --all | <%= config.bin %> charges cancel -',
    '<%= config.bin %> charges cancel 6650a1b2c3d4e5f60718293a 6650a1b2c3d4e5f60718293b --json',
  ]

  static override args = {
    ids: Args.string({ description: 'Charge ids, or - to read them from stdin (one per line).', multiple: true, ignoreStdin: true }),
  }

  static override flags = { quiet: quietFlag('the ids of the charges canceled') }

  async run(): Promise<void> {
    const given = (this.args.ids as string[] | undefined) ?? []
    const fromStdin = given.includes('-')
    if (fromStdin && given.length > 1) throw new UsageError('Pass ids as arguments or `-` for stdin, not both.', { field: 'ID' })
    if (fromStdin && this.io.isStdinTTY)
      throw new UsageError('`-` reads ids from stdin, but stdin is a terminal.', { field: 'ID', hint: 'Pipe the ids in: svc charges list -q --status awaiting_payment --all | svc charges cancel -' })
    const lines = fromStdin ? await readStdinLines(this.io.stdin) : given
    // Like `xargs -r`: a pipeline that found nothing to cancel is not a failure (set -e scripts go on).
    if (fromStdin && lines.length === 0) return this.note('no charge ids on stdin; nothing to cancel')
    const ids = normalizeIds(lines, fromStdin ? 'on stdin' : 'as arguments')
    const client = await this.client()
    if (this.io.isStderrTTY && !this.flags.json) this.note(`${await this.badge('err')} canceling ${ids.length} charge${ids.length === 1 ? '' : 's'}`)
    const worst = await cancelCharges(
      ids,
      (id) => client.cancelCharge(id),
      (r) => this.report(r),
    )
    if (this.canceled > 0 && this.io.isStderrTTY && !this.flags.json) {
      this.warnUser("a canceled charge's QR stays payable (the provider cannot invalidate it): remove it from the payer's view. A late payment still goes through.")
    }
    if (worst !== EXIT.ok) throw new SilentExit(worst)
  }

  private canceled = 0

  private report(r: CancelResult): void {
    if (r.ok) {
      this.canceled++
      if (this.flags.json) this.printJsonLine(r.charge)
      else if (this.flags.quiet) this.io.out(`${r.id}\n`)
      else this.io.out(`${r.id}\t${this.io.isStdoutTTY ? paintStatus(painter(this.io.color), r.charge.status) : r.charge.status}\n`)
      return
    }
    const err = r.error
    if (this.flags.json) {
      const body = err instanceof ApiError ? err.toBody() : { error: { code: (err as { code?: string }).code ?? 'internal_error', message: err.message } }
      this.printJsonLine({ ...body, id: r.id }, 'err')
      return
    }
    const paint = painter(this.io.colorErr)
    const code = (err as { code?: string }).code ?? 'internal_error'
    const requestId = err instanceof ApiError && err.requestId ? ` ${paint('dim', `(requestId ${safeText(err.requestId)})`)}` : ''
    this.io.err(`${r.id}\t${paint('red', 'Error')} [${safeText(code)}]: ${safeText(err.message)}${requestId}\n`)
  }
}
