/**
 * Runs an oclif command class in-process with a fake terminal: captures stdout/stderr, sets
 * TTY-ness, feeds stdin, and returns the exit code the binary would have exited with.
 */
import { PassThrough, Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Errors } from '@oclif/core'
import { createIO, setIO } from '../../src/lib/output/io.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface RunOptions {
  /** Simulate a terminal on stdout, stderr and stdin (default: piped, as in CI). */
  tty?: boolean
  /** Stderr's TTY-ness when it differs from the others' (`2>log` on a terminal). */
  stderrTty?: boolean
  stdin?: string
  env?: Record<string, string | undefined>
  columns?: number
}

export interface RunResult {
  stdout: string
  stderr: string
  exitCode: number
}

function collector(isTTY: boolean, columns: number) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number }
  stream.isTTY = isTTY
  stream.columns = columns
  const chunks: Buffer[] = []
  stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)))
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
}

export interface RunnableCommand {
  run(argv?: string[], opts?: string): Promise<unknown>
}

export async function runCommand(cmd: RunnableCommand, argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const tty = opts.tty ?? false
  const out = collector(tty, opts.columns ?? 100)
  const stderrTty = opts.stderrTty ?? tty
  const err = collector(stderrTty, opts.columns ?? 100)
  const stdin = Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]) as Readable & { isTTY?: boolean }
  stdin.isTTY = tty && opts.stdin === undefined
  const env: NodeJS.ProcessEnv = { ...process.env, ...(tty ? {} : { CI: 'true' }) }
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  setIO(createIO({ stdout: out.stream, stderr: err.stream, stdin, env, isStdoutTTY: tty, isStderrTTY: stderrTty, isStdinTTY: stdin.isTTY, columns: opts.columns ?? 100 }))
  let exitCode = 0
  try {
    await cmd.run(argv, ROOT)
  } catch (error) {
    if (error instanceof Errors.ExitError) exitCode = error.oclif.exit ?? 1
    else throw error
  } finally {
    setIO(undefined)
  }
  await new Promise((r) => setImmediate(r))
  return { stdout: out.text(), stderr: err.text(), exitCode }
}
