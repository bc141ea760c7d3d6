/**
 * Runs the built `svc` binary as a user would (a real process), for end-to-end tests.
 * `npm test` builds first, so dist/ and the manifest are current.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { ROOT } from './run-command.js'

export const BIN = `${ROOT}bin/run.js`

export interface CliResult {
  stdout: string
  stderr: string
  exitCode: number
}

export async function svc(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: cliEnv(opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  child.stdin.end(opts.stdin ?? '')
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 15_000)
  const [code] = (await once(child, 'close')) as [number | null]
  clearTimeout(timer)
  return { stdout, stderr, exitCode: code ?? -1 }
}

function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: undefined }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  return env
}

export interface Background {
  child: ChildProcess
  /** The first stdout line, parsed as JSON (e.g. the sandbox banner or the listener's first line). */
  first: Record<string, unknown>
  lines: AsyncIterableIterator<string>
  stderr: () => string
  stop(): Promise<number | null>
}

/** Starts a long-running command (sandbox, listener) and waits for its first JSON line on stdout. */
export async function svcBackground(args: string[], opts: { env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<Background> {
  const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c))
  const rl = createInterface({ input: child.stdout! })
  const lines = rl[Symbol.asyncIterator]()
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 15_000)
  const next = await lines.next()
  clearTimeout(timer)
  if (next.done) throw new Error(`svc ${args.join(' ')} exited before it was ready:\n${stderr}`)
  return {
    child,
    first: JSON.parse(next.value) as Record<string, unknown>,
    lines,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return child.exitCode
      child.kill('SIGTERM')
      const [code] = (await once(child, 'close')) as [number | null]
      return code
    },
  }
}
