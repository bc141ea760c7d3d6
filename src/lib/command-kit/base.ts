/**
 * The base of every command: parses the shared flags, sets up IO, and holds the one `catch`
 * that maps typed errors to stderr output and the exit codes of CLI.md.
 */
import { Command, Config, Errors, Flags, type Interfaces } from '@oclif/core'
import { onConfigWarning } from '../config/store.js'
import { CliError, environmentError, EXIT, type ExitCode, InputValueError } from '../errors.js'
import { redact } from '../config/mask.js'
import { painter } from '../output/color.js'
import { createIO, getIO, type IO } from '../output/io.js'
import { type ListOutput, type ListSource, type ListView, printList } from '../output/list-printer.js'
import { type ListFlagValues, listOutput } from './list-flags.js'
import { safeText } from '../output/safe-text.js'
import { type CommandContext, describeParseError } from './parse-error.js'
import { type CommandFactory, systemFactory } from './factory.js'
import { cliHintOf } from './next-step-words.js'

/**
 * `-q`, `--quiet`: only the id(s) the command printed, one per line, for `$(…)` and pipes. Every
 * command that prints the id of what it made, moved or read takes it (CLI.md: scripts chain them).
 */
export function quietFlag(what: string, alsoExcludes: string[] = []) {
  // `alsoExcludes`: the command's other output flags, so that a -q declared before them draws one group in the usage line.
  return Flags.boolean({ char: 'q', description: `Print only ${what}, one per line.`, exclusive: ['json', ...alsoExcludes], helpGroup: 'OUTPUT' })
}

export type BaseFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>
export type BaseArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

/**
 * A command's `run()` returns its typed result and prints nothing of it: the base prints it, as
 * JSON for `--json` (`toJson`, the API object by default) or through the command's `render`
 * beside it (the terminal or piped view). Commands that stream return nothing and write as they
 * go: lists through `printList` (one printer for every format), live views and servers themselves. sf-plugins-core's `SfCommand<T>` is the model.
 */
export abstract class BaseCommand<T extends typeof Command, R = void> extends Command {
  static override baseFlags = {
    json: Flags.boolean({ description: 'Print the result as JSON: exactly the API object (errors too, on stderr).', helpGroup: 'OUTPUT' }),
    'no-color': Flags.boolean({ description: 'Turn off colours (also NO_COLOR=1).', helpGroup: 'OUTPUT' }),
    // Every command takes --profile, so a script can pass the same flags to all of them; the
    // commands that read a profile redefine it with what they read from it.
    profile: Flags.string({ char: 'p', description: 'Profile to use (or SVC_PROFILE); accepted by every command, read where a profile matters.', helpGroup: 'GLOBAL' }),
  }

  protected flags!: BaseFlags<T>
  protected args!: BaseArgs<T>
  protected io!: IO
  /** The terminal, the clock and the clients' makers of this run (tests hand in their own: `runWith`). */
  protected factory!: CommandFactory
  /** Set by `failAfterOutput`: reported once the result is printed. */
  private failure?: Error | ExitCode

  abstract override run(): Promise<R>

  /** The human view of the result: a terminal view, or machine-friendly lines when piped. */
  protected render(_result: R, _io: IO): void | Promise<void> {}

  /** What `--json` prints for the result (undefined: nothing). */
  protected toJson(result: R): unknown {
    return result
  }

  /**
   * Ends the command with this error (or bare exit code) after its result is printed: a --wait
   * that ended in another state still shows the charge, then fails.
   */
  protected failAfterOutput(failure: Error | ExitCode): void {
    this.failure = failure
  }

  /**
   * Runs the command as `run` does, with the parts of its factory a caller hands in (a test's
   * terminal, clock, clients) for this one run: no global to override and reset.
   */
  static async runWith(this: unknown, argv: string[], root: string, parts: Partial<CommandFactory>): Promise<unknown> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass being run, not BaseCommand
    const ctor = this as (new (argv: string[], config: Config) => BaseCommand<typeof Command, unknown>) & { name: string; id?: string }
    const cmd = new ctor(argv, await Config.load(root))
    // As oclif's static `run` does for a class run outside its manifest.
    if (!cmd.id) cmd.id = cmd.ctor.id = ctor.name.toLowerCase()
    cmd.factory = systemFactory(parts)
    return cmd._run()
  }

  public override async _run<U>(): Promise<U> {
    const result = (await super._run()) as R
    if (result !== undefined) await this.present(result)
    const failure = this.failure
    if (failure !== undefined) {
      if (typeof failure === 'number') throw new Errors.ExitError(failure)
      await this.catch(failure)
    }
    return result as unknown as U
  }

  private async present(result: R): Promise<void> {
    if (this.flags?.json) {
      const json = this.toJson(result)
      if (json !== undefined) this.printJson(json)
    } else await this.render(result, this.io)
  }

  public override async init(): Promise<void> {
    await super.init()
    this.factory ??= systemFactory()
    this.io = this.factory.io
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as BaseFlags<T>
    this.args = args as BaseArgs<T>
    onConfigWarning((text) => this.warnUser(text))
    if (this.flags['no-color']) {
      this.io = createIO({ ...this.io, noColor: true })
      this.factory = { ...this.factory, io: this.io }
    }
  }

  /** Prints one JSON value on stdout: indented on a terminal (or always, `pretty`), compact when piped. */
  protected printJson(value: unknown, opts: { pretty?: boolean } = {}): void {
    this.io.out(`${JSON.stringify(value, null, opts.pretty || this.io.isStdoutTTY ? 2 : undefined)}\n`)
  }

  /**
   * One compact JSON value on one line (NDJSON's shape), on stdout or stderr: the results a batch
   * reports as it goes, a server's address and log lines. Commands print no JSON of their own.
   */
  protected printJsonLine(value: unknown, to: 'out' | 'err' = 'out'): void {
    this.io[to](`${JSON.stringify(value)}\n`)
  }

  /**
   * A listing command's format and CSV options, read once from its shared list flags
   * (list-flags.ts): call it before sending anything, so a bad --separator is exit 2 with nothing sent.
   */
  protected listOutput(): ListOutput {
    this.chosenListOutput ??= listOutput(this.flags as ListFlagValues, this.io)
    return this.chosenListOutput
  }

  private chosenListOutput?: ListOutput

  /**
   * Writes a list as it is read (the rows of `source`, never collected) in the format the output
   * flags chose (`listOutput`), through the one list printer; returns how many rows it wrote.
   */
  protected printList<I>(source: ListSource<I>, view: ListView<I>): Promise<number> {
    return printList(this.io, source, view, this.listOutput())
  }

  /** Now, on this run's clock (a test's fake one): commands never read the machine's clock themselves. */
  protected now(): Date {
    return new Date(this.factory.clock.now())
  }

  /** A note for humans on stderr (never on stdout, so pipes stay clean). */
  protected note(text: string): void {
    this.io.err(`${text}\n`)
  }

  protected warnUser(text: string): void {
    const paint = painter(this.io.colorErr)
    this.io.err(`${paint('yellow', 'Warning:')} ${text}\n`)
  }

  /** Ends the command with this exit code, after it printed its own output. */
  protected exitWith(code: ExitCode): never {
    throw new Errors.ExitError(code)
  }

  protected override async catch(err: Error & { oclif?: { exit?: number }; exitCode?: number }): Promise<never> {
    if (err instanceof Errors.ExitError) throw err
    const io = this.io ?? getIO()
    // A parse error leaves no flags: look for --json in this command's own argv.
    const json = Boolean(this.flags?.json) || (this.argv ?? process.argv).includes('--json')
    const { exitCode } = renderError(err, io, json, this.commandContext())
    if (io.env.SVC_DEBUG === '1' && exitCode === EXIT.unexpected && err.stack && !(err instanceof CliError)) {
      io.err(`${err.stack}\n`)
    }
    throw new Errors.ExitError(exitCode)
  }

  /** `svc charges get` and its flags, for the hint of a parse error. */
  private commandContext(): CommandContext {
    const id = (this.id ?? this.ctor.id ?? '').replaceAll(':', ' ')
    const flags = { ...this.ctor.baseFlags, ...this.ctor.flags }
    return { usage: id ? `${this.config.bin} ${id}` : this.config.bin, flags, argv: this.argv }
  }
}

/** Writes an error to stderr in the CLI.md shape and returns its exit code. */
export function renderError(err: Error & { oclif?: { exit?: number } }, io: IO, json: boolean, command?: CommandContext): { code: string; exitCode: ExitCode } {
  const paint = painter(io.colorErr)
  // A file the environment refused (permissions, a file in the way, a full disk) is no bug in svc.
  if (!(err instanceof CliError)) err = environmentError(err) ?? err
  let exitCode: ExitCode
  let code: string
  let hint: string | undefined
  let details: Array<{ field: string; message: string }> | undefined
  let requestId: string | undefined
  let message = err.message
  if (err instanceof CliError) {
    exitCode = err.exitCode
    code = err.code
    hint = cliHintOf(err)
    details = err.details
    requestId = (err as { requestId?: string }).requestId
    if (err.code === 'silent_exit') return { code, exitCode }
    if (err instanceof InputValueError) {
      // The input by its flag (`--override a=b: …`; a path's flag is it in kebab-case), in the message and its own detail line.
      message = err.named(`--${err.path.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)
      details = details?.map((d) => (d.field === err.path ? { ...d, message } : d))
    }
  } else if (err.oclif?.exit !== undefined) {
    // oclif's own parse errors: unknown flag, missing argument, bad option value.
    exitCode = (err.oclif.exit === 2 ? EXIT.usage : (err.oclif.exit as ExitCode)) ?? EXIT.usage
    code = 'invalid_request'
    const parsed = describeParseError(err, command)
    message = parsed.message
    hint = parsed.hint
  } else {
    exitCode = EXIT.unexpected
    code = 'internal_error'
    hint = io.env.SVC_DEBUG === '1' ? undefined : 'This is a bug in svc. Run again with SVC_DEBUG=1 for details and report it.'
  }
  // A hostile or broken server's error text may echo the request's Authorization header: the
  // API client masks its own key in every field (api/conceal.ts); anything key-shaped left is masked here.
  message = redact(message, [])
  code = redact(code, [])
  details = details?.map((d) => ({ field: redact(d.field, []), message: redact(d.message, []) }))
  if (requestId !== undefined) requestId = redact(requestId, [])
  if (hint !== undefined) hint = redact(hint, [])
  if (json) {
    const error: Record<string, unknown> = { code, message }
    if (details?.length) error.details = details
    if (requestId) error.requestId = requestId
    io.err(`${JSON.stringify({ error })}\n`)
    return { code, exitCode }
  }
  // Messages, details and request ids may come from the server (or echo the user's input):
  // their control characters are shown escaped, never obeyed by the terminal.
  let line = `${paint(['bold', 'red'], 'Error')} [${safeText(code)}]: ${safeText(message, 'multiline')}`
  if (requestId) line += ` ${paint('dim', `(requestId ${safeText(requestId)})`)}`
  io.err(`${line}\n`)
  // A detail that only repeats the headline (a single-field usage error) adds nothing on a terminal.
  for (const d of details ?? []) if (d.message !== message) io.err(`  ${paint('bold', safeText(d.field))}: ${safeText(d.message)}\n`)
  if (hint) io.err(`${paint('dim', `Hint: ${safeText(hint, 'multiline')}`)}\n`)
  return { code, exitCode }
}
