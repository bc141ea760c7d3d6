/** Mounts the listener's live view and resolves when the user quits (q, Ctrl+C) or `stop` fires. */
import { render } from 'ink'
import { ListenApp, type ListenAppProps } from './ListenApp.js'

export interface ListenViewOptions extends Omit<ListenAppProps, 'onQuit'> {
  stdout: NodeJS.WritableStream
  stdin: NodeJS.ReadableStream
  stderr: NodeJS.WritableStream
  stop: AbortSignal
}

export async function runListenView({ stdout, stdin, stderr, stop, ...props }: ListenViewOptions): Promise<void> {
  const instance = render(<ListenApp {...props} onQuit={() => {}} />, { stdout, stdin, stderr, exitOnCtrlC: true, patchConsole: false })
  const onStop = () => instance.unmount()
  if (stop.aborted) onStop()
  stop.addEventListener('abort', onStop, { once: true })
  try {
    await instance.waitUntilExit()
  } finally {
    stop.removeEventListener('abort', onStop)
  }
}
