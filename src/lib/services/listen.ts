/**
 * `svc webhooks listen` end to end: open the event log, start the listener, register it (sandbox)
 * or say what to expose (real service), then either the live view (TTY) or one JSON line per
 * delivery, until q, SIGINT, SIGTERM or SIGHUP — and then finish the deliveries in flight before leaving.
 */
import type { ApiClient } from '../api/types.js'
import type { Credentials } from '../config/resolve.js'
import { CliError, EXIT, UsageError } from '../errors.js'
import type { IO } from '../output/io.js'
import { painter } from '../output/color.js'
import { loadView } from '../tui/mount/load-view.js'
import type { ListenFeed } from '../tui/view-models/listen-feed.js'
import { ChargeConfirmer } from '../webhooks/confirm.js'
import { type Durability, EventStore } from '../webhooks/event-store.js'
import { defaultTarget, Forwarder, type ForwardTarget, targetName } from '../webhooks/forward.js'
import { type ListenerDelivery, WebhookListener } from '../webhooks/listener.js'
import { deliveryLine } from '../webhooks/ndjson.js'
import { type RegisterDeps, type Registration, registerListener, registrationNotes, registrationSummary, restoreWebhookUrls } from '../webhooks/listener-webhook-url.js'
import { replayEvent } from '../webhooks/replay.js'
import type { RelayEnd, RelaySource, RelayStatus, Timers } from '../webhooks/relay-source.js'
import { shutdownSignal } from '../input/shutdown.js'

export type { Durability }

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
  /** Receive through a relay's stream instead of a local HTTP server (`--relay`). */
  relay?: RelayListenOptions
}

export interface RelayListenOptions {
  urls: URL[]
  token: string
  /** Tests: the stream's ping interval and the timers of the backoff and the silence deadline. */
  pingMs?: number
  timers?: Timers
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
  const store = await EventStore.open({ path: opts.storePath, env: io.env, durability: opts.durability, journal: true })
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
  let source: RelaySource | undefined
  try {
    if (opts.relay) {
      // Loaded only through a relay: the local server's first frame does not pay for the SSE client.
      const { RelaySource } = await import('../webhooks/relay-source.js')
      source = new RelaySource({ urls: opts.relay.urls, token: opts.relay.token, handle: (d) => listener.handle(d), pingMs: opts.relay.pingMs, timers: opts.relay.timers })
      const end = await throughRelay(opts, targets, listener, forwarder, store, source, stop)
      if (end.kind === 'ended') throw relayEndError(end)
      return
    }
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
    const begin = (feed: ListenFeed) => {
      feed.setRegistration('registering…')
      return () =>
        setImmediate(() => {
          register().then(
            ({ notes, summary, summarized }) => feed.setRegistration(summary, notes.slice(summarized)),
            (err: Error) => feed.setRegistration(`not registered: ${err.message}`),
          )
        })
    }
    if (opts.tui) await live(opts, targets, listener, forwarder, store, url, begin, stop)
    else await lines(opts, targets, url, (await register()).notes, stop)
  } finally {
    shutdown?.dispose()
    // The live view has let go of the screen by now, so stderr is free in both modes.
    const inFlight = listener.inProgress + (source?.inProgress ?? 0)
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
  begin: (feed: ListenFeed) => (() => void) | undefined,
  stop: AbortSignal,
): Promise<void> {
  const [{ ListenFeed, everyFrame }, { paintFirstFrame }, { listenFrame }] = await Promise.all([
    import('../tui/view-models/listen-feed.js'),
    import('../tui/mount/first-paint.js'),
    import('../tui/view-models/listen-frame.js'),
  ])
  const client = opts.client
  const confirmer = client && opts.credentials ? new ChargeConfirmer(async (id) => (await client()).getCharge(id)) : undefined
  // The view hears of deliveries once a frame: Ink renders on each notice, and a render per delivery held the listener to ~400 a second.
  const feed = new ListenFeed({ confirmer, confirmEnvironment: opts.credentials?.environment, showTargets: targets.length > 1, schedule: everyFrame() })
  // The view comes up first and registers (or connects to the relay) right after its first
  // frame: registering makes the process's first fetch (undici and the client load then), which
  // the first frame need not wait for (no delivery can come before the sandbox knows the URL).
  // The notes appear above the view, where they were printed before it; the header keeps the gist.
  const go = begin(feed)
  const add = (d: ListenerDelivery) => feed.add(d)
  listener.on('delivery', add)
  const view = { listening: url, forward: targetsText(targets), environment: opts.credentials?.environment, skipVerify: opts.skipVerify }
  // The first frame goes on the terminal now, from the view's own rows (its start notes come
  // later, with the registration); Ink, React and Yoga load after it and take it over.
  const painted = paintFirstFrame(opts.io.stdout, (columns, height) => listenFrame({ ...view, state: feed.getSnapshot(), columns, height, filter: 'all', details: false, statusLines: [] }).rows)
  const onReplay = async (eventId: string) => {
    const r = await replayEvent({ store, eventId, forwarder, targets, secrets: opts.secrets })
    feed.add({ record: r.record, skipVerify: opts.skipVerify })
    const how = r.resigned ? 're-signed' : 'original signature (no known secret signed it)'
    return r.result.ok ? `replayed ${eventId} → ${r.result.status} in ${r.result.latencyMs} ms (${how})` : `replay of ${eventId} failed: ${r.result.message}`
  }
  try {
    const { runListenView } = await loadView(() => import('../tui/mount/run-listen-view.js')).catch((err: unknown) => {
      painted?.withdraw()
      throw err
    })
    go?.()
    await runListenView({ ...view, feed, onReplay, stdout: opts.io.stdout, stdin: opts.io.stdin, stderr: opts.io.stderr, stop, painted })
  } finally {
    listener.off('delivery', add)
  }
}

/**
 * `listen --relay`: no local server; the relay source feeds the same listener. Ends when the
 * user stops it, or when the relay says this token is done with (revoked, replaced, channel
 * removed), which the caller turns into an error and an exit code.
 */
async function throughRelay(opts: ListenRunOptions, targets: readonly ForwardTarget[], listener: WebhookListener, forwarder: Forwarder, store: EventStore, source: RelaySource, stop: AbortSignal): Promise<RelayEnd> {
  const done = new AbortController()
  const onStop = () => done.abort()
  stop.addEventListener('abort', onStop, { once: true })
  if (stop.aborted) done.abort()
  const label = opts.relay!.urls.map((u) => u.href).join(', ')
  const running = source.run(done.signal).finally(() => done.abort())
  try {
    if (opts.tui) {
      // Nothing to start once the view is up: the source is already connecting.
      const begin = (feed: ListenFeed): undefined => {
        feed.setRegistration(`relay ${label}: connecting…`)
        // The header says the connection's state; what else happens (a gap, a closing, a warning) is a notice.
        source.on('status', (s) => {
          const { summary, note } = relayStatusText(s)
          if (summary) feed.setRegistration(summary)
          if (note && s.kind !== 'ready' && s.kind !== 'disconnected') feed.notice(note)
        })
        onFirstRejection(listener, (text) => feed.notice(text))
      }
      await live(opts, targets, listener, forwarder, store, `relay ${label}`, begin, done.signal)
      done.abort()
    } else {
      relayLines(opts, targets, source)
      onFirstRejection(listener, (text) => opts.io.err(`${text}\n`))
      if (!done.signal.aborted) await new Promise<void>((resolve) => done.signal.addEventListener('abort', () => resolve(), { once: true }))
    }
    return await running
  } finally {
    stop.removeEventListener('abort', onStop)
  }
}

/**
 * Said once, at the first relayed delivery that fails verification: the relay verified it on
 * arrival, so the likely cause is this listener's secret, and such deliveries are not acked.
 */
function onFirstRejection(listener: WebhookListener, say: (text: string) => void): void {
  const check = (d: ListenerDelivery) => {
    if (d.record.source !== 'relay' || d.record.outcome !== 'rejected') return
    listener.off('delivery', check)
    say(
      `A delivery from the relay failed verification (${d.record.verifyReason ?? 'failed'}). The relay verified it on arrival, so this listener's secret (--secret, SVC_WEBHOOK_SECRET or the profile's) most likely differs from the channel's. It is not acked: fix the secret and restart, the relay keeps it.`,
    )
  }
  listener.on('delivery', check)
}

/** The first NDJSON line in relay mode, after the stream's first `ready`: the relay, then as listeningLine. */
export function relayLine(url: string, targets: readonly ForwardTarget[], ready: { token: string; channel: string; backlog: number }): Record<string, unknown> {
  const { listening: _, ...rest } = listeningLine(url, targets)
  return { relay: url, ...rest, token: ready.token, channel: ready.channel, backlog: ready.backlog }
}

/** Piped: status to stderr for people, and NDJSON status lines (`"status"`) on stdout once the first line is out. */
function relayLines(opts: ListenRunOptions, targets: readonly ForwardTarget[], source: RelaySource): void {
  const { io } = opts
  const paint = painter(io.colorErr)
  let first = true
  if (opts.skipVerify) io.err(`${paint(['bold', 'red'], 'WARNING: --skip-verify is on: signatures are NOT checked.')}\n`)
  source.on('status', (s) => {
    const { line, note } = relayStatusText(s)
    if (s.kind === 'connecting') {
      if (first) io.err(`Connecting to the relay at ${s.url}…\n`)
      return
    }
    if (s.kind === 'ready' && first) {
      first = false
      io.out(`${JSON.stringify(relayLine(s.url, targets, s.ready))}\n`)
      io.err(`Ready: receiving through the relay at ${s.url} as token ${s.ready.token} (channel ${s.ready.channel}, ${s.ready.backlog} waiting), forwarding to ${targetsText(targets)}\n`)
      if (opts.events) io.err(`Forwarding only ${opts.events.join(', ')}; other events are acked and not sent again.\n`)
      return
    }
    if (note) io.err(`${note}\n`)
    if (!first && line) io.out(`${JSON.stringify(line)}\n`)
  })
}

/** How a status reads: a header summary (the view), a sentence (stderr, the view's notes) and an NDJSON line. */
export function relayStatusText(s: RelayStatus): { summary?: string; note?: string; line?: Record<string, unknown> } {
  switch (s.kind) {
    case 'connecting':
      return { summary: `relay ${s.url}: connecting…` }
    case 'ready':
      return {
        summary: `relay ${s.url}: ready as ${s.ready.token} (channel ${s.ready.channel})`,
        note: `Ready again: the relay at ${s.url} has ${s.ready.backlog} waiting for token ${s.ready.token}.`,
        line: { status: 'ready', relay: s.url, token: s.ready.token, channel: s.ready.channel, backlog: s.ready.backlog },
      }
    case 'disconnected': {
      const secs = s.retryInMs >= 1000 ? `${Math.round(s.retryInMs / 100) / 10} s` : `${s.retryInMs} ms`
      return {
        summary: `relay ${s.url}: DISCONNECTED (${s.reason}), retrying in ${secs}`,
        note: `Disconnected from the relay at ${s.url}: ${s.reason}. Retrying in ${secs}; the relay keeps what arrives meanwhile.`,
        line: { status: 'disconnected', relay: s.url, reason: s.reason, retryInMs: s.retryInMs },
      }
    }
    case 'gap': {
      const range = s.gap.fromSeq !== undefined ? ` (relay seq ${s.gap.fromSeq}–${s.gap.toSeq ?? s.gap.fromSeq})` : ''
      const why = s.gap.reason === 'retention' ? 'older than its retention' : 'over its size limit'
      return {
        note: `GAP: the relay pruned ${s.gap.lost} event${s.gap.lost === 1 ? '' : 's'} for this token before they were acked${range} (${why}); they will not arrive. Resend them from the service's panel if you need them.`,
        line: { status: 'gap', relay: s.url, lost: s.gap.lost, fromSeq: s.gap.fromSeq ?? null, toSeq: s.gap.toSeq ?? null, reason: s.gap.reason },
      }
    }
    case 'closing':
      return {
        note: `The relay at ${s.url} is closing the stream (${s.closing.reason}): ${s.closing.message}`,
        line: { status: 'closing', relay: s.url, reason: s.closing.reason, message: s.closing.message },
      }
    case 'warning':
      return { note: `relay ${s.url}: ${s.message}`, line: { status: 'warning', relay: s.url, message: s.message } }
  }
}

/** The relay will not take this token again: revoked or unknown → exit 3, replaced or channel removed → exit 1. */
function relayEndError(end: Extract<RelayEnd, { kind: 'ended' }>): CliError {
  switch (end.reason) {
    case 'revoked':
    case 'unauthorized':
      return new CliError(`The relay refused the token: ${end.message}`, {
        exitCode: EXIT.auth,
        code: 'relay_token_refused',
        hint: 'Make a new one on the relay host (`svc relay token create NAME --channel C`) and pass it with --token or SVC_RELAY_TOKEN.',
      })
    case 'replaced':
      return new CliError(`Another listener connected with this token: ${end.message}`, {
        exitCode: EXIT.unexpected,
        code: 'relay_stream_replaced',
        hint: 'One stream per token: give each listener its own token (`svc relay token create`).',
      })
    case 'channel_removed':
      return new CliError(`The relay removed this token's channel: ${end.message}`, { exitCode: EXIT.unexpected, code: 'relay_channel_removed' })
  }
}
