/** Mounts an Ink view and resolves when it exits (q, Ctrl+C) or when `stop` fires (SIGINT/SIGTERM). */
import { render } from 'ink'
import type { ReactNode } from 'react'

export interface ViewStreams {
  stdout: NodeJS.WritableStream
  stdin: NodeJS.ReadableStream
  stderr: NodeJS.WritableStream
}

export async function runUntilExit(node: ReactNode, streams: ViewStreams, stop: AbortSignal): Promise<void> {
  const instance = render(node, { ...streams, exitOnCtrlC: true, patchConsole: false })
  const onStop = () => instance.unmount()
  if (stop.aborted) onStop()
  stop.addEventListener('abort', onStop, { once: true })
  try {
    await instance.waitUntilExit()
  } finally {
    stop.removeEventListener('abort', onStop)
  }
}
