/**
 * `svc relay serve` below the command: checks the exposure rules (a non-loopback address needs
 * TLS or an explicit proxy mode), opens the store, starts the HTTP side and returns how to stop
 * both. Logs are JSON lines on the sink it is given (stderr), never a token, secret or body.
 */
import { readFileSync } from 'node:fs'
import { UsageError } from '../errors.js'
import { isLoopbackHost } from '../net/loopback.js'
import { type RelayLog, type RelayServer, startRelayServer } from '../relay/http/server.js'
import type { Durability } from '../relay/store/sqlite.js'
import type { RelayStore } from '../relay/store/types.js'
import { openRelayStoreFor } from './relay-admin.js'

export interface RelayServeInput {
  port: number
  host: string
  data?: string
  store?: string
  tlsCert?: string
  tlsKey?: string
  behindProxy: boolean
  metricsPublic: boolean
  /** Open streams per client address (default 20). */
  maxStreamsPerAddress?: number
  publicUrl?: string
  retentionMs: number
  durability: Durability
  env: NodeJS.ProcessEnv
  /** One JSON line per call. */
  writeLog: (line: string) => void
  now?: () => number
  /** Tests: a faster poll. */
  pollMs?: number
  /** Tests: the store to serve (the command opens one from --data/--store). */
  openStore?: () => Promise<RelayStore>
}

export interface RunningRelay {
  server: RelayServer
  store: RelayStore
  url: string
  /** Stops taking deliveries, finishes commits, tells streams `shutdown`, closes the store. */
  stop(): Promise<void>
}

export function checkExposure(input: Pick<RelayServeInput, 'host' | 'tlsCert' | 'tlsKey' | 'behindProxy'>): void {
  if (Boolean(input.tlsCert) !== Boolean(input.tlsKey)) throw new UsageError('--tls-cert and --tls-key go together.', { field: input.tlsCert ? 'tls-key' : 'tls-cert' })
  if (input.tlsCert && input.behindProxy) throw new UsageError('--behind-proxy and --tls-cert are exclusive: the proxy terminates TLS.', { field: 'behind-proxy' })
  if (!isLoopbackHost(input.host) && !input.tlsCert && !input.behindProxy) {
    throw new UsageError(`--host ${input.host} faces a network: give --tls-cert and --tls-key (HTTPS), or --behind-proxy (a TLS proxy on this host forwards to it).`, {
      field: 'host',
      hint: 'Tokens and deliveries would cross the network in clear text otherwise. Leave --host out to listen on 127.0.0.1.',
    })
  }
}

export async function runRelayServe(input: RelayServeInput): Promise<RunningRelay> {
  checkExposure(input)
  let tls: { cert: Buffer; key: Buffer } | undefined
  if (input.tlsCert && input.tlsKey) {
    const read = (path: string, field: string) => {
      try {
        return readFileSync(path)
      } catch (err) {
        throw new UsageError(`--${field} ${path} cannot be read: ${(err as Error).message}`, { field })
      }
    }
    tls = { cert: read(input.tlsCert, 'tls-cert'), key: read(input.tlsKey, 'tls-key') }
  }
  const store = input.openStore ? await input.openStore() : await openRelayStoreFor({ data: input.data, store: input.store, env: input.env, durability: input.durability })
  const now = input.now ?? Date.now
  const log: RelayLog = (level, msg, fields) => input.writeLog(JSON.stringify({ time: new Date(now()).toISOString(), level, msg, ...fields }))
  let server: RelayServer
  try {
    server = await startRelayServer({
      store,
      host: input.host,
      port: input.port,
      tls,
      behindProxy: input.behindProxy,
      metricsPublic: input.metricsPublic,
      ...(input.maxStreamsPerAddress ? { maxStreamsPerAddress: input.maxStreamsPerAddress } : {}),
      publicUrl: input.publicUrl,
      defaultRetentionMs: input.retentionMs,
      now,
      log,
      ...(input.pollMs ? { pollMs: input.pollMs } : {}),
    })
  } catch (err) {
    await store.close()
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') throw new UsageError(`--port ${input.port} is in use on ${input.host}.`, { field: 'port', code: 'port_in_use' })
    if (code === 'EADDRNOTAVAIL' || code === 'EACCES') throw new UsageError(`cannot listen on ${input.host}:${input.port} (${code}).`, { field: code === 'EACCES' ? 'port' : 'host' })
    throw err
  }
  return {
    server,
    store,
    url: server.url,
    async stop() {
      await server.stop()
      await store.close()
    },
  }
}
