/**
 * `svc sandbox start --detach`: the same command started again as a background process of its own
 * session (so closing the terminal does not stop it), its stdout and stderr appended to
 * sandbox.log beside its database. The child sends its ready output over an IPC channel once it
 * serves; the parent prints it and returns. If the child fails first, it sends its error the same
 * way (message, code, hint, exit code), which becomes the parent's; a child that dies without one
 * leaves its error lines in the log, read from there. Both ends of that hand-off live here: the
 * parent's (`startDetached`) and the child's (`detachedChild`, `sendDetachedError`).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { packageRoot } from '../config/package.js'
import type { ErrorDetail } from '../contract/schemas.js'
import type { NextStep } from '../next-step.js'
import { CliError, environmentError, EXIT, type ExitCode } from '../errors.js'
import type { SandboxReady } from './sandbox-start.js'
import { LOG_FILE, PENDING_LOG_PREFIX, alreadyRunning, panelProbe, readRunFile, runDir, runState } from '../sandbox-client/runfile.js'

/** Set in the child's environment: the path of its log file. */
export const DETACHED_ENV = 'SVC_SANDBOX_DETACHED'
const READY_TIMEOUT_MS = 30_000

/** What the child sends: its ready output, or the error it ends with before it was ready. */
export type DetachedMessage = { ready: SandboxReady } | { error: DetachedError }

export interface DetachedError {
  message: string
  code: string
  exitCode: ExitCode
  hint?: string
  next?: NextStep
  details?: ErrorDetail[]
}

export interface DetachedSandbox extends SandboxReady {
  pid: number
  log: string
  /** How to stop it: `svc sandbox stop` with the flags that name it, or `kill PID` (a clean stop too). */
  stopCommand: string
  /** Also stops this one, with the others of its kind (an extra in-memory sandbox). */
  stopAllCommand?: string
}

/** The child's end of the hand-off, in a process `startDetached` started (else undefined). */
export interface DetachedChild {
  /** Hands the ready output to the parent, which prints it, and lets the parent go. */
  sendReady(ready: SandboxReady): void
}

/**
 * This process's end of the hand-off if `--detach` started it: it then outlives the terminal the
 * parent ran in (a hang-up no longer stops it; SIGTERM and SIGINT still do).
 */
export function detachedChild(env: NodeJS.ProcessEnv): DetachedChild | undefined {
  if (env[DETACHED_ENV] === undefined || typeof process.send !== 'function') return undefined
  process.on('SIGHUP', () => {})
  return { sendReady: (ready) => void process.send!({ ready } satisfies DetachedMessage, () => process.disconnect()) }
}

/** The log file a detached child writes to (its environment names it). */
export function detachedLogFile(env: NodeJS.ProcessEnv): string | undefined {
  return env[DETACHED_ENV] || undefined
}

/**
 * Started by `--detach` and not ready yet: the error goes to the parent over IPC too (message,
 * code, hint, exit code), which shows it as the foreground would, whatever this log's format.
 */
export async function sendDetachedError(env: NodeJS.ProcessEnv, err: Error): Promise<void> {
  if (env[DETACHED_ENV] === undefined || typeof process.send !== 'function' || !process.connected) return
  const e = err instanceof CliError ? err : environmentError(err)
  if (!e) return
  const error: DetachedError = { message: e.message, code: e.code, exitCode: e.exitCode, ...(e.hint ? { hint: e.hint } : {}), ...(e.next ? { next: e.next } : {}), ...(e.details ? { details: e.details } : {}) }
  await new Promise<void>((resolve) => process.send!({ error } satisfies DetachedMessage, () => resolve()))
}

/** Forks `svc sandbox start` as a background child, which runs `runSandboxStart` (sandbox-start.ts) there. */
export async function startDetached(opts: { argv: string[]; dataDir?: string; inMemory?: boolean; env: NodeJS.ProcessEnv }): Promise<DetachedSandbox> {
  const dir = runDir({ dataDir: opts.dataDir, inMemory: opts.inMemory, env: opts.env })
  // In memory, another one runs beside a first one (only the port can clash, and the child checks it).
  const state = await runState(dir, { probe: panelProbe })
  if (state.kind === 'running' && !opts.inMemory) throw alreadyRunning(state.info)

  mkdirSync(dir, { recursive: true, mode: 0o700 })
  // An extra in-memory one gets a log of its own, which it moves beside its own run file.
  const log = join(dir, opts.inMemory && state.kind === 'running' ? `${PENDING_LOG_PREFIX}${randomBytes(6).toString('hex')}.log` : LOG_FILE)
  const fd = openSync(log, 'a', 0o600)
  const offset = statSync(log).size
  const child = spawn(process.execPath, [...entryArgs(), 'sandbox', 'start', ...opts.argv], {
    detached: true,
    stdio: ['ignore', fd, fd, 'ipc'],
    env: { ...opts.env, [DETACHED_ENV]: log },
  })
  closeSync(fd)
  try {
    const ready = await new Promise<SandboxReady>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGTERM')
        reject(new CliError(`The sandbox did not become ready within ${READY_TIMEOUT_MS / 1000} s; see its log: ${log}`, { exitCode: EXIT.unexpected, code: 'sandbox_not_ready' }))
      }, READY_TIMEOUT_MS)
      child.once('message', (m: DetachedMessage) => {
        clearTimeout(timer)
        if ('ready' in m) resolve(m.ready)
        else {
          // An extra in-memory sandbox that never started: its own log says nothing the error does not.
          if (basename(log).startsWith(PENDING_LOG_PREFIX)) rmSync(log, { force: true })
          reject(new CliError(m.error.message, { exitCode: m.error.exitCode, code: m.error.code, hint: m.error.hint, next: m.error.next, details: m.error.details }))
        }
      })
      // 'close', not 'exit': it comes after the IPC channel closed, so an error sent just before exiting has arrived.
      child.once('close', (code) => {
        clearTimeout(timer)
        reject(childFailed(log, offset, code))
      })
      child.once('error', (err) => {
        clearTimeout(timer)
        reject(err)
      })
    })
    // An extra in-memory sandbox (one already ran) is not the one `stop --in-memory` names: its pid is.
    // `stop --in-memory --all` stops every in-memory one, this one included.
    const extra = opts.inMemory && readRunFile(dir)?.pid !== child.pid
    const stopCommand = !opts.inMemory ? `svc sandbox stop${opts.dataDir ? ` --data ${opts.dataDir}` : ''}` : extra ? `kill ${child.pid}` : 'svc sandbox stop --in-memory'
    return { ...ready, pid: child.pid!, log: ready.log ?? log, stopCommand, ...(extra ? { stopAllCommand: 'svc sandbox stop --in-memory --all' } : {}) }
  } finally {
    child.removeAllListeners()
    if (child.connected) child.disconnect()
    child.unref()
  }
}

/** How to run this same CLI again: the package's bin/run.js, or nothing more in a single executable. */
function entryArgs(): string[] {
  if (isSingleExecutable()) return []
  const root = packageRoot()
  return root ? [join(root, 'bin', 'run.js')] : [process.argv[1]!]
}

function isSingleExecutable(): boolean {
  try {
    // node:sea exists from Node 20; isSea() is true inside a single executable application.
    const sea = process.getBuiltinModule?.('node:sea') as { isSea?: () => boolean } | undefined
    return sea?.isSea?.() === true
  } catch {
    return false
  }
}

/** The child ended before it was ready: its own error lines (from the log) and exit code. */
function childFailed(log: string, offset: number, code: number | null): CliError {
  let text = ''
  try {
    text = readFileSync(log, 'utf8').slice(offset)
  } catch {
    // no log to show
  }
  const lines = text.split('\n').filter(Boolean)
  const error = lines.find((l) => l.startsWith('Error'))
  const hint = lines
    .find((l) => l.startsWith('Hint:'))
    ?.slice('Hint:'.length)
    .trim()
  const message = error ? error.replace(/^Error( \[[\w-]+\])?: /, '') : `The background sandbox exited (code ${code ?? 'none'}) before it was ready; see ${log}.`
  return new CliError(message, { exitCode: (code && code > 0 && code < 9 ? code : EXIT.unexpected) as ExitCode, code: /\[([\w-]+)\]/.exec(error ?? '')?.[1] ?? 'sandbox_failed', hint })
}
