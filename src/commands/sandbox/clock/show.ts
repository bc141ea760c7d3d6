import { formatLocalTime } from '../../../lib/domain/time.js'
import { painter } from '../../../lib/output/color.js'
import { PanelCommand } from '../../../lib/command/sandbox-panel.js'
import { formatIn } from '../../../lib/sandbox-client/views.js'

export default class SandboxClockShow extends PanelCommand<typeof SandboxClockShow> {
  static override summary = 'Show the sandbox\'s clock: its time, speed and lead over the wall clock.'
  static override description =
    'The sandbox keeps its own clock, which drives QR expiry, the settlement hold and webhook retries. It runs at --speed times ' +
    'wall time and jumps ahead with `svc sandbox clock advance`. Piped: the RFC 3339 time alone.'

  static override examples = ['<%= config.bin %> sandbox clock show', '<%= config.bin %> sandbox clock show --json | jq -r .now']

  async run(): Promise<void> {
    const clock = await (await this.panel()).getClock()
    if (this.flags.json) return this.printJson(clock)
    if (!this.io.isStdoutTTY) return this.io.out(`${clock.now}\n`)
    const paint = painter(this.io.color)
    const lead = Date.parse(clock.now) - Date.now()
    const ahead = Math.abs(lead) < 2000 ? 'in step with the wall clock' : `${formatIn(lead).replace(/^in /, '')} ahead of the wall clock`
    this.io.out(`${paint('bold', formatLocalTime(clock.now))}  ${paint('dim', `${clock.now} · ${ahead} · speed ${clock.speed}×`)}\n`)
  }
}
