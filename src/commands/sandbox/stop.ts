import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import { sandboxTarget, sandboxTargetFlags } from '../../lib/command-kit/sandbox-target.js'
import { timeoutFlagMs } from '../../lib/command-kit/timeout.js'
import { CliError } from '../../lib/errors.js'
import { EXIT } from '../../lib/contract/errors.js'
import { probeSandbox } from '../../lib/sandbox-client/client.js'
import { runState, staleWords, stopRunning } from '../../lib/services/sandbox-runfile.js'

/** What happened, and the line that says so on stderr. */
type StopResult = ({ stopped: false; running: false } | { stopped: true; pid: number; baseUrl: string }) & { note: string }

export default class SandboxStop extends BaseCommand<typeof SandboxStop, StopResult> {
  static override summary = 'Stop the local sandbox running on a data dir, letting deliveries in flight finish.'
  static override description =
    'Sends SIGTERM to the sandbox named by its pid file (as Ctrl+C would) and waits until it has exited: webhook deliveries ' +
    'in flight finish, pending retries stay in the database for the next start. With nothing running it says so and exits 0 ' +
    '(a pid file left by a sandbox that died is removed), so a CI cleanup step can always call it. It signals only a process ' +
    'proven to be that sandbox (the start time recorded in the pid file, or the nonce of that start echoed at its URL): a ' +
    'pid the OS has since given to another program is never signalled. If it has not exited ' +
    'within --timeout, exit 1.'

  static override examples = ['<%= config.bin %> sandbox stop', '<%= config.bin %> sandbox stop --data ./.sandbox', '<%= config.bin %> sandbox stop --in-memory --timeout 1m']

  static override flags = {
    ...sandboxTargetFlags,
    timeout: Flags.string({ description: 'How long to wait for it to exit, e.g. 30s, 2m.', default: '30s' }),
  }

  async run(): Promise<StopResult> {
    const target = sandboxTarget(this.flags, this.io.env)
    const waitMs = timeoutFlagMs(this.flags.timeout)
    const state = await runState(target.dir, { clean: true, probe: (url) => probeSandbox(url) })
    if (state.kind !== 'running') {
      const died = state.kind === 'stale' ? ` (the one started ${state.info.startedAt}, pid ${state.info.pid}, ${staleWords(state.reason)}; its pid file was removed)` : ''
      return { stopped: false, running: false, note: `No sandbox runs on ${target.inMemory ? 'in-memory sandboxes' : target.dataDir}${died}.` }
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

  protected override toJson({ note: _, ...json }: StopResult): unknown {
    return json
  }

  protected override render(r: StopResult): void {
    this.note(r.note)
  }
}
