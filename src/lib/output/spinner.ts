/**
 * A one-line spinner on stderr, only when stderr is a terminal: piped runs and stdout never see
 * it. `stop()` erases the line, so what follows starts clean.
 */
import type { IO } from './io.js'

export interface Spinner {
  update(text: string): void
  stop(finalLine?: string): void
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const CLEAR = '\r\u001B[2K'

const silent: Spinner = { update() {}, stop() {} }

export function createSpinner(io: IO, text: string, intervalMs = 80): Spinner {
  if (!io.isStderrTTY) return silent
  let frame = 0
  let current = text
  const draw = () => io.err(`${CLEAR}${FRAMES[frame++ % FRAMES.length]} ${current}`)
  draw()
  const timer = setInterval(draw, intervalMs)
  timer.unref()
  let stopped = false
  return {
    update(next) {
      current = next
      if (!stopped) draw()
    },
    stop(finalLine) {
      if (stopped) return
      stopped = true
      clearInterval(timer)
      io.err(CLEAR)
      if (finalLine) io.err(`${finalLine}\n`)
    },
  }
}
