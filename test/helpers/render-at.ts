/**
 * ink-testing-library's render, at a chosen terminal size: its stdout is always 100 columns with
 * no rows, and the live views fit themselves to both. Same surface (lastFrame, frames, stdin).
 */
import { EventEmitter } from 'node:events'
import { render as inkRender } from 'ink'
import type { ReactElement } from 'react'

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
