/**
 * Mounts an Ink view and resolves when it exits (q, Ctrl+C) or when `stop` fires (SIGINT/SIGTERM).
 * While the view owns the screen, whatever else writes to stderr goes to the view's status lines
 * (see StatusLog) instead of tearing the frame, and is printed once the view is gone.
 */
import { render } from 'ink'
import type { ReactNode } from 'react'
import { StatusLog } from './status-log.js'

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

export async function runUntilExit(view: (status: StatusLog) => ReactNode, streams: ViewStreams, stop: AbortSignal): Promise<void> {
  const status = new StatusLog()
  const restore = captureWrites(streams.stderr, status)
  try {
    // The command chose the live view (a terminal on both ends); Ink's own CI guess must not turn it into a final dump.
    const instance = render(view(status), { ...streams, exitOnCtrlC: true, patchConsole: false, interactive: true })
    const onStop = () => instance.unmount()
    if (stop.aborted) onStop()
    stop.addEventListener('abort', onStop, { once: true })
    try {
      await instance.waitUntilExit()
    } finally {
      stop.removeEventListener('abort', onStop)
    }
  } finally {
    restore()
    const rest = status.drain()
    if (rest) streams.stderr.write(rest)
  }
}
