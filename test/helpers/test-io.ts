/**
 * The one fake IO for tests (like gh's `iostreams.Test()`): an IO whose stdout and stderr are
 * captured into strings as they are written, and whose terminal-ness, width, environment and
 * stdin are chosen by the test.
 *
 *   const t = testIO({ tty: true, columns: 80 })
 *   Cmd.runWith(argv, ROOT, { io: t.io })  // a command, its run's terminal; or pass t.io to a function that takes one
 *   …
 *   expect(t.out()).toBe('…'); expect(t.err()).toContain('…')
 */
import { Readable, Writable } from 'node:stream'
import { createIO, type IO } from '../../src/lib/output/io.js'

/** A stream that keeps what is written to it, synchronously; `on('text')` hears each write. */
export class Capture extends Writable {
  text = ''
  isTTY: boolean
  columns: number
  constructor(isTTY: boolean, columns: number) {
    super({ decodeStrings: false })
    this.isTTY = isTTY
    this.columns = columns
  }
  override _write(chunk: string | Uint8Array, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
    this.text += text
    this.emit('text', text)
    done()
  }
}

export interface TestIOOptions {
  /** stdout and stderr are terminals (and stdin, unless `stdinTTY` or `stdin` say otherwise). Default false. */
  tty?: boolean
  stdinTTY?: boolean
  /** stderr alone (default: as `tty`): a terminal whose stderr goes to a file. */
  stderrTTY?: boolean
  /** Terminal width. Default 100. */
  columns?: number
  /** The environment the IO sees (CI, NO_COLOR, …). Default: none. */
  env?: NodeJS.ProcessEnv
  /** What stdin yields: a string, or a stream of the test's own (a fake terminal with raw mode). Default: empty. */
  stdin?: string | Readable
  noColor?: boolean
  /** Streams of the test's own instead of captures (a fake screen that keeps frames). */
  stdout?: Writable
  stderr?: Writable
}

export interface TestIO {
  io: IO
  stdin: Readable
  stdout: Capture
  stderr: Capture
  /** What was written to stdout so far. */
  out(): string
  /** What was written to stderr so far. */
  err(): string
}

export function testIO(opts: TestIOOptions = {}): TestIO {
  const tty = opts.tty ?? false
  const columns = opts.columns ?? 100
  const stdout = new Capture(tty, columns)
  const stderrTTY = opts.stderrTTY ?? tty
  const stderr = new Capture(stderrTTY, columns)
  const stdin = typeof opts.stdin === 'object' ? opts.stdin : Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)])
  const stdinTTY = opts.stdinTTY ?? (typeof opts.stdin === 'object' ? Boolean((opts.stdin as { isTTY?: boolean }).isTTY) : tty && opts.stdin === undefined)
  const io = createIO({
    stdout: opts.stdout ?? stdout,
    stderr: opts.stderr ?? stderr,
    stdin,
    env: opts.env ?? {},
    isStdoutTTY: tty,
    isStderrTTY: stderrTTY,
    isStdinTTY: stdinTTY,
    noColor: opts.noColor,
    columns,
  })
  return { io, stdin, stdout, stderr, out: () => stdout.text, err: () => stderr.text }
}
