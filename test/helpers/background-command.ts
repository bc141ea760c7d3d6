/**
 * Runs a long-lived oclif command (sandbox start, webhooks listen) in-process, piped, and hands
 * over its output as it comes; `stop()` sends SIGTERM as a user's Ctrl+C would. The command
 * has its own terminal (in its run's factory), so other commands may run meanwhile.
 */
import { Errors } from '@oclif/core'
import { ROOT, type RunnableCommand } from './run-command.js'
import { testIO } from './test-io.js'

export interface BackgroundCommand {
  stdout(): string
  stderr(): string
  /** Resolves once stdout matches (or rejects when the command ended first). */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>
  stop(): Promise<number>
  /** The exit code the binary would have had, once the command ends by itself. */
  done: Promise<number>
}

export function startCommand(cmd: RunnableCommand, argv: string[], env: Record<string, string | undefined> = {}): BackgroundCommand {
  const waiters: Array<() => void> = []
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, CI: 'true' }
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete fullEnv[k]
    else fullEnv[k] = v
  }
  const t = testIO({ env: fullEnv })
  t.stdout.on('text', () => {
    for (const w of waiters.splice(0)) w()
  })
  const out = () => t.out()
  const err = () => t.err()
  const done = (cmd.runWith ? cmd.runWith(argv, ROOT, { io: t.io }) : cmd.run(argv, ROOT)).then(
    () => 0,
    (e: unknown) => {
      if (e instanceof Errors.ExitError) return e.oclif.exit ?? 1
      throw e
    },
  )
  const finished = done.then(() => true)
  return {
    done,
    stdout: out,
    stderr: err,
    async waitFor(pattern) {
      for (;;) {
        const m = out().match(pattern)
        if (m) return m
        const more = new Promise<boolean>((r) => waiters.push(() => r(false)))
        if (await Promise.race([more, finished])) {
          const last = out().match(pattern)
          if (last) return last
          throw new Error(`the command ended before its output matched ${pattern}:\n${out()}\n${err()}`)
        }
      }
    },
    async stop() {
      process.emit('SIGTERM')
      return done
    },
  }
}
