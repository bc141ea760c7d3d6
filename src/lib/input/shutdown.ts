/**
 * The end of a long-running command (listen, watch, sandbox start): the first SIGINT, SIGTERM or
 * SIGHUP (the terminal closed, or `kill -HUP`) aborts `signal` and is remembered in `reason`, so
 * the command can finish its work in flight and undo what it set up (the listener gives the
 * sandbox its webhook URL back). Without this, Node's default for SIGHUP ends the process at once.
 */
export interface ShutdownSignal {
  signal: AbortSignal
  /** The signal that arrived, once one did. */
  readonly reason: NodeJS.Signals | undefined
  dispose(): void
}

export interface ShutdownOptions {
  /** Stop on SIGHUP too (default). A detached sandbox ignores hangups instead: it outlives its terminal. */
  hangup?: boolean
}

export function shutdownSignal(opts: ShutdownOptions = {}): ShutdownSignal {
  const hangup = opts.hangup ?? true
  const ac = new AbortController()
  let reason: NodeJS.Signals | undefined
  const stop = (sig: NodeJS.Signals) => {
    reason ??= sig
    ac.abort()
  }
  const dispose = () => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    process.off('SIGHUP', stop)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  if (hangup) process.once('SIGHUP', stop)
  return {
    signal: ac.signal,
    get reason() {
      return reason
    },
    dispose,
  }
}

/** Resolves with the signal once one arrives. */
export function untilStopSignal(opts: ShutdownOptions = {}): Promise<NodeJS.Signals> {
  const s = shutdownSignal(opts)
  return new Promise((resolve) =>
    s.signal.addEventListener(
      'abort',
      () => {
        s.dispose()
        resolve(s.reason ?? 'SIGTERM')
      },
      { once: true },
    ),
  )
}
