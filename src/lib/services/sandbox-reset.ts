/**
 * `svc sandbox reset`: empties a sandbox's data, keeping its keys, secret, plan and webhook URLs.
 * A running sandbox is reset in place through its panel; a stopped one on disk.
 */
import { UsageError } from '../errors.js'
import { hasSandboxData } from '../sandbox/store/files.js'
import type { RunState } from '../sandbox-client/runfile.js'

export interface SandboxResetOptions {
  /** The data dir named (--data, or the default), or an in-memory sandbox. */
  target: { dataDir?: string; inMemory: boolean }
  /** Whether a sandbox runs on the target, and where (`runState`). */
  state: RunState
  /** --yes: do not ask. */
  yes: boolean
  canPrompt: boolean
  confirm: (question: string) => Promise<boolean>
  /** The panel of the running sandbox, and the base URL the credentials used point at. */
  panel: () => Promise<{ baseUrl: string; reset(): Promise<unknown> }>
}

export interface SandboxResetResult {
  /** False when the user said no at the prompt. */
  reset: boolean
  running: boolean
  /** What was (or would have been) emptied, for humans. */
  where: string
}

export async function runSandboxReset(opts: SandboxResetOptions): Promise<SandboxResetResult> {
  const { target, state } = opts
  const running = state.kind === 'running'
  const where = running ? `the sandbox at ${state.info.baseUrl}` : target.inMemory ? '' : `the sandbox data in ${target.dataDir}`
  if (!running && target.inMemory) {
    throw new UsageError('No in-memory sandbox is running: there is nothing to reset (its data goes when it stops).', { field: 'in-memory' })
  }
  if (!running && !hasSandboxData(target.dataDir!)) {
    throw new UsageError(`No sandbox data in ${target.dataDir}: nothing to reset.`, { field: 'data', hint: 'Name the data dir the sandbox uses with --data DIR.' })
  }
  if (!opts.yes) {
    if (!opts.canPrompt) throw new UsageError(`Resetting empties ${where}: pass --yes to confirm (no terminal to ask on).`, { field: 'yes' })
    if (!(await opts.confirm(`Empty ${where} (charges, events, deliveries)? Keys and secret stay.`))) return { reset: false, running, where }
  }
  if (state.kind === 'running') {
    const panel = await opts.panel()
    if (panel.baseUrl.replace(/\/+$/, '') !== state.info.baseUrl) {
      throw new UsageError(`The sandbox profile points at ${panel.baseUrl}, but the running sandbox is at ${state.info.baseUrl}.`, {
        hint: `Pass --base-url ${state.info.baseUrl} with one of its keys (SVC_API_KEY), or restart it so it writes the profiles again.`,
      })
    }
    await panel.reset()
  } else (await import('../sandbox/sandbox.js')).resetDataDir(target.dataDir!)
  return { reset: true, running, where }
}
