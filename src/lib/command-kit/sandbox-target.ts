/**
 * The flags that name a sandbox by where it keeps its data (`svc sandbox status|stop|reset`):
 * `--data DIR`, `--in-memory`, or the default data dir, as `svc sandbox start` took them.
 */
import { Flags } from '@oclif/core'
import { memoryRunDirs, panelProbe, runDir, runState, sandboxDataDir } from '../sandbox-client/runfile.js'

export const sandboxTargetFlags = {
  data: Flags.string({ description: 'The data directory the sandbox was started with (default: <config dir>/sandbox).', helpValue: 'DIR', exclusive: ['in-memory'] }),
  'in-memory': Flags.boolean({ description: 'The sandbox started with --in-memory.', exclusive: ['data'] }),
}

export interface SandboxTarget {
  /** Where its run file is. */
  dir: string
  /** Its data dir; undefined in memory. */
  dataDir?: string
  inMemory: boolean
  /** The flags to name it again in a hint (` --data DIR`, ` --in-memory`, or nothing). */
  args: string
}

export function sandboxTarget(flags: { data?: string; 'in-memory'?: boolean }, env: NodeJS.ProcessEnv): SandboxTarget {
  const inMemory = Boolean(flags['in-memory'])
  const dataDir = sandboxDataDir({ dataDir: flags.data, inMemory, env })
  return {
    dir: runDir({ dataDir, inMemory, env }),
    dataDir,
    inMemory,
    args: inMemory ? ' --in-memory' : flags.data ? ` --data ${flags.data}` : '',
  }
}

/**
 * When a command named a data dir (by default or --data) and no sandbox runs there, but an
 * in-memory one does (`svc sandbox start --in-memory`), the sentence that says so, naming
 * --in-memory and the command to run (`verb`: `status`, `stop`); '' otherwise. It only looks:
 * a stale in-memory run file is left for the --in-memory commands to report.
 */
export async function inMemoryHint(target: SandboxTarget, env: NodeJS.ProcessEnv, verb: 'status' | 'stop'): Promise<string> {
  if (target.inMemory) return ''
  const states = await Promise.all(memoryRunDirs(runDir({ inMemory: true, env })).map((dir) => runState(dir, { probe: panelProbe })))
  const found = states.flatMap((s) => (s.kind === 'running' ? [s.info] : []))
  if (found.length === 0) return ''
  const which = found.length === 1 ? `An in-memory sandbox runs at ${found[0]!.baseUrl || '(starting)'} (pid ${found[0]!.pid})` : `${found.length} in-memory sandboxes run (pid ${found.map((f) => f.pid).join(', ')})`
  const how = verb === 'stop' ? `stop ${found.length === 1 ? 'it' : 'them'} with \`svc sandbox stop --in-memory${found.length > 1 ? ' --all' : ''}\`` : 'see it with `svc sandbox status --in-memory`'
  return `${which}: ${how}.`
}
