/** Mounts the listener's live view until the user quits (q, Ctrl+C) or `stop` fires. */
import { ListenApp, type ListenAppProps } from '../components/ListenApp.js'
import { runUntilExit, type ViewStreams } from './run-view.js'

export interface ListenViewOptions extends Omit<ListenAppProps, 'onQuit' | 'status'>, ViewStreams {
  stop: AbortSignal
}

export function runListenView({ stdout, stdin, stderr, stop, ...props }: ListenViewOptions): Promise<void> {
  return runUntilExit((status) => <ListenApp {...props} status={status} onQuit={() => {}} />, { stdout, stdin, stderr }, stop)
}
