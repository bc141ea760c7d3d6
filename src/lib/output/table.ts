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

/** `evt_3f9a…9e0a`: the start and the end of an id, which is how people match ids by eye. */
export function middleTruncate(text: string, width: number): string {
  const chars = [...text]
  if (chars.length <= width) return text
  const tail = Math.min(4, Math.max(1, Math.floor((width - 1) / 3)))
  return `${chars.slice(0, width - 1 - tail).join('')}…${chars.slice(-tail).join('')}`
}

export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(text)))
  return align === 'right' ? fill + text : text + fill
}

const GAP = '  '

function line(rawCells: string[], columns: Column[], widths: number[]): string {
  const cells = rawCells.map((c) => safeText(c, 'painted'))
  const parts = cells.map((cell, i) => {
    const fitted = visibleWidth(cell) > widths[i]! && stripAnsi(cell) === cell ? truncate(cell, widths[i]!) : cell
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
