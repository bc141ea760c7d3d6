import { BaseCommand } from '../../lib/command-kit/base.js'
import { sandboxTarget, sandboxTargetFlags } from '../../lib/command-kit/sandbox-target.js'
import { EXIT } from '../../lib/contract/errors.js'
import { formatLocalTime, relativeTime } from '../../lib/domain/time.js'
import { painter } from '../../lib/output/color.js'
import { probeSandbox } from '../../lib/sandbox-client/client.js'
import { runState, staleWords } from '../../lib/services/sandbox-runfile.js'
import type { IO } from '../../lib/output/io.js'

type SandboxStatusResult =
  | { running: false; dataDir: string | null; hint: string }
  | { running: true; pid: number; baseUrl: string | null; dataDir: string | null; startedAt: string; version: string; detached: boolean; log: string | null }

export default class SandboxStatus extends BaseCommand<typeof SandboxStatus, SandboxStatusResult> {
  static override summary = 'Say whether a local sandbox runs on a data dir: where, with which data, since when.'
  static override description =
    'Reads the pid file `svc sandbox start` keeps beside the database and checks that its process lives and answers. Exit 0 ' +
    'when it runs, 4 when none does (a pid file left by a sandbox that died is reported and removed). A pid alone proves ' +
    'nothing: the sandbox counts as running only when its process has the start time recorded in the pid file (Linux) or ' +
    'its URL echoes the nonce of that start; a pid the OS gave to another program is reported and the file removed. --json: {"running", ' +
    '"pid", "baseUrl", "dataDir", "startedAt", "version", "detached", "log"}; piped: `field<TAB>value` lines.'

  static override examples = [
    '<%= config.bin %> sandbox status',
    '<%= config.bin %> sandbox status --json | jq -r .baseUrl',
    '<%= config.bin %> sandbox status >/dev/null || <%= config.bin %> sandbox start --detach',
    '<%= config.bin %> sandbox status --data ./.sandbox',
  ]

  static override flags = { ...sandboxTargetFlags }

  async run(): Promise<SandboxStatusResult> {
    const target = sandboxTarget(this.flags, this.io.env)
    const state = await runState(target.dir, { clean: true, probe: (url) => probeSandbox(url) })
    const where = target.inMemory ? 'in-memory sandboxes' : target.dataDir
    if (state.kind !== 'running') {
      if (state.kind === 'stale') this.note(`The sandbox of ${where} ${staleWords(state.reason)} (pid ${state.info.pid}, started ${state.info.startedAt}); its pid file was removed.`)
      this.failAfterOutput(EXIT.notFound)
      return { running: false, dataDir: target.dataDir ?? null, hint: `No sandbox runs on ${where}. Start one with \`svc sandbox start --detach${target.args}\`.` }
    }
    const { info } = state
    return { running: true, pid: info.pid, baseUrl: info.baseUrl || null, dataDir: info.dataDir ?? null, startedAt: info.startedAt, version: info.version, detached: info.detached, log: info.log ?? null }
  }

  protected override toJson(r: SandboxStatusResult): unknown {
    if (!r.running) return { running: false, dataDir: r.dataDir }
    return r
  }

  protected override render(r: SandboxStatusResult, io: IO): void {
    if (!r.running) return io.out(io.isStdoutTTY ? `${r.hint}\n` : 'running\tfalse\n')
    if (!io.isStdoutTTY)
      return io.out(
        Object.entries(r)
          .map(([k, v]) => `${k}\t${v ?? ''}\n`)
          .join(''),
      )
    const info = r
    const paint = painter(io.color)
    const rows: Array<[string, string]> = [
      ['Base URL', paint('bold', info.baseUrl || 'starting…')],
      ['Data', info.dataDir ?? paint('yellow', 'in memory')],
      ['Since', `${formatLocalTime(info.startedAt)} (${relativeTime(new Date(info.startedAt), new Date(), { happened: true })})`],
      ['Process', `pid ${info.pid}${info.detached ? ', in the background' : ', in a terminal'}`],
      ['Version', info.version],
    ]
    if (info.log) rows.push(['Log', info.log])
    const width = Math.max(...rows.map(([k]) => k.length))
    io.out(`${paint(['bold', 'inverse', 'green'], ' SANDBOX ')} ${paint('bold', 'running')}\n\n${rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}`).join('\n')}\n`)
  }
}
