/** Runs `svc webhooks listen` in-process (piped), hands its stdout lines over as they come, and stops it with SIGTERM. */
import WebhooksListen from '../../src/commands/webhooks/listen.js'
import { startCommand } from './background-command.js'

export function startListen(argv: string[], env: Record<string, string> = {}) {
  const bg = startCommand(WebhooksListen, argv, env)
  const lines = () =>
    bg
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  /** The first n NDJSON lines, or all there are once the command has ended. */
  const waitLines = async (n: number) => {
    await bg.waitFor(new RegExp(`^(?:.*\\n){${n}}`)).catch(() => undefined)
    return lines()
  }
  return { lines, waitLines, stop: bg.stop, done: bg.done, stderr: bg.stderr, stdout: bg.stdout }
}
