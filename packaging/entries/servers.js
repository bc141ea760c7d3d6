/**
 * The commands that serve until stopped (`webhooks listen`, `sandbox start`, `relay serve`): what
 * they wait on is requests, not their start. They load the bundle as Node does on its own, without
 * the start-up steps that only pay once (hot-script.js: the scripts as plain CommonJS modules, no
 * code cache; main.js: no bundle-loader.js hook): a server's start is not what anyone waits on,
 * and its requests must not pay for it. The code cache measured a small cost per request in the
 * listener that no profile could place; the hook none that could be told from the machine's noise
 * (issue 39), and a server is left on Node's own path rather than on a doubt.
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
