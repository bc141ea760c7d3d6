/**
 * `svc relay serve`'s HTTP side: ingress (`POST /hooks/NAME`), the listeners' streams and acks
 * (contract/relay-stream.ts), `/healthz` and `/metrics`. It faces the internet, so every input
 * is bounded: header size, body size (1 MiB), request deadlines (net/server-guard), failed token
 * checks per address, open streams per address. There is no admin route: channels and tokens are
 * made by commands that open the store on the host.
 *
 * Time: `now` is the relay's clock (arrival times, the signature's 300 s, backoffs, retention);
 * `pollMs` is how often it looks at the store for revoked tokens and removed channels, sends
 * what is due again and (every `pruneEveryMs` of `now`) prunes. Tests inject both.
 */
import { randomUUID } from 'node:crypto'
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { RELAY_ACK_PATH, RELAY_HOOKS_PREFIX, RELAY_PING_MS, RELAY_STREAM_PATH, RelayAckSchema } from '../../contract/relay-stream.js'
import { isLoopbackPeer } from '../../net/loopback.js'
import { MAX_BODY_BYTES, readCappedBody } from '../../net/body.js'
import { answerClientErrors, guardedServerOptions } from '../../net/server-guard.js'
import { verifyDelivery } from '../../webhooks/verify-delivery.js'
import { routes } from '../routing.js'
import type { ChannelRecord, PruneResult, RelayStore, StreamLease, TokenRecord } from '../store/types.js'
import { bearerToken, hashRelayToken, isRelayTokenShaped, RELAY_NAME } from '../tokens.js'
import { RelayMetrics } from './metrics.js'
import { AuthFailureLimiter } from './rate-limit.js'
import { RelayStream } from './stream.js'

export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000
export const REDELIVER_MS: readonly number[] = [10_000, 30_000, 60_000]

export type RelayLogFields = Record<string, string | number | boolean | undefined>
/** One JSON line per call; never given a token, a secret or a body. */
export type RelayLog = (level: 'info' | 'warn' | 'error', msg: string, fields?: RelayLogFields) => void

export interface RelayServerOptions {
  store: RelayStore
  host?: string
  port?: number
  tls?: { cert: string | Buffer; key: string | Buffer }
  /** Trust X-Forwarded-For/Proto, from loopback peers only (a proxy on the same host). */
  behindProxy?: boolean
  /** Serve /metrics to any address (default: loopback clients only). */
  metricsPublic?: boolean
  /** Shown in logs and used for nothing else: the URL the service posts to. */
  publicUrl?: string
  defaultRetentionMs?: number
  now?: () => number
  pollMs?: number
  pingMs?: number
  pruneEveryMs?: number
  redeliverMs?: readonly number[]
  toleranceSeconds?: number
  maxBodyBytes?: number
  /** Open streams per client address (loopback clients are not counted). Default 20. */
  maxStreamsPerAddress?: number
  /** Unacked deliveries in flight per stream before it waits for acks (default RELAY_WINDOW, 256). */
  window?: number
  /** Failed token checks per address per window before 429. Default 10 per minute. */
  authFailures?: { limit: number; windowMs: number }
  log?: RelayLog
}

export interface RelayServer {
  /** The listening URL (http or https, the bound port). */
  url: string
  port: number
  metrics: RelayMetrics
  /** The open streams, by token name. */
  streams(): ReadonlyMap<string, RelayStream>
  /** One round of the poll loop now: revocations, redeliveries, pruning when due. */
  tick(): Promise<void>
  /** Prunes now (the poll loop does it every pruneEveryMs) and tells open streams their gaps. */
  prune(): Promise<PruneResult>
  /** Graceful stop: no new deliveries, commits in flight finished, streams told `shutdown`. Leaves the store open. */
  stop(): Promise<void>
}

const CHANNEL_CACHE_MS = 500
const HEALTH_CACHE_MS = 1000
/** Every this many polls each open stream looks for new deliveries without a wake-up (5 s at the default poll). */
const SWEEP_EVERY_TICKS = 10
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no', connection: 'keep-alive' }

function errorBody(code: string, message: string, requestId: string): string {
  return JSON.stringify({ error: { code, message, requestId } })
}

export async function startRelayServer(opts: RelayServerOptions): Promise<RelayServer> {
  const store = opts.store
  const now = opts.now ?? Date.now
  const pollMs = opts.pollMs ?? 500
  const pingMs = opts.pingMs ?? RELAY_PING_MS
  const pruneEveryMs = opts.pruneEveryMs ?? 60_000
  const redeliverMs = opts.redeliverMs ?? REDELIVER_MS
  const tolerance = opts.toleranceSeconds ?? 300
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES
  const maxStreams = opts.maxStreamsPerAddress ?? 20
  const retention = opts.defaultRetentionMs ?? DEFAULT_RETENTION_MS
  const log: RelayLog = opts.log ?? ((level, msg, fields) => process.stderr.write(`${JSON.stringify({ time: new Date(now()).toISOString(), level, msg, ...fields })}\n`))
  const metrics = new RelayMetrics()
  const limiter = new AuthFailureLimiter({ ...(opts.authFailures ?? { limit: 10, windowMs: 60_000 }), now })
  const streams = new Map<string, RelayStream>()
  const streamsPerAddress = new Map<string, number>()
  const channelCache = new Map<string, { at: number; channel: ChannelRecord }>()
  let liveTokens: TokenRecord[] = []
  let stopping = false
  // The first poll prunes (a relay restarted after a long stop has old deliveries to drop).
  let lastPrune = Number.NEGATIVE_INFINITY
  const inflight = new Set<Promise<unknown>>()

  const streamHost = {
    store,
    now,
    ...(opts.window ? { window: opts.window } : {}),
    redeliverMs,
    onDelivered: (token: string, first: boolean) => metrics.add(first ? metrics.delivered : metrics.redelivered, token),
    onFiltered: (token: string, n: number) => metrics.add(metrics.filtered, token, n),
    onError: (err: unknown, stream: RelayStream) => {
      log('error', 'stream failed', { token: stream.token.name, error: errorText(err) })
      stream.close('shutdown', 'the relay could not read its store; reconnect')
    },
  }

  // A load balancer may send a listener's acks to another instance than its stream's: the store
  // says so (PostgreSQL), and the stream here drops them from its window.
  const unacked = store.onAcked?.(
    (token) =>
      void streams
        .get(token)
        ?.syncAcks()
        .catch(() => {}),
  )
  const unwake = store.onIngest((channel) => {
    for (const s of streams.values()) if (s.channel === channel) s.pump()
  })

  function clientAddress(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ?? 'unknown'
    if (opts.behindProxy && isLoopbackPeer(peer)) {
      const xff = req.headers['x-forwarded-for']
      const list = (Array.isArray(xff) ? xff.join(',') : (xff ?? ''))
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (list.length > 0) return list[list.length - 1]!
    }
    return peer
  }

  function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    if (res.headersSent) return
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)), ...headers })
    res.end(body)
  }

  async function channelNamed(name: string): Promise<ChannelRecord | undefined> {
    const hit = channelCache.get(name)
    if (hit && performance.now() - hit.at < CHANNEL_CACHE_MS) return hit.channel
    const channel = await store.getChannel(name)
    if (channel) channelCache.set(name, { at: performance.now(), channel })
    else channelCache.delete(name)
    if (channelCache.size > 10_000) channelCache.clear()
    return channel
  }

  async function ingress(req: IncomingMessage, res: ServerResponse, name: string, id: string): Promise<void> {
    const address = clientAddress(req)
    const refuse = (status: number, reason: string, message: string, extra: Record<string, string> = {}) => {
      metrics.add(metrics.refused, reason)
      log('warn', 'delivery refused', { channel: RELAY_NAME.test(name) ? name : undefined, reason, status, address, requestId: id })
      send(res, status, errorBody(status === 413 ? 'invalid_request' : status === 503 ? 'unavailable' : 'unauthorized', message, id), extra)
    }
    if (stopping) return refuse(503, 'shutting_down', 'the relay is stopping; retry', { 'retry-after': '5', connection: 'close' })
    // The body is read before the channel is looked up: an unknown channel answers exactly as a bad signature.
    const read = await readCappedBody(req, { limit: maxBody, drainLimit: maxBody * 4 })
    if (!read.ok) {
      if (read.tooLarge === 'cut') return
      return refuse(413, 'too_large', `the body is larger than ${maxBody} bytes`, { connection: 'close' })
    }
    const arrivedMs = now()
    const channel = RELAY_NAME.test(name) ? await channelNamed(name) : undefined
    const unverified = 'the delivery could not be verified'
    if (!channel) return refuse(401, 'unknown_channel', unverified)
    const verdict = verifyDelivery({ body: read.body, headers: req.headers, secrets: channel.secrets, nowSeconds: Math.floor(arrivedMs / 1000), toleranceSeconds: tolerance })
    if (!verdict.ok) return refuse(401, verdict.reason, unverified)
    const headers: Record<string, string> = {}
    for (const [k, v] of Object.entries(req.headers)) if ((k === 'content-type' || k.startsWith('x-svc-')) && typeof v === 'string') headers[k] = v
    const started = performance.now()
    let seq: number
    try {
      const stored = await store.ingest({
        channel: channel.name,
        ...(verdict.eventId !== undefined ? { eventId: verdict.eventId } : {}),
        ...(verdict.type !== undefined ? { eventType: verdict.type } : {}),
        arrivedAt: new Date(arrivedMs).toISOString(),
        headers,
        body: read.body,
      })
      seq = stored.seq
    } catch (err) {
      lastHealth = undefined
      log('error', 'store cannot commit', { channel: channel.name, error: errorText(err), requestId: id })
      return refuse(503, 'store_unavailable', 'the relay cannot store the delivery now; retry', { 'retry-after': '5' })
    }
    metrics.observeCommit((performance.now() - started) / 1000)
    metrics.add(metrics.ingested, channel.name)
    log('info', 'delivery stored', { channel: channel.name, seq, eventId: verdict.eventId, type: verdict.type, requestId: id })
    send(res, 200, JSON.stringify({ received: true }))
    // Tokens this delivery is not for move past it at once (so a token that is offline never
    // counts it as backlog nor as lost); a token made in the last poll gets it skipped on its stream.
    const excluded = liveTokens.filter((t) => t.channel === channel.name && !routes(t, verdict.type, verdict.event))
    await Promise.all(
      excluded.map(async (t) => {
        await store.ack(t.name, [seq], new Date(arrivedMs).toISOString()).catch(() => {})
        metrics.add(metrics.filtered, t.name)
      }),
    )
  }

  /** The token of the request, or an answer already sent (401/429). */
  async function authenticate(req: IncomingMessage, res: ServerResponse, id: string): Promise<TokenRecord | undefined> {
    const address = clientAddress(req)
    const wait = limiter.retryAfterMs(address)
    if (wait > 0) {
      send(res, 429, errorBody('rate_limited', 'too many failed token checks from this address', id), { 'retry-after': String(Math.ceil(wait / 1000)) })
      return undefined
    }
    const token = bearerToken(req.headers.authorization)
    const record = token !== undefined && isRelayTokenShaped(token) ? await store.findToken(hashRelayToken(token)) : undefined
    if (!record) {
      limiter.fail(address)
      metrics.authFailures.count++
      log('warn', 'token refused', { address, path: req.url?.split('?')[0], requestId: id })
      send(res, 401, errorBody('unauthorized', 'a valid relay token is needed (Authorization: Bearer svcrelay_…)', id), { 'www-authenticate': 'Bearer' })
      return undefined
    }
    return record
  }

  async function openStream(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    if (stopping) return send(res, 503, errorBody('unavailable', 'the relay is stopping; reconnect', id), { 'retry-after': '1' })
    const token = await authenticate(req, res, id)
    if (!token) return
    const address = clientAddress(req)
    const counted = !isLoopbackPeer(address)
    if (counted && (streamsPerAddress.get(address) ?? 0) >= maxStreams) {
      log('warn', 'stream refused: too many from this address', { token: token.name, address, requestId: id })
      return send(res, 429, errorBody('rate_limited', `at most ${maxStreams} open streams per address`, id), { 'retry-after': '5' })
    }
    // On a store several instances share, the token's stream is taken for this instance first:
    // a stream of it on another instance hears it and closes as `replaced`.
    let lease: StreamLease | undefined
    try {
      lease = await store.claimStream?.(token.name)
    } catch (err) {
      log('error', 'stream refused: the store cannot take the stream', { token: token.name, error: errorText(err), requestId: id })
      return send(res, 503, errorBody('unavailable', 'the relay cannot reach its store; reconnect', id), { 'retry-after': '1' })
    }
    const socket = req.socket as Socket
    socket.setNoDelay(true)
    socket.setKeepAlive(true, pingMs)
    res.writeHead(200, SSE_HEADERS)
    res.flushHeaders()
    const previous = streams.get(token.name)
    if (previous) {
      previous.close('replaced', 'another connection with this token took over the stream')
      log('info', 'stream replaced', { token: token.name, address: previous.address })
    }
    const stream = new RelayStream(token, address, res, streamHost)
    streams.set(token.name, stream)
    if (counted) streamsPerAddress.set(address, (streamsPerAddress.get(address) ?? 0) + 1)
    log('info', 'stream opened', { token: token.name, channel: token.channel, address, requestId: id })
    lease?.onLost((reason) => {
      if (reason === 'revoked') stream.close('revoked', 'this token was revoked')
      else stream.close('replaced', 'another connection with this token took over the stream')
      log('info', reason === 'revoked' ? 'stream closed: token no longer valid' : 'stream replaced', { token: token.name, address })
    })
    res.on('close', () => {
      void lease?.release()
      stream.gone()
      if (counted) {
        const n = (streamsPerAddress.get(address) ?? 1) - 1
        if (n <= 0) streamsPerAddress.delete(address)
        else streamsPerAddress.set(address, n)
      }
      if (streams.get(token.name) === stream) {
        streams.delete(token.name)
        void store.markConnected(token.name, undefined).catch(() => {})
      }
      log('info', 'stream closed', { token: token.name, address })
    })
    await store.markConnected(token.name, new Date(now()).toISOString()).catch(() => {})
    await stream.start().catch((err) => streamHost.onError(err, stream))
  }

  async function ack(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const token = await authenticate(req, res, id)
    if (!token) return
    const read = await readCappedBody(req, { limit: 64 * 1024 })
    if (!read.ok) return send(res, 413, errorBody('invalid_request', 'the ack body is larger than 64 KiB', id), { connection: 'close' })
    let parsed: ReturnType<typeof RelayAckSchema.safeParse>
    try {
      parsed = RelayAckSchema.safeParse(JSON.parse(read.body.toString('utf8')))
    } catch {
      return send(res, 400, errorBody('invalid_request', 'the body is not JSON: {"seqs":[…]}', id))
    }
    if (!parsed.success) return send(res, 400, errorBody('invalid_request', 'the body must be {"seqs":[1..1000 positive integers]}', id))
    try {
      await store.ack(token.name, parsed.data.seqs, new Date(now()).toISOString())
    } catch (err) {
      log('error', 'store cannot commit', { token: token.name, error: errorText(err), requestId: id })
      return send(res, 503, errorBody('unavailable', 'the relay cannot store the ack now; retry', id), { 'retry-after': '1' })
    }
    metrics.add(metrics.acked, token.name, parsed.data.seqs.length)
    streams.get(token.name)?.acked(parsed.data.seqs)
    res.writeHead(204, { 'cache-control': 'no-store' })
    res.end()
  }

  // /healthz is open to anyone and each check is a write: one check per HEALTH_CACHE_MS serves them all.
  let lastHealth: { at: number; ok: Promise<boolean> } | undefined
  function health(): Promise<boolean> {
    if (!lastHealth || performance.now() - lastHealth.at >= HEALTH_CACHE_MS) lastHealth = { at: performance.now(), ok: store.healthy().catch(() => false) }
    return lastHealth.ok
  }

  async function metricsPage(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    if (!opts.metricsPublic && !isLoopbackPeer(clientAddress(req))) return send(res, 404, errorBody('not_found', 'no such route', id))
    let tokens: Array<{ name: string; channel: string; backlog: number; oldestAgeSeconds: number; connected: boolean }> = []
    try {
      const snap = await store.status(new Date(now()))
      tokens = snap.tokens
        .filter((t) => !t.revoked)
        .map((t) => ({
          name: t.name,
          channel: t.channel,
          backlog: t.backlog,
          oldestAgeSeconds: t.oldestUnackedAt ? Math.max(0, (now() - Date.parse(t.oldestUnackedAt)) / 1000) : 0,
          connected: streams.has(t.name),
        }))
    } catch {
      // The counters still say something when the store cannot be read; /healthz says why.
    }
    const body = metrics.render({ streams: streams.size, tokens })
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)) })
    res.end(body)
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = randomUUID()
    res.setHeader('x-request-id', id)
    const path = (req.url ?? '/').split('?')[0]!
    const method = req.method ?? 'GET'
    if (path.startsWith(RELAY_HOOKS_PREFIX)) {
      if (method !== 'POST') return send(res, 405, errorBody('method_not_allowed', 'POST only', id), { allow: 'POST' })
      return ingress(req, res, decodeSegment(path.slice(RELAY_HOOKS_PREFIX.length)), id)
    }
    if (path === RELAY_STREAM_PATH) {
      if (method !== 'GET') return send(res, 405, errorBody('method_not_allowed', 'GET only', id), { allow: 'GET' })
      return openStream(req, res, id)
    }
    if (path === RELAY_ACK_PATH) {
      if (method !== 'POST') return send(res, 405, errorBody('method_not_allowed', 'POST only', id), { allow: 'POST' })
      return ack(req, res, id)
    }
    if (path === '/healthz' && (method === 'GET' || method === 'HEAD')) {
      const ok = !stopping && (await health())
      return send(res, ok ? 200 : 503, JSON.stringify({ ok }))
    }
    if (path === '/metrics' && method === 'GET') return metricsPage(req, res, id)
    send(res, 404, errorBody('not_found', 'no such route', id))
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const p = route(req, res).catch((err) => {
      log('error', 'request failed', { error: errorText(err) })
      send(res, 500, errorBody('internal_error', 'the relay failed to answer', 'none'))
    })
    inflight.add(p)
    void p.finally(() => inflight.delete(p))
  }

  const serverOptions = { ...guardedServerOptions({ headersMs: 10_000, requestMs: 30_000 }), maxHeaderSize: 16 * 1024 }
  const server: Server = opts.tls ? createHttpsServer({ ...serverOptions, cert: opts.tls.cert, key: opts.tls.key }, handler) : createHttpServer(serverOptions, handler)
  server.maxConnections = 20_000
  answerClientErrors(server, () => randomUUID())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port ?? 8080, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const addr = server.address() as AddressInfo
  const hostForUrl = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
  const url = `${opts.tls ? 'https' : 'http'}://${hostForUrl}:${addr.port}`

  async function refreshTokens(): Promise<void> {
    const [tokens, channels] = await Promise.all([store.listTokens(), streams.size > 0 ? store.listChannels() : Promise.resolve(undefined)])
    liveTokens = tokens.filter((t) => !t.revokedAt)
    if (streams.size === 0) return
    const byName = new Map(tokens.map((t) => [t.name, t]))
    const channelNames = new Set(channels?.map((c) => c.name))
    for (const s of streams.values()) {
      const t = byName.get(s.token.name)
      if (t && !t.revokedAt && t.hash === s.token.hash) continue
      if (!channelNames.has(s.token.channel)) s.close('channel_removed', `channel ${s.token.channel} was removed from the relay`)
      else s.close('revoked', 'this token was revoked')
      log('info', 'stream closed: token no longer valid', { token: s.token.name })
    }
  }

  async function prune(): Promise<PruneResult> {
    lastPrune = now()
    const result = await store.prune(new Date(now()), retention)
    if (result.deleted > 0) log('info', 'pruned', { deleted: result.deleted, tokensWithLoss: Object.keys(result.lostByToken).length })
    for (const name of Object.keys(result.lostByToken)) await streams.get(name)?.tellGap()
    return result
  }

  let ticking: Promise<void> | undefined
  let ticks = 0
  async function tick(): Promise<void> {
    if (ticking) return ticking
    ticking = (async () => {
      try {
        await refreshTokens()
        for (const s of [...streams.values()]) await s.redeliverDue()
        // A wake-up can be missed (another process wrote to the store, a NOTIFY was lost): look anyway, now and then.
        if (++ticks % SWEEP_EVERY_TICKS === 0) for (const s of streams.values()) s.pump()
        if (now() - lastPrune >= pruneEveryMs) await prune()
      } catch (err) {
        log('error', 'poll failed', { error: errorText(err) })
      }
    })().finally(() => {
      ticking = undefined
    })
    return ticking
  }

  const poll = setInterval(() => void tick(), pollMs)
  poll.unref()
  const ping = setInterval(() => {
    const at = new Date(now()).toISOString()
    for (const s of streams.values()) {
      s.ping()
      void store.markConnected(s.token.name, at).catch(() => {})
    }
  }, pingMs)
  ping.unref()
  await refreshTokens().catch(() => {})

  log('info', 'relay listening', { url, publicUrl: opts.publicUrl, store: store.kind, tls: Boolean(opts.tls), behindProxy: Boolean(opts.behindProxy) })

  return {
    url,
    port: addr.port,
    metrics,
    streams: () => streams,
    tick,
    prune,
    async stop() {
      if (stopping) return
      stopping = true
      clearInterval(poll)
      clearInterval(ping)
      unwake()
      unacked?.()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const s of streams.values()) {
        s.close('shutdown', 'the relay is stopping; reconnect')
        await store.markConnected(s.token.name, undefined).catch(() => {})
      }
      streams.clear()
      // Deliveries being verified or committed finish and get their answer.
      while (inflight.size > 0) await Promise.allSettled([...inflight])
      await ticking
      server.closeIdleConnections()
      const force = setTimeout(() => server.closeAllConnections(), 2_000)
      force.unref()
      await closed
      clearTimeout(force)
      log('info', 'relay stopped')
    },
  }
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return ''
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
