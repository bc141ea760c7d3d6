/**
 * The end of a long-running command (listen, watch, sandbox start): the first SIGINT or SIGTERM
 * aborts `signal` and is remembered in `reason`, so the command can finish its work in flight.
 */
export interface ShutdownSignal {
  signal: AbortSignal
  /** The signal that arrived, once one did. */
  readonly reason: NodeJS.Signals | undefined
  dispose(): void
}

export function shutdownSignal(): ShutdownSignal {
  const ac = new AbortController()
  let reason: NodeJS.Signals | undefined
  const stop = (sig: NodeJS.Signals) => {
    reason ??= sig
    ac.abort()
  }
  const dispose = () => {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return {
    signal: ac.signal,
    get reason() {
      return reason
    },
    dispose,
  }
}

/** Resolves with the signal once one arrives. */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  const s = shutdownSignal()
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
