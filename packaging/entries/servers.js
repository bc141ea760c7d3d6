/**
 * The commands that serve until stopped (`webhooks listen`, `sandbox start`, `relay serve`): what
 * they wait on is requests, not their start. They load the bundle as Node does on its own, without
 * the start-up steps that only pay once (hot-script.js: the scripts as plain CommonJS modules, no
 * code cache; main.js: no bundle-loader.js hook): a headless server's start is not what anyone
 * waits on, and its requests must not pay for it. The code cache measured a small cost per request
 * in the listener that no profile could place; the hook none that could be told from the machine's
 * noise (issue 39), and a server is left on Node's own path rather than on a doubt.
 *
 * One server is watched as it starts: `webhooks listen` drawing its live view, whose first frame a
 * person waits for at a terminal (a start-up target of issue 39). It starts as every interactive
 * command does, with the hook and the code cache: its deliveries are drawn for a person to read,
 * while the throughput the doubt was about is the headless listener's (`--no-tui`, `--json`, piped),
 * which stays on Node's own path. Either path runs the same code to the same effect; the choice
 * only moves time.
 */

/** The commands that serve until stopped, by their words (commandWords). */
export const SERVERS = new Set(['webhooks listen', 'sandbox start', 'relay serve'])

/** The words of argv before its first flag, at most two, `topic:command` taken as two: which server, if any, this is. */
export function commandWords(argv) {
  const words = []
  for (const a of argv) {
    if (a.startsWith('-')) break
    words.push(...a.split(':'))
    if (words.length >= 2) break
  }
  return words.slice(0, 2).join(' ')
}

/**
 * Whether this process is a headless server, loaded on Node's own path: a server, unless it is
 * `webhooks listen` with its live view (stdin and stdout terminals, and neither `--no-tui` nor
 * `--json` before a `--`), which is what the command itself decides from the same facts.
 * `isTerminal(fd)`: tests give their own.
 */
export function headlessServer(argv, isTerminal = (fd) => process.getBuiltinModule('node:tty').isatty(fd)) {
  const words = commandWords(argv)
  if (!SERVERS.has(words)) return false
  if (words !== 'webhooks listen') return true
  const end = argv.indexOf('--')
  const flags = end === -1 ? argv : argv.slice(0, end)
  if (flags.includes('--no-tui') || flags.includes('--json')) return true
  return !(isTerminal(0) && isTerminal(1))
}
