/** Mounts the listener's live view until the user quits (q, Ctrl+C) or `stop` fires. */
import { ListenApp, type ListenAppProps } from '../components/ListenApp.js'
import type { PaintedFrame } from './first-paint.js'
import { runUntilExit, type ViewStreams } from './run-view.js'

export interface ListenViewOptions extends Omit<ListenAppProps, 'onQuit' | 'status'>, ViewStreams {
  stop: AbortSignal
  /** The first frame, painted before Ink loaded (first-paint.ts): Ink draws its own in its place. */
  painted?: PaintedFrame
}

export function runListenView({ stdout, stdin, stderr, stop, painted, ...props }: ListenViewOptions): Promise<void> {
  return runUntilExit((status) => <ListenApp {...props} status={status} onQuit={() => {}} />, { stdout, stdin, stderr }, stop, painted)
}
