import { Args } from '@oclif/core'
import { formatLocalTime, parseDuration } from '../../../lib/domain/time.js'
import { UsageError } from '../../../lib/errors.js'
import { painter } from '../../../lib/output/color.js'
import { PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import type { IO } from '../../../lib/output/io.js'

export default class SandboxClockAdvance extends PanelCommand<typeof SandboxClockAdvance, { now: string }> {
  static override summary = "Move the sandbox's clock forward; expiries, settlements and webhook retries that fall due run at once."
  static override description =
    'Jumps the sandbox clock ahead by DURATION (90s, 10m, 25h, 1h30m, 2d) and returns once everything that fell due has run, in ' +
    'order: QR expiries, settlements after the hold, and webhook retries with their deactivation after 24 h. Each runs at its own ' +
    'instant and each webhook attempt is answered (or times out) before the next instant, so every retry due before a deactivation ' +
    'goes out and nothing after it is sent. The clock only moves forward. Prints the new sandbox time.'

  static override examples = [
    '<%= config.bin %> sandbox clock advance 25h',
    '<%= config.bin %> sandbox clock advance 90s --json',
    '<%= config.bin %> sandbox clock advance 1h30m && <%= config.bin %> charges get 01a20320a200000000000007',
  ]

  static override args = { duration: Args.string({ description: 'How far to move: 90s, 10m, 25h, 1h30m, 2d.', required: true }) }

  async run(): Promise<{ now: string }> {
    const ms = parseDuration(this.args.duration)
    if (ms === undefined || ms < 1) {
      throw new UsageError(`DURATION must be a duration such as 90s, 10m or 25h, not "${this.args.duration}".`, { field: 'duration' })
    }
    return (await this.panel()).advanceClock(ms)
  }

  protected override render(result: { now: string }, io: IO): void {
    if (!io.isStdoutTTY) return io.out(`${result.now}\n`)
    io.out(`Sandbox clock moved ${this.args.duration} ahead: ${painter(io.color)('bold', formatLocalTime(result.now))}\n`)
  }
}
