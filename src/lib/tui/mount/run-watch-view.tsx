/** Mounts the `charges watch` live view until the user quits (q, Ctrl+C) or `stop` fires. */
import { runUntilExit, type ViewStreams } from './run-view.js'
import { WatchApp, type WatchAppProps } from '../components/WatchApp.js'
import type { PaintedFrame } from './first-paint.js'

export interface WatchViewOptions extends Omit<WatchAppProps, 'onQuit' | 'status'>, ViewStreams {
  stop: AbortSignal
  /** The first frame, already on the terminal (first-paint.ts). */
  painted?: PaintedFrame
}

export function runWatchView({ stdout, stdin, stderr, stop, painted, ...props }: WatchViewOptions): Promise<void> {
  return runUntilExit((status) => <WatchApp {...props} status={status} onQuit={() => {}} />, { stdout, stdin, stderr }, stop, painted)
}
