/**
 * ink-testing-library's render, at a chosen terminal size: its stdout is always 100 columns with
 * no rows, and the live views fit themselves to both. Same surface (lastFrame, frames, stdin).
 */
import { EventEmitter } from 'node:events'
import { render as inkRender } from 'ink'
import type { ReactElement } from 'react'
import { expect } from 'vitest'

export class Screen extends EventEmitter {
  readonly frames: string[] = []
  isTTY = true
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super()
  }
  write = (frame: string, encoding?: unknown, callback?: unknown) => {
    if (frame !== '') this.frames.push(frame)
    const cb = typeof encoding === 'function' ? encoding : callback
    if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)())
    return true
  }
  lastFrame = () => this.frames[this.frames.length - 1]
  resize(columns: number, rows: number) {
    this.columns = columns
    this.rows = rows
    this.emit('resize')
  }
}

export class Keys extends EventEmitter {
  isTTY = true
  private data: string | null = null
  write = (data: string) => {
    this.data = data
    this.emit('readable')
    this.emit('data', data)
  }
  read = () => {
    const d = this.data
    this.data = null
    return d
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

export function renderAt(tree: ReactElement, columns: number, rows: number) {
  const stdout = new Screen(columns, rows)
  const stderr = new Screen(columns, rows)
  const stdin = new Keys()
  const instance = inkRender(tree, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  })
  return { stdout, stdin, frames: stdout.frames, lastFrame: stdout.lastFrame, unmount: instance.unmount, rerender: instance.rerender }
}

const ESC = '\u001B'

/** Whether Ink has drawn a frame of its own after a first paint on `screen` (two synchronized updates ended). */
export function inkDrewAfterPaint(screen: Screen): boolean {
  return screen.frames.join('').split(`${ESC}[?2026l`).length > 2
}

/**
 * The first write on `screen`, checked to be a live view's first frame painted before Ink loaded:
 * one synchronized update with the cursor hidden, ending with the keys; then erased from the
 * bottom up (its lines and the one after them) and drawn again by Ink, the same bytes.
 */
export function paintedThenInk(screen: Screen): string {
  const painted = screen.frames[0]!
  const rest = screen.frames.join('').slice(painted.length)
  expect(painted.startsWith(`${ESC}[?2026h${ESC}[?25l`)).toBe(true)
  expect(painted.endsWith(`q quit\n${ESC}[?2026l`)).toBe(true)
  const erase = `${ESC}[?2026h${`${ESC}[2K${ESC}[1A`.repeat(painted.split('\n').length - 1)}${ESC}[2K${ESC}[G`
  expect(rest.startsWith(`${erase}${painted}`)).toBe(true)
  return painted
}
