import { BaseCommand } from '../../lib/command-kit/base.js'
import { inMemoryHint, sandboxTarget, sandboxTargetFlags } from '../../lib/command-kit/sandbox-target.js'
import { EXIT } from '../../lib/errors.js'
import { formatLocalTime, relativeTime } from '../../lib/domain/time.js'
import { painter } from '../../lib/output/color.js'
import { memoryRunDirs, provenRunStates, type RunInfo, staleWords } from '../../lib/sandbox-client/runfile.js'
import type { IO } from '../../lib/output/io.js'

type RunningSandbox = { running: true; pid: number; baseUrl: string | null; dataDir: string | null; startedAt: string; version: string; detached: boolean; log: string | null }

/** With --in-memory and several running: the first one's object, and the rest in `others` (absent when only one runs). */
type SandboxStatusResult = { running: false; dataDir: string | null; hint: string } | (RunningSandbox & { others?: RunningSandbox[] })

function running(info: RunInfo): RunningSandbox {
  return { running: true, pid: info.pid, baseUrl: info.baseUrl || null, dataDir: info.dataDir ?? null, startedAt: info.startedAt, version: info.version, detached: info.detached, log: info.log ?? null }
}

export default class SandboxStatus extends BaseCommand<typeof SandboxStatus, SandboxStatusResult> {
  static override summary = 'Say whether a local sandbox runs on a data dir: where, with which data, since when.'
  static override description =
    'Reads the pid file `svc sandbox start` keeps beside the database and checks that its process lives and answers. Exit 0 ' +
    'when it runs, 4 when none does (a pid file left by a sandbox that died is reported and removed). A pid alone proves ' +
    'nothing: the sandbox counts as running only when its process has the start time recorded in the pid file (Linux) or ' +
    'its URL echoes the nonce of that start; a pid the OS gave to another program is reported and the file removed. --json: {"running", ' +
    '"pid", "baseUrl", "dataDir", "startedAt", "version", "detached", "log"}; piped: `field<TAB>value` lines. With --in-memory it ' +
    'reports every in-memory sandbox that runs (several may, each started with --in-memory --port 0): exit 0 when any runs. ' +
    'The first (the one `svc sandbox stop --in-memory` stops, else the oldest) is the object above, as when it runs alone, and ' +
    'when more run --json adds "others": an array of the same objects, so a script reading .baseUrl keeps working; piped, ' +
    'one `field<TAB>value` block each, separated by a blank line; on a terminal, one panel each. Without --in-memory, when ' +
    'no sandbox runs on the data dir but an in-memory one does, it says so and names --in-memory (on stderr when piped or ' +
    'with --json; the exit stays 4).'

  static override examples = [
    '<%= config.bin %> sandbox status',
    '<%= config.bin %> sandbox status --json | jq -r .baseUrl',
    '<%= config.bin %> sandbox status >/dev/null || <%= config.bin %> sandbox start --detach',
    '<%= config.bin %> sandbox status --data ./.sandbox',
    "<%= config.bin %> sandbox status --in-memory --json | jq -r '.baseUrl, .others[]?.baseUrl'",
  ]

  static override flags = { ...sandboxTargetFlags }

  async run(): Promise<SandboxStatusResult> {
    const target = sandboxTarget(this.flags, this.io.env)
    const where = target.inMemory ? 'in-memory sandboxes' : target.dataDir
    // In memory, the first's run dir and every extra one's; else the data dir's alone.
    const dirs = target.inMemory ? memoryRunDirs(target.dir) : [target.dir]
    const states = (await provenRunStates(dirs)).map((s) => s.state)
    const found: RunningSandbox[] = []
    for (const state of states) {
      if (state.kind === 'running') found.push(running(state.info))
      if (state.kind === 'stale') this.note(`The sandbox of ${where} ${staleWords(state.reason)} (pid ${state.info.pid}, started ${state.info.startedAt}); its pid file was removed.`)
    }
    // The first's own (sandbox-memory/, states[0]) stays first; the extra ones follow in the order they started.
    const own = states[0]?.kind === 'running' ? found.slice(0, 1) : []
    const [first, ...others] = [...own, ...found.slice(own.length).sort((a, b) => a.startedAt.localeCompare(b.startedAt))]
    if (!first) {
      this.failAfterOutput(EXIT.notFound)
      // Only an in-memory one runs: say so (on stderr when stdout is piped or JSON, whose shape stays).
      const memory = await inMemoryHint(target, this.io.env, 'status')
      if (memory && (this.flags.json || !this.io.isStdoutTTY)) this.note(memory)
      return { running: false, dataDir: target.dataDir ?? null, hint: `No sandbox runs on ${where}.${memory ? `\n${memory}` : ` Start one with \`svc sandbox start --detach${target.args}\`.`}` }
    }
    return others.length > 0 ? { ...first, others } : first
  }

  protected override toJson(r: SandboxStatusResult): unknown {
    if (!r.running) return { running: false, dataDir: r.dataDir }
    return r
  }

  protected override render(r: SandboxStatusResult, io: IO): void {
    if (!r.running) return io.out(io.isStdoutTTY ? `${r.hint}\n` : 'running\tfalse\n')
    const { others = [], ...first } = r
    const all = [first, ...others]
    if (!io.isStdoutTTY)
      return io.out(
        all
          .map((one) =>
            Object.entries(one)
              .map(([k, v]) => `${k}\t${v ?? ''}\n`)
              .join(''),
          )
          .join('\n'),
      )
    io.out(all.map((one) => this.panel(one, io)).join('\n'))
  }

  /** One sandbox on a terminal. */
  private panel(info: RunningSandbox, io: IO): string {
    const paint = painter(io.color)
    const rows: Array<[string, string]> = [
      ['Base URL', paint('bold', info.baseUrl || 'starting…')],
      ['Data', info.dataDir ?? paint('yellow', 'in memory')],
      ['Since', `${formatLocalTime(info.startedAt)} (${relativeTime(new Date(info.startedAt), this.now(), { happened: true })})`],
      ['Process', `pid ${info.pid}${info.detached ? ', in the background' : ', in a terminal'}`],
      ['Version', info.version],
    ]
    if (info.log) rows.push(['Log', info.log])
    const width = Math.max(...rows.map(([k]) => k.length))
    return `${paint(['bold', 'inverse', 'green'], ' SANDBOX ')} ${paint('bold', 'running')}\n\n${rows.map(([k, v]) => `  ${paint('dim', k.padEnd(width))}  ${v}`).join('\n')}\n`
  }
}
