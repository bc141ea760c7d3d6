/**
 * `svc charges watch` end to end: poll the API and either draw the lanes (TTY) or print one line
 * per status change (piped; with named charges it ends once they are all final). Stops on q,
 * SIGINT or SIGTERM.
 */
import type { ApiClient } from '../api/types.js'
import { ApiError } from '../errors.js'
import type { IO } from '../output/io.js'
import { ChargeWatcher, type WatchChange } from '../tui/view-models/charge-watcher.js'
import { loadView } from '../tui/mount/load-view.js'
import { shutdownSignal } from '../input/shutdown.js'
import type { Environment } from '../contract/schemas.js'

export interface WatchRunOptions {
  client: ApiClient
  ids: string[]
  recent: number
  intervalMs: number
  tui: boolean
  json: boolean
  io: IO
  environment?: Environment
  stop?: AbortSignal
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** The named charges the API does not know, as one typed error (exit 4) for BaseCommand to render. */
export function notFoundError(notFound: Map<string, ApiError>, environment: string | undefined): ApiError {
  const where = environment ? ` in the ${environment} environment` : ''
  const hint = `Check the id${environment ? `, and that it was created with a ${environment} key (a charge lives in one environment only)` : ''}.`
  const [first] = notFound.entries()
  const [id, err] = first!
  if (notFound.size === 1) return new ApiError({ status: 404, code: err.apiCode, message: `Charge ${id} not found${where}.`, requestId: err.requestId, hint })
  return new ApiError({
    status: 404,
    code: err.apiCode,
    message: `${notFound.size} of the charges were not found${where}.`,
    details: [...notFound].map(([missing, e]) => ({ field: 'id', message: `${missing} not found${e.requestId ? ` (requestId ${e.requestId})` : ''}` })),
    hint,
  })
}

/** Piped output: `updatedAt TAB id TAB status TAB grossInCents` per change, or the Charge as JSON. */
export function changeLine(change: WatchChange, json: boolean): string {
  const c = change.charge
  // A split charge gets a fifth column, `split:<status>`, so its division shows in the stream too.
  const split = (c as { split?: { status?: string } }).split?.status
  return json ? `${JSON.stringify(c)}\n` : `${[c.updatedAt, c.id, c.status, String(c.amount.grossInCents), ...(split ? [`split:${split}`] : [])].join('\t')}\n`
}

export async function runWatch(opts: WatchRunOptions): Promise<void> {
  const watcher = new ChargeWatcher({ client: opts.client, ids: opts.ids, recent: opts.recent, intervalMs: opts.intervalMs, sleep: opts.sleep })
  let lastError: string | undefined
  const print = (changes: WatchChange[]) => {
    for (const change of changes) opts.io.out(changeLine(change, opts.json))
    const { error } = watcher.getSnapshot()
    if (error && error !== lastError) opts.io.err(`Poll failed: ${error}\n`)
    lastError = error
  }
  // The live view's first paint: its modules load while the first poll waits on the network (piped, never).
  const paintModules = opts.tui ? Promise.all([import('../tui/mount/first-paint.js'), import('../tui/view-models/watch-frame.js')]) : undefined
  // Awaited below; should the poll throw first, a failed load must not also surface as an unhandled rejection.
  paintModules?.catch(() => {})
  // Named charges must exist: a mistyped id is an error up front, not a lane that never moves.
  const initial = opts.ids.length > 0 ? await watcher.poll() : undefined
  if (watcher.notFound.size > 0) throw notFoundError(watcher.notFound, opts.environment)
  const shutdown = opts.stop ? undefined : shutdownSignal()
  const stop = opts.stop ?? shutdown!.signal
  const loop = new AbortController()
  const onStop = () => loop.abort()
  stop.addEventListener('abort', onStop, { once: true })
  try {
    if (paintModules) {
      const [{ paintFirstFrame }, { watchFrame }] = await paintModules
      const scope = opts.ids.length ? `${opts.ids.length} charge${opts.ids.length === 1 ? '' : 's'}` : `the ${opts.recent} newest charges`
      // The first frame goes on the terminal now, from the view's own rows; Ink, React and Yoga load after it and take it over.
      const first = { state: watcher.getSnapshot(), scope, environment: opts.environment, intervalMs: opts.intervalMs, details: false, statusLines: [] }
      const painted = paintFirstFrame(opts.io.stdout, (columns, height) => watchFrame({ ...first, columns, height }).rows)
      const { runWatchView } = await loadView(() => import('../tui/mount/run-watch-view.js')).catch((err: unknown) => {
        painted?.withdraw()
        throw err
      })
      const polling = watcher.run(loop.signal, undefined, false, initial !== undefined)
      await runWatchView({ watcher, scope, environment: opts.environment, intervalMs: opts.intervalMs, stdout: opts.io.stdout, stdin: opts.io.stdin, stderr: opts.io.stderr, stop, painted })
      loop.abort()
      await polling
    } else {
      if (initial) print(initial)
      const untilFinal = opts.ids.length > 0
      if (!(untilFinal && watcher.allFinal())) await watcher.run(loop.signal, print, untilFinal, initial !== undefined)
    }
  } finally {
    stop.removeEventListener('abort', onStop)
    shutdown?.dispose()
  }
}
