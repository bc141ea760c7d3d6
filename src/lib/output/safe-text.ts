/**
 * The one sanitiser for outside text on its way to a terminal or a piped row. Charge fields,
 * payer names, metadata, error messages, event types and bodies come from other people: an ESC
 * in them could recolour the screen, move the cursor, rewrite lines or set the window title.
 * Every control character is shown as a visible escape instead (`\x1b`, `\u202e`), so nothing is
 * lost and nothing is obeyed. Machine output (--json, --ndjson) never comes here: JSON escapes.
 */
/**
 * - `line` (default): one line or table cell; tab, CR and LF are escaped too.
 * - `multiline`: a message or body as written; LF and tab stay, CR is escaped (it would let a
 *   later part overwrite an earlier one).
 * - `tsv`: a field of a tab-separated row; like `line`, and `\` itself is doubled so the escaping
 *   can be undone exactly (PostgreSQL COPY's convention).
 * - `painted`: text carrying our own colours: SGR sequences stay, every other control is escaped.
 *   A last line of defence: outside data is still cleaned with `line` before it is painted.
 */
export type SafeTextMode = 'line' | 'multiline' | 'tsv' | 'painted'

/** C0 controls, DEL, C1 controls (U+009B is a one-byte CSI to some terminals), bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_MULTILINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_TSV = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\\]/g
// biome-ignore lint/suspicious/noControlCharactersInRegex: the colour sequences our painter writes
const SGR = /(\u001b\[[0-9;]*m)/

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' }

function visible(ch: string): string {
  const named = NAMED[ch]
  if (named) return named
  const cp = ch.codePointAt(0)!
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`
}

/** `text` with every control character replaced by a visible escape (see the modes above). */
export function safeText(text: string, mode: SafeTextMode = 'line'): string {
  const s = String(text)
  switch (mode) {
    case 'line':
      return s.replace(UNSAFE, visible)
    case 'multiline':
      return s.replace(/\r\n/g, '\n').replace(UNSAFE_MULTILINE, visible)
    case 'tsv':
      return s.replace(UNSAFE_TSV, visible)
    case 'painted':
      // split with a capturing group: odd indexes are the SGR sequences themselves.
      return s
        .split(SGR)
        .map((part, i) => (i % 2 === 1 ? part : part.replace(UNSAFE, visible)))
        .join('')
  }
}
