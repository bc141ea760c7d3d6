/**
 * Which sandbox runs on a data dir: `sandbox.pid.json` beside its database (or, for an in-memory
 * sandbox, in `<config dir>/sandbox-memory/`). Claimed atomically before the database is opened,
 * so a second start on the same data dir is refused naming the running one; a file left by a
 * process that died (kill -9, a crash) is detected by its pid and cleaned. Holds no secret.
 *
 * A pid alone proves nothing: once the sandbox died the OS may give its pid to any other program.
 * So the file also holds the process's start time (Linux: /proc/PID/stat field 22) and a random
 * nonce of this start that the sandbox echoes at `GET /_sandbox/info` (`instance`). `status`,
 * `stop` and `start` call a process the sandbox only when that identity is proven; otherwise the
 * file is stale and no signal is ever sent to the process that now has the pid.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { configDir } from '../config/store.js'
import { CliError, EXIT } from '../errors.js'
import { writePrivateFile } from '../config/private-file.js'

export const RUN_FILE = 'sandbox.pid.json'
export const LOG_FILE = 'sandbox.log'
/** A detached extra in-memory sandbox's log until it has a run dir of its own (then it moves there as sandbox.log). */
export const PENDING_LOG_PREFIX = 'sandbox.pending-'
/** A sandbox this young that does not answer yet is still starting, not stale. */
const STARTING_GRACE_MS = 30_000

export interface RunInfo {
  pid: number
  /** Empty while it starts (before it listens). */
  baseUrl: string
  /** Undefined for an in-memory sandbox. */
  dataDir?: string
  startedAt: string
  version: string
  detached: boolean
  /** The detached sandbox's log (stdout and stderr). */
  log?: string
  /** Random per start; the sandbox echoes it as `instance` at `GET /_sandbox/info`. */
  nonce?: string
  /** The process's start time in clock ticks since boot (/proc/PID/stat field 22), where /proc exists. */
  procStart?: string
}

/** What answers at a sandbox's URL: a sandbox (with the nonce of its start), something else, or nothing. */
export type Probe = (baseUrl: string) => Promise<{ kind: 'sandbox'; instance?: string } | { kind: 'other' } | { kind: 'unreachable' }>

/** Why a run file does not name a running sandbox. */
export type StaleReason = 'dead' | 'reused' | 'unproven'

/** A sandbox's data dir: the one given (--data), else `sandbox` in the config dir; none in memory. */
export function sandboxDataDir(opts: { dataDir?: string; inMemory?: boolean; env: NodeJS.ProcessEnv }): string | undefined {
  return opts.inMemory ? undefined : (opts.dataDir ?? join(configDir(opts.env), 'sandbox'))
}

/** Where the run file of a sandbox lives: its data dir, or the in-memory sandboxes' own dir. */
export function runDir(opts: { dataDir?: string; inMemory?: boolean; env: NodeJS.ProcessEnv }): string {
  return sandboxDataDir(opts) ?? join(configDir(opts.env), 'sandbox-memory')
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
  // A process killed (kill -9) whose parent has not reaped it yet still takes signals: on Linux
  // its state in /proc says it is a zombie, which is dead for us.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true
  }
}

/** When process `pid` started, in clock ticks since boot (/proc/PID/stat field 22); undefined without /proc. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3]
  } catch {
    return undefined
  }
}

export function readRunFile(dir: string): RunInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(join(dir, RUN_FILE), 'utf8')) as RunInfo
    return Number.isInteger(info.pid) && info.pid > 0 ? info : undefined
  } catch {
    return undefined
  }
}

export type RunState = { kind: 'none' } | { kind: 'stale'; info: RunInfo; reason: StaleReason } | { kind: 'running'; info: RunInfo }

/**
 * What the run file says, checked: `running` only when its process is proven to be the sandbox
 * that wrote it (same start time, or its URL echoes the file's nonce), `stale` when it died or
 * its pid now belongs to another program. A stale file is removed when `clean` is set.
 */
export async function runState(dir: string, opts: { clean?: boolean; probe?: Probe } = {}): Promise<RunState> {
  const info = readRunFile(dir)
  if (!info) return { kind: 'none' }
  const reason = await staleReason(info, opts.probe)
  if (reason === undefined) return { kind: 'running', info }
  if (opts.clean) removeRunFile(dir, info.pid)
  return { kind: 'stale', info, reason }
}

/** Undefined when `info` names a sandbox that runs; else why not. */
async function staleReason(info: RunInfo, probe: Probe | undefined): Promise<StaleReason | undefined> {
  if (!isAlive(info.pid)) return 'dead'
  const now = processStartTime(info.pid)
  // Where /proc exists, the start time decides: the same pid started at another tick is another
  // process, the same pid and tick is the sandbox itself (busy, hung or still starting alike).
  if (info.procStart !== undefined && now !== undefined) return info.procStart === now ? undefined : 'reused'
  // A file without a nonce was not written by a start of this version (or by svc at all): nothing proves whose pid it is.
  if (!info.nonce) return 'unproven'
  if (info.baseUrl && probe) {
    const answer = await probe(info.baseUrl)
    // Another sandbox (or any server) on the old port is not this one, whatever the pid does.
    if (answer.kind === 'sandbox') return answer.instance === info.nonce ? undefined : 'reused'
    return answer.kind === 'other' ? 'reused' : 'unproven'
  }
  // Still starting (no URL yet) and no /proc to ask: trust the pid for a short while only.
  return !info.baseUrl && Date.now() - Date.parse(info.startedAt) <= STARTING_GRACE_MS ? undefined : 'unproven'
}

/** The words for a stale run file's process, for status and stop. */
/** The sandbox's own answer at its URL (the panel client's probe), loaded only when a run file is there to prove. */
export const panelProbe: Probe = async (baseUrl) => (await import('../sandbox-client/panel-client.js')).probeSandbox(baseUrl)

/** runState as the commands use it: identity proven through the sandbox's own URL, a stale run file removed. */
export function provenRunState(dir: string): Promise<RunState> {
  return runState(dir, { clean: true, probe: panelProbe })
}

/** provenRunState of each run dir (the in-memory sandboxes: the first's and every extra one's), in their order. */
export async function provenRunStates(dirs: readonly string[]): Promise<Array<{ dir: string; state: RunState }>> {
  return Promise.all(dirs.map(async (dir) => ({ dir, state: await provenRunState(dir) })))
}

export function staleWords(reason: StaleReason): string {
  if (reason === 'dead') return 'had died'
  if (reason === 'reused') return 'is gone (its pid or its port now belongs to another program, which was left alone)'
  return 'cannot be proven to run (its pid now belongs to a process that is not that sandbox, which was left alone)'
}

export function alreadyRunning(info: RunInfo): CliError {
  const where = info.baseUrl || '(still starting)'
  const what = info.dataDir ? `A sandbox already runs on the data dir ${info.dataDir}` : 'An in-memory sandbox already runs'
  const named = info.dataDir ? ` --data ${info.dataDir}` : ' --in-memory'
  return new CliError(`${what}: pid ${info.pid} at ${where}, since ${info.startedAt}.`, {
    exitCode: EXIT.conflict,
    code: 'sandbox_running',
    hint: `Use it (\`svc sandbox status${named}\`), stop it (\`svc sandbox stop${named}\`), or start another one with another --data DIR, or with --in-memory.`,
  })
}

let extraSeq = 0
/**
 * An in-memory sandbox keeps nothing another one could clash with but its port, which listening
 * checks: a second one (parallel CI jobs on one runner) runs beside the first. The first keeps
 * `sandbox-memory/sandbox.pid.json` (what `svc sandbox status|stop --in-memory` name); each other
 * one gets a run file in a directory of its own, `sandbox-memory/<pid>-<n>/`.
 */
export function extraMemoryRunDir(memoryDir: string): string {
  // The directories of extra sandboxes whose process died (kill -9) go on the way.
  for (const name of safeReaddir(memoryDir)) {
    const pid = /^(\d+)-\d+$/.exec(name)?.[1]
    if (pid && Number(pid) !== process.pid && !isAlive(Number(pid))) rmSync(join(memoryDir, name), { recursive: true, force: true })
  }
  return join(memoryDir, `${process.pid}-${extraSeq++}`)
}

/**
 * The run dirs of every in-memory sandbox (`svc sandbox status|stop --in-memory` read them all):
 * the first's, `sandbox-memory/` itself, then each extra one's `sandbox-memory/<pid>-<n>/`, in
 * the order they were made (by pid, then n). A dir whose run file is gone reads as `none`.
 */
export function memoryRunDirs(memoryDir: string): string[] {
  const extras = safeReaddir(memoryDir)
    .map((name) => ({ name, m: /^(\d+)-(\d+)$/.exec(name) }))
    .filter((e): e is { name: string; m: RegExpExecArray } => e.m !== null)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]) || Number(a.m[2]) - Number(b.m[2]))
  return [memoryDir, ...extras.map((e) => join(memoryDir, e.name))]
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

export interface RunClaim {
  /** The directory of the run file: the data dir, or an in-memory sandbox's own. */
  dir: string
  /** Records where it listens, once it does. */
  ready(baseUrl: string, log?: string): void
  /** Removes the run file (only if it is still this process's). */
  release(): void
  /** A run file left by a process that had died, cleaned on the way. */
  stale?: RunInfo
  /** This start's nonce, for the sandbox to echo at `GET /_sandbox/info`. */
  nonce: string
}

/** Claims the data dir for this process; a live sandbox already there is a conflict (exit 5). */
export async function claimRunFile(dir: string, base: Omit<RunInfo, 'pid' | 'baseUrl' | 'startedAt' | 'nonce' | 'procStart'>, probe?: Probe, opts: { ownDir?: boolean } = {}): Promise<RunClaim> {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = join(dir, RUN_FILE)
  const nonce = randomBytes(16).toString('hex')
  const procStart = processStartTime(process.pid)
  const info: RunInfo = { pid: process.pid, baseUrl: '', startedAt: new Date().toISOString(), ...base, nonce, ...(procStart ? { procStart } : {}) }
  let stale: RunInfo | undefined
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, JSON.stringify(info))
      closeSync(fd)
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 2) throw err
      const state = await runState(dir, { probe })
      if (state.kind === 'running') throw alreadyRunning(state.info)
      if (state.kind === 'stale') stale = state.info
      removeRunFile(dir, state.kind === 'stale' ? state.info.pid : undefined)
    }
  }
  let current = info
  return {
    dir,
    stale,
    nonce,
    ready(baseUrl, log) {
      current = { ...current, baseUrl, ...(log ? { log } : {}) }
      writePrivateFile(path, JSON.stringify(current))
    },
    release() {
      removeRunFile(dir, process.pid)
      // A directory made for this run file alone (an extra in-memory sandbox's) goes with it,
      // unless it holds that sandbox's log (then it goes when the next extra one starts).
      if (opts.ownDir && !existsSync(join(dir, LOG_FILE))) rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Sends SIGTERM to a running sandbox (as runState proved it: never a process that took its pid) (its own clean stop: deliveries in flight finish) and waits
 * until the process is gone; false when it is still there after `waitMs`. Then frees the data dir.
 */
export async function stopRunning(dir: string, info: RunInfo, waitMs: number): Promise<boolean> {
  process.kill(info.pid, 'SIGTERM')
  const deadline = Date.now() + waitMs
  while (isAlive(info.pid)) {
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 50))
  }
  removeRunFile(dir, info.pid)
  return true
}

/** Removes the run file, only when it is `pid`'s (or unreadable, when pid is undefined). */
export function removeRunFile(dir: string, pid: number | undefined): void {
  const info = readRunFile(dir)
  if (pid !== undefined && info && info.pid !== pid) return
  try {
    unlinkSync(join(dir, RUN_FILE))
  } catch {
    // already gone
  }
}
