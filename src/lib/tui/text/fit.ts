/**
 * Lines that fit the terminal. A wrapped row breaks a live view (the frame grows, rows move, the
 * verdict lands alone on the next line), so each row is built from segments, each with forms
 * from the fullest to the shortest (an empty form drops it). While the line is too wide, the
 * segment with the lowest priority that can still shrink takes its next form. Pure, so the
 * choices are tested without rendering; Ink cuts whatever still overflows (wrap="truncate-end").
 */
import type { InkColor } from './format.js'

export interface Piece {
  text: string
  color?: InkColor
  dim?: boolean
  bold?: boolean
  inverse?: boolean
}

export interface Segment {
  /** Fullest first; `[]` (no pieces) drops the segment. */
  forms: Piece[][]
  /** Higher keeps its fuller form longer. */
  priority: number
  /** Text before the segment when something precedes it (default one space). */
  gap?: string
  /** Rather than being dropped, the segment's last form may be cut short with `…` (when at least 10 columns are left for it). */
  cut?: boolean
}

/**
 * One row of a live view's frame, as data: a fitted line, a line of one style (cut with `…` when
 * too wide), an empty line, or a part of the view drawn its own way (`other`, `height` rows: the
 * first paint leaves such a frame to Ink). components/FrameRow.tsx draws a row with Ink;
 * mount/first-paint.ts paints the same rows as Ink would, before Ink has loaded.
 */
export type FrameRow =
  | { kind: 'fit'; segments: Segment[]; key?: string }
  | { kind: 'text'; text: string; style?: Omit<Piece, 'text'>; key?: string }
  | { kind: 'blank'; key?: string }
  | { kind: 'other'; id: string; height: number; key?: string }

/** Visible width; the views' glyphs (● ◌ ✔ … ─ ›) are one column each. */
export function piecesWidth(pieces: readonly Piece[]): number {
  return pieces.reduce((n, p) => n + [...p.text].length, 0)
}

function total(segments: readonly Segment[], choice: readonly number[]): number {
  let width = 0
  let first = true
  segments.forEach((s, i) => {
    const w = piecesWidth(s.forms[choice[i]!]!)
    if (w === 0) return
    width += (first ? 0 : (s.gap ?? ' ').length) + w
    first = false
  })
  return width
}

const MIN_CUT = 10

/** `pieces` cut to `width` columns, the last one ending in `…`. */
function cutPieces(pieces: readonly Piece[], width: number): Piece[] {
  const out: Piece[] = []
  let left = width - 1
  for (const p of pieces) {
    const chars = [...p.text]
    if (chars.length <= left) {
      out.push(p)
      left -= chars.length
      continue
    }
    out.push({ ...p, text: `${chars.slice(0, left).join('').trimEnd()}…` })
    return out
  }
  return out
}

/** The pieces of the fullest line that fits in `width` columns. */
export function fitLine(segments: readonly Segment[], width: number): Piece[] {
  const forms = segments.map((s) => [...s.forms])
  const view = forms.map((f, i) => ({ ...segments[i]!, forms: f }))
  const choice = segments.map(() => 0)
  while (total(view, choice) > width) {
    let pick = -1
    view.forEach((s, i) => {
      if (choice[i]! < s.forms.length - 1 && (pick === -1 || s.priority <= view[pick]!.priority)) pick = i
    })
    if (pick === -1) break
    const s = view[pick]!
    const current = s.forms[choice[pick]!]!
    const room = width - (total(view, choice) - piecesWidth(current))
    const dropping = piecesWidth(s.forms[choice[pick]! + 1]!) === 0
    if (s.cut && dropping && room >= MIN_CUT && room < piecesWidth(current)) {
      s.forms[choice[pick]!] = cutPieces(current, room)
      break
    }
    choice[pick]!++
  }
  const out: Piece[] = []
  view.forEach((s, i) => {
    const form = s.forms[choice[i]!]!
    if (piecesWidth(form) === 0) return
    if (out.length > 0) out.push({ text: s.gap ?? ' ' })
    out.push(...form)
  })
  return out
}

/**
 * Rows of aligned columns (the same form for a column in every row, each column as wide as its
 * widest cell), shrunk by priority until the widest row fits in `width`, then grown back where
 * the last shrinks left room. Rows must have the
 * same columns; the first row's priorities and gaps rule. Each result is one row's pieces,
 * padded so that whatever follows starts at the same column.
 */
export function fitColumns(rows: readonly Segment[][], width: number): Piece[][] {
  if (rows.length === 0) return []
  const model = rows[0]!
  const form = (row: readonly Segment[], i: number, c: number) => row[i]!.forms[Math.min(c, row[i]!.forms.length - 1)]!
  const colWidth = (i: number, c: number) => Math.max(...rows.map((r) => piecesWidth(form(r, i, c))))
  const choice = model.map(() => 0)
  const total = () => {
    let w = 0
    let first = true
    model.forEach((s, i) => {
      const cw = colWidth(i, choice[i]!)
      if (cw === 0) return
      w += (first ? 0 : (s.gap ?? ' ').length) + cw
      first = false
    })
    return w
  }
  while (total() > width) {
    let pick = -1
    model.forEach((s, i) => {
      if (choice[i]! < s.forms.length - 1 && (pick === -1 || s.priority <= model[pick]!.priority)) pick = i
    })
    if (pick === -1) break
    choice[pick]!++
  }
  // What a later shrink made room for comes back, the highest priority first: states drawn as
  // icons leave room for the amount that went before them.
  const byPriority = model.map((s, i) => ({ s, i })).sort((a, b) => b.s.priority - a.s.priority)
  for (const { i } of byPriority) {
    while (choice[i]! > 0) {
      choice[i]!--
      if (total() <= width) continue
      choice[i]!++
      break
    }
  }
  const widths = model.map((_, i) => colWidth(i, choice[i]!))
  return rows.map((row) => {
    const out: Piece[] = []
    row.forEach((s, i) => {
      if (widths[i] === 0) return
      if (out.length > 0) out.push({ text: s.gap ?? ' ' })
      const cell = form(row, i, choice[i]!)
      out.push(...cell)
      const fill = widths[i]! - piecesWidth(cell)
      if (fill > 0) out.push({ text: ' '.repeat(fill) })
    })
    return out
  })
}

/** The fewest columns `segments` can take (each at its shortest form), with the gap before them. */
export function leastWidth(segments: readonly Segment[]): number {
  const w = segments.reduce((n, s) => {
    const least = Math.min(...s.forms.map((f) => piecesWidth(f)))
    return least === 0 ? n : n + (s.gap ?? ' ').length + least
  }, 0)
  return w
}

/** The pieces as plain text (tests, widths). */
export function plain(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.text).join('')
}
