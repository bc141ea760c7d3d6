/**
 * The flags that name a sandbox by where it keeps its data (`svc sandbox status|stop|reset`):
 * `--data DIR`, `--in-memory`, or the default data dir, as `svc sandbox start` took them.
 */
import { Flags } from '@oclif/core'
import { configDir } from '../config/store.js'
import { runDir } from '../services/sandbox-runfile.js'
import { join } from 'node:path'

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
  const dataDir = inMemory ? undefined : (flags.data ?? join(configDir(env), 'sandbox'))
  return {
    dir: runDir({ dataDir, inMemory, env }),
    dataDir,
    inMemory,
    args: inMemory ? ' --in-memory' : flags.data ? ` --data ${flags.data}` : '',
  }
}
