import { formatLocalTime } from '../../../lib/domain/time.js'
import { painter } from '../../../lib/output/color.js'
import { PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { formatIn } from '../../../lib/sandbox-client/views.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelClock } from '../../../lib/sandbox-client/client.js'

export default class SandboxClockShow extends PanelCommand<typeof SandboxClockShow, PanelClock> {
  static override summary = "Show the sandbox's clock: its time, speed and lead over the wall clock."
  static override description =
    'The sandbox keeps its own clock, which drives QR expiry, the settlement hold and webhook retries. It runs at --speed times ' +
    'wall time and jumps ahead with `svc sandbox clock advance`. Piped: the RFC 3339 time alone.'

  static override examples = ['<%= config.bin %> sandbox clock show', '<%= config.bin %> sandbox clock show --json | jq -r .now']

  async run(): Promise<PanelClock> {
    return (await this.panel()).getClock()
  }

  protected override render(clock: PanelClock, io: IO): void {
    if (!io.isStdoutTTY) return io.out(`${clock.now}\n`)
    const paint = painter(io.color)
    const lead = Date.parse(clock.now) - Date.now()
    const ahead = Math.abs(lead) < 2000 ? 'in step with the wall clock' : `${formatIn(lead).replace(/^in /, '')} ahead of the wall clock`
    io.out(`${paint('bold', formatLocalTime(clock.now))}  ${paint('dim', `${clock.now} · ${ahead} · speed ${clock.speed}×`)}\n`)
  }
}
