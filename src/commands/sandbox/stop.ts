import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { inMemoryHint, sandboxTarget, sandboxTargetFlags } from '../../lib/command-kit/sandbox-target.js'
import { timeoutFlagMs } from '../../lib/command-kit/timeout.js'
import { CliError, EXIT } from '../../lib/errors.js'
import { memoryRunDirs, provenRunState, provenRunStates, type RunInfo, staleWords, stopRunning } from '../../lib/sandbox-client/runfile.js'

/** What happened, and the line that says so on stderr. With --all: every sandbox stopped (none: stopped false). */
type StopResult = ({ stopped: false; running: false } | { stopped: true; pid: number; baseUrl: string } | { stopped: boolean; sandboxes: Array<{ pid: number; baseUrl: string }> }) & { note: string }

export default class SandboxStop extends BaseCommand<typeof SandboxStop, StopResult> {
  static override summary = 'Stop the local sandbox running on a data dir, letting deliveries in flight finish.'
  static override description =
    'Sends SIGTERM to the sandbox named by its pid file (as Ctrl+C would) and waits until it has exited: webhook deliveries ' +
    'in flight finish, pending retries stay in the database for the next start. With nothing running it says so and exits 0 ' +
    '(a pid file left by a sandbox that died is removed), so a CI cleanup step can always call it. It signals only a process ' +
    'proven to be that sandbox (the start time recorded in the pid file, or the nonce of that start echoed at its URL): a ' +
    'pid the OS has since given to another program is never signalled. If it has not exited ' +
    'within --timeout, exit 1. --in-memory stops the first in-memory sandbox (the one whose run file is in ' +
    '<config dir>/sandbox-memory/); --in-memory --all stops every one that runs (each proven as above), all at once, and ' +
    'with --json prints {"stopped": true|false, "sandboxes": [{"pid", "baseUrl"}]}. Without --in-memory, when nothing runs on ' +
    'the data dir but an in-memory sandbox does, it leaves that one alone and says so, naming --in-memory.'

  static override examples = [
    '<%= config.bin %> sandbox stop',
    '<%= config.bin %> sandbox stop --data ./.sandbox',
    '<%= config.bin %> sandbox stop --in-memory --timeout 1m',
    '<%= config.bin %> sandbox stop --in-memory --all',
  ]

  static override flags = {
    ...sandboxTargetFlags,
    timeout: Flags.string({ description: 'How long to wait for it to exit, e.g. 30s, 2m.', default: '30s' }),
    all: Flags.boolean({ description: 'With --in-memory: stop every in-memory sandbox that runs, not only the first.', relationships: [{ type: 'all', flags: ['in-memory'] }] }),
  }

  async run(): Promise<StopResult> {
    const target = sandboxTarget(this.flags, this.io.env)
    const waitMs = timeoutFlagMs(this.flags.timeout)
    if (this.flags.all) return this.stopAll(target.dir, waitMs)
    const state = await provenRunState(target.dir)
    if (state.kind !== 'running') {
      const died = state.kind === 'stale' ? ` (the one started ${state.info.startedAt}, pid ${state.info.pid}, ${staleWords(state.reason)}; its pid file was removed)` : ''
      const others = target.inMemory ? await this.othersInMemory(target.dir) : await inMemoryHint(target, this.io.env, 'stop').then((h) => (h ? `\n${h}` : ''))
      const none = target.inMemory && others ? 'The first in-memory sandbox does not run' : `No sandbox runs on ${target.inMemory ? 'in-memory sandboxes' : target.dataDir}`
      return { stopped: false, running: false, note: `${none}${died}.${others}` }
    }
    const { info } = state
    if (!(await stopRunning(target.dir, info, waitMs))) {
      throw new CliError(`The sandbox (pid ${info.pid}) has not exited within ${this.flags.timeout}.`, {
        exitCode: EXIT.unexpected,
        code: 'sandbox_not_stopped',
        hint: `It may still be finishing deliveries: check with \`svc sandbox status${target.args}\`, or end it with \`kill -9 ${info.pid}\`.`,
      })
    }
    return { stopped: true, pid: info.pid, baseUrl: info.baseUrl, note: `Stopped the sandbox at ${info.baseUrl || '(starting)'} (pid ${info.pid}).` }
  }

  /** The extra in-memory sandboxes that run while the first does not: said, so nobody thinks they are all gone. */
  private async othersInMemory(memoryDir: string): Promise<string> {
    const extra = await this.runningIn(memoryRunDirs(memoryDir).slice(1))
    if (extra.length === 0) return ''
    return ` ${extra.length} other in-memory sandbox${extra.length === 1 ? '' : 'es'} run${extra.length === 1 ? 's' : ''} (pid ${extra.map((e) => e.info.pid).join(', ')}): stop ${extra.length === 1 ? 'it' : 'them'} with \`svc sandbox stop --in-memory --all\`.`
  }

  /** The sandboxes proven to run in these run dirs (stale run files are removed on the way). */
  private async runningIn(dirs: string[]): Promise<Array<{ dir: string; info: RunInfo }>> {
    return (await provenRunStates(dirs)).flatMap(({ dir, state }) => (state.kind === 'running' ? [{ dir, info: state.info }] : []))
  }

  /** --in-memory --all: every in-memory sandbox, signalled at once, each waited for. */
  private async stopAll(memoryDir: string, waitMs: number): Promise<StopResult> {
    const found = await this.runningIn(memoryRunDirs(memoryDir))
    const results = await Promise.all(found.map(async ({ dir, info }) => ({ info, exited: await stopRunning(dir, info, waitMs) })))
    const stuck = results.filter((r) => !r.exited).map((r) => r.info.pid)
    if (stuck.length > 0) {
      throw new CliError(`${stuck.length} of ${results.length} in-memory sandboxes (pid ${stuck.join(', ')}) have not exited within ${this.flags.timeout}.`, {
        exitCode: EXIT.unexpected,
        code: 'sandbox_not_stopped',
        hint: `They may still be finishing deliveries: check with \`svc sandbox status --in-memory\`, or end them with \`kill -9 ${stuck.join(' ')}\`.`,
      })
    }
    const sandboxes = results.map(({ info }) => ({ pid: info.pid, baseUrl: info.baseUrl }))
    const note = sandboxes.length === 0 ? 'No in-memory sandbox runs.' : sandboxes.map((s) => `Stopped the sandbox at ${s.baseUrl || '(starting)'} (pid ${s.pid}).`).join('\n')
    return { stopped: sandboxes.length > 0, sandboxes, note }
  }

  protected override toJson({ note: _, ...json }: StopResult): unknown {
    return json
  }

  protected override render(r: StopResult): void {
    this.note(r.note)
  }
}
