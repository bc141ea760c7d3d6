/**
 * Mounts an Ink view and resolves when it exits (q, Ctrl+C) or when `stop` fires (SIGINT/SIGTERM).
 * While the view owns the screen, whatever else writes to stderr goes to the view's status lines
 * (see StatusLog) instead of tearing the frame, and is printed once the view is gone.
 */
import { render } from 'ink'
import type { ReactNode } from 'react'
import { StatusLog } from '../view-models/status-log.js'
import type { PaintedFrame } from './first-paint.js'

export interface ViewStreams {
  stdout: NodeJS.WritableStream
  stdin: NodeJS.ReadableStream
  stderr: NodeJS.WritableStream
}

type Write = NodeJS.WritableStream['write']

/** Routes `stream`'s writes into `log` until the returned function restores it. */
export function captureWrites(stream: NodeJS.WritableStream, log: StatusLog): () => void {
  const own = Object.hasOwn(stream, 'write')
  const original = stream.write
  const capture = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
    log.write(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    const cb = typeof encoding === 'function' ? encoding : callback
    if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)())
    return true
  }) as Write
  stream.write = capture
  return () => {
    if (stream.write !== capture) return
    if (own) stream.write = original
    else delete (stream as { write?: Write }).write
  }
}

/** Clear the screen and put the cursor home. */
export const CLEAR_SCREEN = '\u001B[2J\u001B[H'

/**
 * When the terminal gets narrower, Ink first redraws the frame laid out for the old width (the
 * view learns the new width a moment later), which the terminal wraps onto more rows than Ink
 * counts; the next frame then erases too few rows and the wrapped rest stays above it. Registered
 * after Ink's own resize listener, this clears the screen once that stale frame is out; the view's
 * frame for the new width is then drawn from the top.
 */
export function clearOnNarrowing(stdout: NodeJS.WritableStream): () => void {
  const tty = stdout as NodeJS.WritableStream & { columns?: number; on?: (e: string, l: () => void) => unknown; off?: (e: string, l: () => void) => unknown }
  if (typeof tty.on !== 'function') return () => {}
  let width = tty.columns ?? 0
  const onResize = () => {
    const now = tty.columns ?? 0
    if (now < width) tty.write(CLEAR_SCREEN)
    width = now
  }
  tty.on('resize', onResize)
  return () => void tty.off?.('resize', onResize)
}

/** `painted`: the first frame, painted before Ink loaded (first-paint.ts); erased right before Ink draws its own in its place. */
export async function runUntilExit(view: (status: StatusLog) => ReactNode, streams: ViewStreams, stop: AbortSignal, painted?: PaintedFrame): Promise<void> {
  const status = new StatusLog()
  const restore = captureWrites(streams.stderr, status)
  let stopClearing = () => {}
  try {
    // The command chose the live view (a terminal on both ends); Ink's own CI guess must not turn it into a final dump.
    const tree = view(status)
    painted?.handOver()
    const instance = render(tree, { ...streams, exitOnCtrlC: true, patchConsole: false, interactive: true })
    stopClearing = clearOnNarrowing(streams.stdout)
    const onStop = () => instance.unmount()
    if (stop.aborted) onStop()
    stop.addEventListener('abort', onStop, { once: true })
    try {
      await instance.waitUntilExit()
    } finally {
      stop.removeEventListener('abort', onStop)
    }
  } finally {
    stopClearing()
    restore()
    const rest = status.drain()
    if (rest) streams.stderr.write(rest)
  }
}
