/**
 * Runs an oclif command class in-process with a fake terminal: captures stdout/stderr, sets
 * TTY-ness, feeds stdin, and returns the exit code the binary would have exited with.
 */
import { fileURLToPath } from 'node:url'
import type { Readable } from 'node:stream'
import { Errors } from '@oclif/core'
import type { CommandFactory } from '../../src/lib/command-kit/factory.js'
import { setIO } from '../../src/lib/output/io.js'
import { testIO } from './test-io.js'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface RunOptions {
  /** Simulate a terminal on stdout, stderr and stdin (default: piped, as in CI). */
  tty?: boolean
  /** Stderr's TTY-ness when it differs from the others' (`2>log` on a terminal). */
  stderrTty?: boolean
  /** What stdin yields; or a stream of the test's own (a fake terminal with raw mode, for prompts). */
  stdin?: string | Readable
  /** Stdin's TTY-ness with `stdin` given (a terminal the user types or pastes into). */
  stdinTty?: boolean
  env?: Record<string, string | undefined>
  columns?: number
  noColor?: boolean
  /** Parts of this run's factory (command-kit/factory.ts): a fake clock, clients that record their back-off. The terminal is the fake one above. */
  factory?: Partial<Omit<CommandFactory, 'io'>>
}

export interface RunResult {
  stdout: string
  stderr: string
  exitCode: number
}

export interface RunnableCommand {
  run(argv?: string[], opts?: string): Promise<unknown>
  /** BaseCommand's: a run with a factory handed in. */
  runWith?(argv: string[], root: string, parts: Partial<CommandFactory>): Promise<unknown>
}

/**
 * A `runCommand` whose runs all get these factory parts (a test file's clients that record their
 * back-off), merged under the parts a single run hands in.
 */
export function commandRunner(parts: Partial<Omit<CommandFactory, 'io'>>): typeof runCommand {
  return (cmd, argv, opts = {}) => runCommand(cmd, argv, { ...opts, factory: { ...parts, ...opts.factory } })
}

export async function runCommand(cmd: RunnableCommand, argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const tty = opts.tty ?? false
  const env: NodeJS.ProcessEnv = { ...process.env, ...(tty ? {} : { CI: 'true' }) }
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  const t = testIO({ tty, stderrTTY: opts.stderrTty, stdinTTY: opts.stdinTty, columns: opts.columns ?? 100, env, stdin: opts.stdin, noColor: opts.noColor })
  // The terminal goes in the run's factory; the global IO too, for what runs outside a command (hooks).
  setIO(t.io)
  let exitCode = 0
  try {
    if (cmd.runWith) await cmd.runWith(argv, ROOT, { ...opts.factory, io: t.io })
    else await cmd.run(argv, ROOT)
  } catch (error) {
    if (error instanceof Errors.ExitError) exitCode = error.oclif.exit ?? 1
    else throw error
  } finally {
    setIO(undefined)
  }
  await new Promise((r) => setImmediate(r))
  return { stdout: t.out(), stderr: t.err(), exitCode }
}
