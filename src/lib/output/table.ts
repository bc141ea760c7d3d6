/**
 * Terminal tables for humans. Widths count visible characters (ANSI colour codes are ignored),
 * so coloured cells line up. Two shapes: `renderTable` sizes columns from all the rows it is
 * given; `streamingTable` uses fixed widths so rows can be written as they arrive (lists that
 * follow every page keep memory flat).
 *
 * Callers clean outside data with `safeText` before painting it; the table also passes every
 * cell through `safeText(…, 'painted')`, so a renderer that forgot still cannot move the cursor,
 * clear the screen or break a row (only colour sequences survive that pass).
 */
import { type Paint, stripAnsi } from './color.js'
import { safeText } from './safe-text.js'

export interface Column {
  header: string
  align?: 'left' | 'right'
  /** Fixed width (streaming tables), or a cap for computed widths; longer cells are cut with `…`. */
  width?: number
  /**
   * Where a cell too long for its column is cut: at its end (`charge.paid_pen…`, the default), in
   * its middle keeping the id's last 4 (`evt_3f9a…9e0a`, for ids), or keeping as much of both ends
   * (`localho…it-hooks`, for URLs, which differ by port as often as by path).
   */
  cut?: 'end' | 'middle' | 'halves'
}

export function visibleWidth(text: string): number {
  return [...stripAnsi(text)].length
}

/** Cuts plain text to `width` visible characters, ending with `…` when it had to cut. */
export function truncate(text: string, width: number): string {
  const chars = [...text]
  if (chars.length <= width) return text
  return width <= 1 ? chars.slice(0, width).join('') : `${chars.slice(0, width - 1).join('')}…`
}

/** `evt_3f9a…9e0a`: the start and the end of an id, which is how people match ids by eye; `halves`: as much of each end. */
export function middleTruncate(text: string, width: number, halves = false): string {
  const chars = [...text]
  if (chars.length <= width) return text
  const tail = halves ? Math.max(1, Math.floor((width - 1) / 2)) : Math.min(4, Math.max(1, Math.floor((width - 1) / 3)))
  return `${chars.slice(0, width - 1 - tail).join('')}…${chars.slice(-tail).join('')}`
}

/** `text` cut to `width` visible characters, its colour codes kept (so a painted cell still ends its colour). */
function cutCell(text: string, width: number, where: 'end' | 'middle' | 'halves'): string {
  const plainText = stripAnsi(text)
  if (plainText === text) return where === 'end' ? truncate(text, width) : middleTruncate(text, width, where === 'halves')
  // Painted: cut at the end, keeping every escape (the closing one included).
  let left = width <= 1 ? width : width - 1
  let out = ''
  let cut = false
  // biome-ignore lint/suspicious/noControlCharactersInRegex: walking ANSI escapes is the point
  for (const part of text.split(/(\u001B\[[0-9;]*[A-Za-z])/)) {
    if (part.startsWith('\u001B')) {
      out += part
      continue
    }
    for (const ch of part) {
      if (left > 0) {
        out += ch
        left--
      } else if (!cut) {
        cut = true
        if (width > 1) out += '…'
      }
    }
  }
  return out
}

export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)))
  return align === 'right' ? fill + text : text + fill
}

const GAP = '  '

function line(rawCells: string[], columns: Column[], widths: number[]): string {
  const cells = rawCells.map((c) => safeText(c, 'painted'))
  const parts = cells.map((cell, i) => {
    const fitted = visibleWidth(cell) > widths[i]! ? cutCell(cell, widths[i]!, columns[i]?.cut ?? 'end') : cell
    // The last left-aligned cell is not padded: no trailing spaces.
    return i === cells.length - 1 && columns[i]?.align !== 'right' ? fitted : pad(fitted, widths[i]!, columns[i]?.align)
  })
  return parts.join(GAP)
}

function headerLine(columns: Column[], widths: number[], paint: Paint): string {
  return paint(
    'bold',
    line(
      columns.map((c) => c.header),
      columns,
      widths,
    ),
  )
}

/** One way a table gives up width: a column shrinks down to `min` (never below its header; its cells are cut as the column says), or is dropped. */
export type FitStep = { index: number; min: number } | { index: number; drop: true }

/**
 * The one fitter of the terminal tables: fits `columns` (with their `cells`, headers counted) in
 * `total` terminal columns. The steps run in order until the lines fit, each shrinking a column
 * or dropping it; a terminal too narrow even then gets the smallest table the steps allow.
 * Returns the columns that stay, each with its width, and their cells (for renderTable).
 */
export function fitTable(columns: Column[], cells: string[][], total: number, steps: FitStep[]): { columns: Column[]; cells: string[][] } {
  const widths = columns.map((c, i) => {
    const natural = Math.max(visibleWidth(c.header), ...cells.map((r) => visibleWidth(safeText(r[i] ?? '', 'painted'))))
    return c.width ? Math.min(natural, Math.max(c.width, visibleWidth(c.header))) : natural
  })
  const dropped = new Set<number>()
  let excess = widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1) - total
  for (const step of steps) {
    if (excess <= 0) break
    if (dropped.has(step.index)) continue
    if ('drop' in step) {
      dropped.add(step.index)
      excess -= widths[step.index]! + GAP.length
      continue
    }
    const floor = Math.max(step.min, visibleWidth(columns[step.index]!.header))
    const give = Math.min(excess, Math.max(0, widths[step.index]! - floor))
    widths[step.index]! -= give
    excess -= give
  }
  const keep = (_: unknown, i: number) => !dropped.has(i)
  return { columns: columns.map((c, i) => ({ ...c, width: widths[i] })).filter(keep), cells: cells.map((r) => r.filter(keep)) }
}

/** A whole table, header included, sized to its content (each column capped at its `width`). */
export function renderTable(columns: Column[], rows: string[][], paint: Paint): string {
  const widths = columns.map((c, i) => {
    const natural = Math.max(visibleWidth(c.header), ...rows.map((r) => visibleWidth(safeText(r[i] ?? '', 'painted'))))
    return c.width ? Math.min(natural, Math.max(c.width, visibleWidth(c.header))) : natural
  })
  return [headerLine(columns, widths, paint), ...rows.map((r) => line(r, columns, widths))].map((l) => `${l}\n`).join('')
}

/** Fixed-width table: `header()` once, then `row()` per item as it arrives. */
export function streamingTable(columns: Column[], paint: Paint): { header(): string; row(cells: string[]): string } {
  const widths = columns.map((c) => Math.max(c.width ?? visibleWidth(c.header), visibleWidth(c.header)))
  return {
    header: () => `${headerLine(columns, widths, paint)}\n`,
    row: (cells) => `${line(cells, columns, widths)}\n`,
  }
}
