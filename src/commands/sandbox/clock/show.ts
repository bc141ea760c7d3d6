import { formatLocalTime } from '../../../lib/domain/time.js'
import { painter } from '../../../lib/output/color.js'
import { PanelCommand } from '../../../lib/command-kit/sandbox-panel.js'
import { formatIn } from '../../../lib/sandbox-client/panel-view.js'
import type { IO } from '../../../lib/output/io.js'
import type { PanelClock } from '../../../lib/sandbox-client/panel-client.js'

/** The panel's clock, and how far it runs ahead of this machine's wall clock (negative: behind), in whole ms. */
type ClockResult = PanelClock & { leadMs: number }

export default class SandboxClockShow extends PanelCommand<typeof SandboxClockShow, ClockResult> {
  static override summary = "Show the sandbox's clock: its time, speed and lead over the wall clock."
  static override description =
    'The sandbox keeps its own clock, which drives QR expiry, the settlement hold and webhook retries. It runs at --speed times ' +
    'wall time and jumps ahead with `svc sandbox clock advance`. --json: {"now", "speed", "leadMs"}, leadMs being the ' +
    'sandbox time minus the wall time of this machine when the answer came, in whole milliseconds (negative if behind). ' +
    'Piped: one line, the sandbox time alone in RFC 3339 (UTC); the speed and lead are in --json.'

  static override examples = ['<%= config.bin %> sandbox clock show', '<%= config.bin %> sandbox clock show --json | jq -r .now', '<%= config.bin %> sandbox clock show --json | jq .leadMs']

  async run(): Promise<ClockResult> {
    const clock = await (await this.panel()).getClock()
    return { now: clock.now, speed: clock.speed, leadMs: Math.round(Date.parse(clock.now) - this.factory.clock.now()) }
  }

  protected override render(clock: ClockResult, io: IO): void {
    if (!io.isStdoutTTY) return io.out(`${clock.now}\n`)
    const paint = painter(io.color)
    const lead = clock.leadMs
    const ahead = Math.abs(lead) < 2000 ? 'in step with the wall clock' : `${formatIn(lead).replace(/^in /, '')} ahead of the wall clock`
    io.out(`${paint('bold', formatLocalTime(clock.now))}  ${paint('dim', `${clock.now} · ${ahead} · speed ${clock.speed}×`)}\n`)
  }
}
