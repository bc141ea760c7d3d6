/**
 * Text as one POSIX shell word, for the commands svc suggests in hints (`svc charges list
 * --external-id 'order 42'`): bare when a shell would neither split nor expand it, else single-
 * quoted. Control characters are shown escaped first (safe-text), so a hint never carries them.
 * scripts/shell-quote.js is the same rule for the demo, which runs without the build.
 */
import { safeText } from './safe-text.js'

const SAFE = /^[\w.:@%+=,/~-]+$/

export function shellWord(text: string): string {
  const clean = safeText(text)
  return clean !== '' && SAFE.test(clean) ? clean : `'${clean.replaceAll("'", `'\\''`)}'`
}
