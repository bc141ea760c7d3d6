/**
 * A live view's first frame, painted before Ink has loaded. Loading Ink, React and Yoga and
 * running their first render cold took longer than the rest of `charges watch`'s start, and as
 * long as `webhooks listen`'s event log and server (issue 39.1); the frame itself is rows of data (text/fit.ts FrameRow) that these functions turn into
 * the very bytes Ink writes for them (its Text styles through the same chalk, each line through
 * the same ansi-tokenize serialization, inside the same synchronized-output marks). Ink then takes
 * over: handOver() erases the painted frame as Ink erases its own previous frame, right before
 * Ink's first render, so the terminal shows one frame throughout. A frame this cannot paint
 * exactly as Ink would (a row too wide, a character of uncertain width, a part drawn Ink's own
 * way, taller than the terminal) is left to Ink: nothing is painted.
 */
import { styledCharsFromTokens, styledCharsToString, tokenize } from '@alcalzone/ansi-tokenize'
import chalk from 'chalk'
import { fitLine, type FrameRow, type Piece } from '../text/fit.js'

/** Ink's synchronized-output marks (begin, end), the cursor hidden as Ink's log-update hides it, and shown again. */
const BSU = '\u001B[?2026h'
const ESU = '\u001B[?2026l'
const HIDE_CURSOR = '\u001B[?25l'
const SHOW_CURSOR = '\u001B[?25h'

/** The views' own signs beyond Latin-1, each one column wide by Ink's own measure (its string-width; a test holds them to it). */
export const ONE_COLUMN_SIGNS = '●◌↯○─›…→⚠✓✗✔✘↻⇢↑↓—–'

/** Characters one column wide wherever they are (ASCII, Latin-1 but the soft hyphen, and the views' signs): any other leaves the frame to Ink. */
const ONE_COLUMN = new RegExp(`^[\\u0020-\\u007e\\u00a0-\\u00ac\\u00ae-\\u00ff${ONE_COLUMN_SIGNS}]*$`, 'u')

/** Ink's Text transform: dim, colour, bold, inverse, in that order. */
function styled(text: string, style: Omit<Piece, 'text'>): string {
  let out = text
  if (style.dim) out = chalk.dim(out)
  if (style.color) out = chalk[style.color](out)
  if (style.bold) out = chalk.bold(out)
  if (style.inverse) out = chalk.inverse(out)
  return out
}

/** One row as Ink's Output writes it, or undefined when Ink would have to cut, wrap or measure it its own way. */
function rowText(row: FrameRow, width: number): string | undefined {
  if (row.kind === 'blank') return ''
  if (row.kind === 'other') return undefined
  const pieces = row.kind === 'fit' ? fitLine(row.segments, width) : [{ ...row.style, text: row.text }]
  let plain = ''
  let text = ''
  for (const p of pieces) {
    plain += p.text
    text += styled(p.text, p)
  }
  if (!ONE_COLUMN.test(plain) || [...plain].length > width) return undefined
  return styledCharsToString(styledCharsFromTokens(tokenize(text))).trimEnd()
}

/**
 * The frame as Ink renders these rows in a column box `columns` wide and at most `height - 1`
 * rows tall (the views' own box), without the newline Ink adds; undefined when it cannot be painted.
 */
export function frameText(rows: readonly FrameRow[], columns: number, height: number): string | undefined {
  if (rows.length > height - 1 || columns < 1) return undefined
  const lines: string[] = []
  for (const row of rows) {
    const line = rowText(row, columns)
    if (line === undefined) return undefined
    lines.push(line)
  }
  return lines.join('\n')
}

/** Ink's log-update erasing a frame of `count` lines (ansi-escapes' eraseLines). */
export function eraseLines(count: number): string {
  let out = ''
  for (let i = 0; i < count; i++) out += `\u001B[2K${i < count - 1 ? '\u001B[1A' : ''}`
  return count > 0 ? `${out}\u001B[G` : out
}

export interface PaintedFrame {
  /** Erases the painted frame: call it right before Ink's first render, which draws the frame again in its place. */
  handOver(): void
  /** Erases the painted frame and shows the cursor again: the view did not start. */
  withdraw(): void
}

/**
 * Paints the rows the view has at the terminal's size (`rowsAt`) on `stdout` now; undefined (nothing
 * written) when `stdout` is not a terminal of known size or the frame is not one to paint.
 */
export function paintFirstFrame(stdout: NodeJS.WritableStream, rowsAt: (columns: number, height: number) => readonly FrameRow[]): PaintedFrame | undefined {
  const tty = stdout as NodeJS.WritableStream & { columns?: number; rows?: number; isTTY?: boolean }
  if (!tty.isTTY || !tty.columns || !tty.rows) return undefined
  const text = frameText(rowsAt(tty.columns, tty.rows), tty.columns, tty.rows)
  if (text === undefined) return undefined
  stdout.write(`${BSU}${HIDE_CURSOR}${text}\n${ESU}`)
  // Ink counts a frame's lines as its text split at each newline, the last one included.
  const lines = text.split('\n').length + 1
  let done = false
  const erase = (after: string) => {
    if (done) return
    done = true
    stdout.write(`${BSU}${eraseLines(lines)}${after}`)
  }
  return { handOver: () => erase(''), withdraw: () => erase(`${ESU}${SHOW_CURSOR}`) }
}
