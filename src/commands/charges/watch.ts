import { Args, Flags } from '@oclif/core'
import { ApiCommand } from '../../lib/command-kit/api.js'
import { parseDuration } from '../../lib/domain/time.js'
import { UsageError } from '../../lib/errors.js'

export default class ChargesWatch extends ApiCommand<typeof ChargesWatch> {
  static override summary = 'Watch charges move through their states, live (polling the API).'
  static override description =
    'On a terminal: a lane per charge (created → awaiting_payment → paid_pending_settlement → settled, and any other state ' +
    "it reaches), updated by polling GET /v1/charges; a split charge's lane ends with the division (split ✓ 2 parts), its " +
    "details list each share. Times are on the service's clock, dated when not from that day. Keys: ↑/↓ select, Enter " +
    'details, q quit. Piped: one line per status ' +
    'change, `updatedAt TAB id TAB status TAB grossInCents` (--json: the Charge), and with named charges it ends once all ' +
    'of them are in a final state (settled, expired, canceled, failed, refunded). Exit 4 when a named charge does not exist.'

  static override examples = [
    '<%= config.bin %> charges watch',
    '<%= config.bin %> charges watch 65f1c0ffee0123456789abcd --interval 1s',
    '<%= config.bin %> charges watch "$(<%= config.bin %> charges create --amount 1500 -q)" --json | jq -r .status',
  ]

  static override args = {
    ids: Args.string({ description: 'Charge ids to watch (default: the newest charges).', multiple: true, ignoreStdin: true }),
  }

  static override flags = {
    interval: Flags.string({ description: 'Time between polls, e.g. 2s, 500ms.', default: '2s' }),
    limit: Flags.integer({ description: 'How many of the newest charges to watch when no id is given.', default: 10, min: 1, max: 100 }),
  }

  async run(): Promise<void> {
    const ids = ((this.args.ids as string[] | undefined) ?? []).map((a) => a.trim()).filter(Boolean)
    const bad = ids.find((id) => !/^[0-9a-f]{24}$/.test(id))
    if (bad) throw new UsageError(`"${bad}" is not a charge id (24 hexadecimal characters).`, { field: 'id' })
    const intervalMs = parseDuration(this.flags.interval)
    if (intervalMs === undefined || intervalMs < 200) throw new UsageError('--interval must be a duration of at least 200ms, e.g. 2s.', { field: 'interval' })
    const client = await this.client()
    const { environment } = await this.credentials()
    const { runWatch } = await import('../../lib/services/watch.js')
    const tui = this.io.isStdoutTTY && this.io.isStdinTTY && !this.flags.json
    await runWatch({ client, ids, recent: this.flags.limit, intervalMs, tui, json: Boolean(this.flags.json), io: this.io, environment })
  }
}
