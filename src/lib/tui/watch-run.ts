/**
 * `svc charges watch` end to end: poll the API and either draw the lanes (TTY) or print one line
 * per status change (piped; with named charges it ends once they are all final). Stops on q,
 * SIGINT or SIGTERM.
 */
import type { ApiClient } from '../api/types.js'
import type { IO } from '../output/io.js'
import { ChargeWatcher, type WatchChange } from './charge-watcher.js'

export interface WatchRunOptions {
  client: ApiClient
  ids: string[]
  recent: number
  intervalMs: number
  tui: boolean
  json: boolean
  io: IO
  environment?: 'live' | 'test'
  stop?: AbortSignal
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export interface WatchRunResult {
  /** Named charges that were not found in this environment. */
  missing: string[]
}

function shutdownSignal(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController()
  const abort = () => ac.abort()
  process.once('SIGINT', abort)
  process.once('SIGTERM', abort)
  return { signal: ac.signal, dispose: () => (process.off('SIGINT', abort), process.off('SIGTERM', abort)) }
}

/** Piped output: `updatedAt TAB id TAB status TAB grossInCents` per change, or the Charge as JSON. */
export function changeLine(change: WatchChange, json: boolean): string {
  const c = change.charge
  return json ? `${JSON.stringify(c)}\n` : `${[c.updatedAt, c.id, c.status, String(c.amount.grossInCents)].join('\t')}\n`
}

export async function runWatch(opts: WatchRunOptions): Promise<WatchRunResult> {
  const watcher = new ChargeWatcher({ client: opts.client, ids: opts.ids, recent: opts.recent, intervalMs: opts.intervalMs, sleep: opts.sleep })
  const shutdown = opts.stop ? undefined : shutdownSignal()
  const stop = opts.stop ?? shutdown!.signal
  const loop = new AbortController()
  const onStop = () => loop.abort()
  stop.addEventListener('abort', onStop, { once: true })
  let lastError: string | undefined
  try {
    if (opts.tui) {
      const { runWatchView } = await import('./run-watch-view.js')
      const scope = opts.ids.length ? `${opts.ids.length} charge${opts.ids.length === 1 ? '' : 's'}` : `the ${opts.recent} newest charges`
      const polling = watcher.run(loop.signal)
      await runWatchView({ watcher, scope, environment: opts.environment, intervalMs: opts.intervalMs, stdout: opts.io.stdout, stdin: opts.io.stdin, stderr: opts.io.stderr, stop })
      loop.abort()
      await polling
    } else {
      await watcher.run(
        loop.signal,
        (changes) => {
          for (const change of changes) opts.io.out(changeLine(change, opts.json))
          const { error } = watcher.getSnapshot()
          if (error && error !== lastError) opts.io.err(`Poll failed: ${error}\n`)
          lastError = error
        },
        opts.ids.length > 0,
      )
    }
  } finally {
    stop.removeEventListener('abort', onStop)
    shutdown?.dispose()
  }
  return { missing: watcher.getSnapshot().missing }
}
