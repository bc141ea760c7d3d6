/** Runs `svc webhooks listen` in-process (piped), hands its stdout lines over as they come, and stops it with SIGTERM. */
import { PassThrough, Readable } from 'node:stream'
import { Errors } from '@oclif/core'
import WebhooksListen from '../../../src/commands/webhooks/listen.js'
import { createIO, setIO } from '../../../src/lib/output/io.js'
import { ROOT } from '../../helpers/run-command.js'

export function startListen(argv: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  const waiters: Array<() => void> = []
  stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8')
    for (const w of waiters.splice(0)) w()
  })
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')))
  const stdin = Readable.from([])
  setIO(createIO({ stdout, stderr, stdin, env: { ...process.env, CI: 'true', ...env }, isStdoutTTY: false, isStderrTTY: false, isStdinTTY: false }))
  const done = WebhooksListen.run(argv, ROOT).then(
    () => 0,
    (e: unknown) => {
      if (e instanceof Errors.ExitError) return e.oclif.exit ?? 1
      throw e
    },
  )
  const lines = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
  const waitLines = async (n: number) => {
    while (lines().length < n) {
      const more = new Promise<void>((r) => waiters.push(r))
      const ended = await Promise.race([more.then(() => false), done.then(() => true)])
      if (ended) break
    }
    return lines()
  }
  const stop = async () => {
    process.emit('SIGTERM')
    const code = await done
    setIO(undefined)
    return code
  }
  return { lines, waitLines, stop, done, stderr: () => err }
}

