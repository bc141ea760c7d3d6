/**
 * `svc webhooks listen` end to end: open the event log, start the listener, register it (sandbox)
 * or say what to expose (real service), then either the live view (TTY) or one JSON line per
 * delivery, until q, SIGINT, SIGTERM or SIGHUP — and then finish the deliveries in flight before leaving.
 */
import type { ApiClient } from '../api/types.js'
import type { Credentials } from '../config/resolve.js'
import { UsageError } from '../errors.js'
import type { IO } from '../output/io.js'
import { painter } from '../output/color.js'
import { loadView } from '../tui/mount/load-view.js'
import { ChargeConfirmer } from '../webhooks/confirm.js'
import { type Durability, EventStore } from '../webhooks/event-store.js'
import { defaultTarget, Forwarder, type ForwardTarget, targetName } from '../webhooks/forward.js'
import { type ListenerDelivery, WebhookListener } from '../webhooks/listener.js'
import { deliveryLine } from '../webhooks/ndjson.js'
import { type RegisterDeps, type Registration, registerListener, registrationNotes, registrationSummary, restoreWebhookUrls } from './listener-webhook-url.js'
import { replayEvent } from '../webhooks/replay.js'
import { shutdownSignal } from './shutdown.js'

export interface ListenRunOptions {
  /** The targets (`--forward [PATTERN=]URL`...), in flag order. */
  targets: ForwardTarget[]
  /** Added to every forwarded request, replays from the view included (`--header`). */
  headers?: Record<string, string>
  host: string
  port: number
  secrets: string[]
  skipVerify: boolean
  events?: string[]
  /** Live view (a TTY on both ends, and neither --no-tui nor --json). */
  tui: boolean
  io: IO
  credentials?: Credentials
  /** Why there are no credentials, for the note. */
  noCredentialsReason?: string
  client?: () => Promise<ApiClient>
  storePath?: string
  /** What the event log's commits survive (`--durability`); default 'normal'. */
  durability?: Durability
  /** Ends the session; default: SIGINT, SIGTERM or SIGHUP. */
  stop?: AbortSignal
  registerDeps?: RegisterDeps
  /** Called once the listener is up (tests). */
  onReady?: (url: string) => void
}

/** The targets in one line, for people: `URL · pattern=URL · …`. */
export function targetsText(targets: readonly ForwardTarget[]): string {
  return targets.map(targetName).join(' · ')
}

/** The first NDJSON line: where it listens, the default target (or null), and the routes by pattern when there are any. */
export function listeningLine(url: string, targets: readonly ForwardTarget[]): Record<string, unknown> {
  const routes = targets.filter((t) => t.pattern !== null).map((t) => ({ pattern: t.pattern, url: t.url.href }))
  return { listening: url, forward: defaultTarget(targets)?.url.href ?? null, ...(routes.length > 0 ? { routes } : {}) }
}

export async function runListen(opts: ListenRunOptions): Promise<void> {
  const { io } = opts
  const { targets } = opts
  const store = await EventStore.open({ path: opts.storePath, env: io.env, durability: opts.durability })
  // One forwarder (one connection pool) for the listener and the view's replays alike.
  const forwarder = new Forwarder({ headers: opts.headers })
  const listener = new WebhookListener({
    targets,
    forwarder,
    secrets: opts.secrets,
    store,
    skipVerify: opts.skipVerify,
    events: opts.events,
    host: opts.host,
    port: opts.port,
  })
  const shutdown = opts.stop ? undefined : shutdownSignal()
  const stop = opts.stop ?? shutdown!.signal
  // Piped: every delivery gets its line, also the ones finished while shutting down. The lines
  // of one event-loop turn go out in one write (under load, one write per line cost a syscall each).
  const lineBuffer = new LineBuffer((text) => io.out(text))
  const write = (d: ListenerDelivery) => lineBuffer.push(`${JSON.stringify(deliveryLine(d))}\n`)
  if (!opts.tui) listener.on('delivery', write)
  let registration: Registration | undefined
  try {
    const url = await listener.start().catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') throw new UsageError(`Port ${opts.port} on ${opts.host} is already in use.`, { field: 'port', hint: 'Pass another --port, or --port 0 for any free one.' })
      if (err.code === 'EADDRNOTAVAIL') throw new UsageError(`Cannot listen on ${opts.host}: no such local address.`, { field: 'host' })
      throw err
    })
    const register = async (): Promise<Started> => {
      registration = await registerListener(url, opts.credentials, opts.noCredentialsReason ?? 'none configured', opts.registerDeps)
      const notes = registrationNotes(registration, url, opts.secrets, opts.skipVerify)
      if (opts.events) notes.push(`Forwarding only ${opts.events.join(', ')}; other events are acknowledged (2xx) and not retried.`)
      if (!defaultTarget(targets)) notes.push('No bare --forward URL: events no pattern matches are acknowledged (2xx) and not forwarded.')
      opts.onReady?.(url)
      // The header's summary already says where it registered: the view shows that note once.
      return { notes, summary: registrationSummary(registration, opts.secrets, opts.skipVerify), summarized: registration.kind === 'sandbox' ? 1 : 0 }
    }
    if (opts.tui) await live(opts, targets, listener, forwarder, store, url, register, stop)
    else await lines(opts, targets, url, (await register()).notes, stop)
  } finally {
    shutdown?.dispose()
    // The live view has let go of the screen by now, so stderr is free in both modes.
    const inFlight = listener.inProgress
    if (inFlight > 0) io.err(`Finishing ${inFlight} deliver${inFlight === 1 ? 'y' : 'ies'} in flight… (Ctrl+C again to stop now; the service retries what was not answered)\n`)
    await listener.close()
    await forwarder.close()
    listener.off('delivery', write)
    lineBuffer.flush()
    // Nothing listens on this port any more: give the sandbox its previous webhook URL back.
    if (registration) for (const n of await restoreWebhookUrls(registration, opts.credentials, opts.registerDeps)) io.err(`${n}\n`)
    store.close()
    await flush(io.stdout)
  }
}

/** Text gathered during one event-loop turn and written at its end, in order. */
class LineBuffer {
  private pending = ''
  private scheduled = false

  constructor(private readonly write: (text: string) => void) {}

  push(text: string): void {
    this.pending += text
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => this.flush())
  }

  flush(): void {
    this.scheduled = false
    if (!this.pending) return
    const text = this.pending
    this.pending = ''
    this.write(text)
  }
}

/** Resolves once everything written so far has been handed to the OS (a pipe may lag behind). */
function flush(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const s = stream as { writableEnded?: boolean; destroyed?: boolean; errored?: unknown }
    // A closed pipe (the reader left: `| head`) will never call back; there is nothing to wait for.
    if (s.writableEnded || s.destroyed || s.errored) resolve()
    else stream.write('', () => resolve())
  })
}

async function lines(opts: ListenRunOptions, targets: readonly ForwardTarget[], url: string, notes: string[], stop: AbortSignal): Promise<void> {
  const { io } = opts
  const paint = painter(io.colorErr)
  io.out(`${JSON.stringify(listeningLine(url, targets))}\n`)
  if (opts.skipVerify) io.err(`${paint(['bold', 'red'], 'WARNING: --skip-verify is on: signatures are NOT checked; anything sent to this port reaches your app.')}\n`)
  io.err(`Listening on ${url}, forwarding to ${targetsText(targets)}\n`)
  for (const n of notes) io.err(`${n}\n`)
  if (!stop.aborted) await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }))
}

/** What the listener says once it is registered: the notes, and their gist for the view's header. */
interface Started {
  notes: string[]
  summary: string
  /** How many of the first notes the summary already says (the live view leaves them out). */
  summarized: number
}

async function live(
  opts: ListenRunOptions,
  targets: readonly ForwardTarget[],
  listener: WebhookListener,
  forwarder: Forwarder,
  store: EventStore,
  url: string,
  register: () => Promise<Started>,
  stop: AbortSignal,
): Promise<void> {
  const [{ ListenFeed }, { runListenView }] = await Promise.all([import('../tui/view-models/listen-feed.js'), loadView(() => import('../tui/mount/run-listen-view.js'))])
  const client = opts.client
  const confirmer = client && opts.credentials ? new ChargeConfirmer(async (id) => (await client()).getCharge(id)) : undefined
  const feed = new ListenFeed({ confirmer, confirmEnvironment: opts.credentials?.environment, showTargets: targets.length > 1 })
  // The view comes up first and registers right after its first frame: registering makes the
  // process's first fetch (undici and the client load then), which the first frame need not wait for (no
  // delivery can come before the sandbox knows the URL). The notes appear above the view, where
  // they were printed before it; the header keeps the gist.
  feed.setRegistration('registering…')
  setImmediate(() => {
    register().then(
      ({ notes, summary, summarized }) => feed.setRegistration(summary, notes.slice(summarized)),
      (err: Error) => feed.setRegistration(`not registered: ${err.message}`),
    )
  })
  const add = (d: ListenerDelivery) => feed.add(d)
  listener.on('delivery', add)
  const onReplay = async (eventId: string) => {
    const r = await replayEvent({ store, eventId, forwarder, targets, secrets: opts.secrets })
    feed.add({ record: r.record, skipVerify: opts.skipVerify })
    const how = r.resigned ? 're-signed' : 'original signature (no known secret signed it)'
    return r.result.ok ? `replayed ${eventId} → ${r.result.status} in ${r.result.latencyMs} ms (${how})` : `replay of ${eventId} failed: ${r.result.message}`
  }
  try {
    await runListenView({
      feed,
      listening: url,
      forward: targetsText(targets),
      environment: opts.credentials?.environment,
      skipVerify: opts.skipVerify,
      onReplay,
      stdout: opts.io.stdout,
      stdin: opts.io.stdin,
      stderr: opts.io.stderr,
      stop,
    })
  } finally {
    listener.off('delivery', add)
  }
}
