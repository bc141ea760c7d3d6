/**
 * The one place that decides TTY, colour and prompt ability. Data goes to stdout; everything
 * else (spinners, hints, warnings) to stderr. Tests swap the IO with `setIO`.
 */
import type { Readable, Writable } from 'node:stream'
import { isatty } from 'node:tty'

export interface IO {
  stdout: Writable
  stderr: Writable
  stdin: Readable
  env: NodeJS.ProcessEnv
  isStdoutTTY: boolean
  isStderrTTY: boolean
  isStdinTTY: boolean
  /** Colour on stdout (TTY, no NO_COLOR, no --no-color). */
  color: boolean
  /** Colour on stderr. */
  colorErr: boolean
  /** Whether a prompt may be shown: stdin and stderr are TTYs and CI is not set. */
  canPrompt: boolean
  /** Terminal width, 80 when unknown. */
  columns: number
  out(text: string): void
  err(text: string): void
}

export interface IOInit {
  stdout?: Writable
  stderr?: Writable
  stdin?: Readable
  env?: NodeJS.ProcessEnv
  isStdoutTTY?: boolean
  isStderrTTY?: boolean
  isStdinTTY?: boolean
  noColor?: boolean
  columns?: number
}

export function createIO(init: IOInit = {}): IO {
  const stdout = init.stdout ?? process.stdout
  const stderr = init.stderr ?? process.stderr
  const env = init.env ?? process.env
  const isStdoutTTY = init.isStdoutTTY ?? Boolean((stdout as { isTTY?: boolean }).isTTY)
  const isStderrTTY = init.isStderrTTY ?? Boolean((stderr as { isTTY?: boolean }).isTTY)
  // Asked of the descriptor, not the stream: process.stdin is made at its first use, and making it
  // for a command that never reads it (a file or pipe loads Node's fs streams, fs/promises and
  // readline: ~2 ms of `charges get`) is what the getter below saves.
  const isStdinTTY = init.isStdinTTY ?? (init.stdin ? Boolean((init.stdin as { isTTY?: boolean }).isTTY) : isatty(0))
  const noColor = init.noColor || env.NO_COLOR !== undefined || env.TERM === 'dumb'
  const forceColor = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0'
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0'
  return {
    stdout,
    stderr,
    get stdin() {
      return init.stdin ?? process.stdin
    },
    env,
    isStdoutTTY,
    isStderrTTY,
    isStdinTTY,
    color: !noColor && (forceColor || isStdoutTTY),
    colorErr: !noColor && (forceColor || isStderrTTY),
    canPrompt: isStdinTTY && isStderrTTY && !ci,
    columns: init.columns ?? ((stdout as { columns?: number }).columns || 80),
    out: (text) => void stdout.write(text),
    err: (text) => void stderr.write(text),
  }
}

let current: IO | undefined

export function getIO(): IO {
  current ??= createIO()
  return current
}

/** For tests and for `--no-color`: replace the process IO. */
export function setIO(io: IO | undefined): void {
  current = io
}
