/**
 * The relay's admin use-cases: channels, listener tokens and status. They run on the relay's
 * host and open its store directly (there is no remote admin API); the commands in
 * src/commands/relay/ map flags to these inputs and print what they return.
 */
import { configDir } from '../config/store.js'
import { CliError, EXIT, UsageError } from '../errors.js'
import { parseEventFilter } from '../webhooks/event-filter.js'
import { parseDuration } from '../domain/time.js'
import { parseMatchRule } from '../relay/routing.js'
import { defaultRelayDir, openRelayStore, RelayStoreUnsupported } from '../relay/store/open.js'
import { RelaySchemaError } from '../relay/store/postgres-schema.js'
import type { Durability } from '../relay/store/sqlite.js'
import { type MatchRule, type RelayStore, RelayStoreConflict, RelayStoreUnavailable } from '../relay/store/types.js'
import { hashRelayToken, newRelayToken, RELAY_NAME } from '../relay/tokens.js'
import { RELAY_PING_MS } from '../contract/relay-stream.js'

export interface RelayStoreInput {
  data?: string
  store?: string
  env: NodeJS.ProcessEnv
  durability?: Durability
}

export async function openRelayStoreFor(input: RelayStoreInput): Promise<RelayStore> {
  const store = input.store ?? (input.data === undefined ? input.env.SVC_RELAY_STORE || undefined : undefined)
  try {
    return await openRelayStore({ data: input.data, store, defaultDir: defaultRelayDir(configDir(input.env)), durability: input.durability })
  } catch (err) {
    if (err instanceof RelayStoreUnsupported) throw new UsageError(err.message, { field: err.field })
    if (err instanceof RelaySchemaError) throw new CliError(err.message, { exitCode: EXIT.usage, code: 'schema_version', details: [{ field: 'store', message: err.message }] })
    if (err instanceof RelayStoreUnavailable) throw new CliError(err.message, { exitCode: EXIT.unexpected, code: 'store_unavailable', hint: 'Check --data (a writable directory) or --store.' })
    throw err
  }
}

/** Runs `fn` with the store open, then closes it. */
export async function withRelayStore<T>(input: RelayStoreInput, fn: (store: RelayStore) => Promise<T>): Promise<T> {
  const store = await openRelayStoreFor(input)
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

export function checkRelayName(name: string, field: string): string {
  if (!RELAY_NAME.test(name)) throw new UsageError(`${field} "${name}" is not a valid name: lower-case letters, digits, - and _, starting with a letter or digit, at most 63.`, { field })
  return name
}

const SECRET_SHAPE = /^whsec_[A-Za-z0-9_-]{16,128}$/

export function checkSecrets(secrets: readonly string[]): string[] {
  const list = secrets.map((s) => s.trim()).filter(Boolean)
  if (list.length === 0) throw new UsageError('--secret is needed: the webhook secret of the environment (the panel shows it; repeat for rotation).', { field: 'secret' })
  for (const s of list) {
    if (!SECRET_SHAPE.test(s)) throw new UsageError('--secret is not a webhook secret: whsec_ and 16 to 128 letters, digits, - or _.', { field: 'secret' })
  }
  return [...new Set(list)]
}

export function parseRetention(raw: string | undefined, field = 'retention'): number | undefined {
  if (raw === undefined) return undefined
  const ms = parseDuration(raw)
  if (ms === undefined || ms < 60_000 || ms > 366 * 86_400_000) throw new UsageError(`--${field} "${raw}" is not a duration from 1m to 366d (e.g. 7d, 12h).`, { field })
  return ms
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 }

export function parseMaxBytes(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim())
  const unit = m ? BYTE_UNITS[m[2]!.toLowerCase()] : undefined
  const n = m && unit ? Math.floor(Number(m[1]) * unit) : Number.NaN
  if (!Number.isSafeInteger(n) || n < 1024 * 1024) throw new UsageError(`--max-bytes "${raw}" is not a size of at least 1MiB (e.g. 500MiB, 2GiB).`, { field: 'max-bytes' })
  return n
}

export function parseOnly(raw: readonly string[] | undefined): string[] {
  return [...new Set((raw ?? []).flatMap((r) => parseEventFilter(r, 'only')))]
}

export function parseMatch(raw: readonly string[] | undefined): MatchRule[] {
  return (raw ?? []).map((r) => {
    const rule = parseMatchRule(r)
    if (typeof rule === 'string') throw new UsageError(`--match: ${rule}.`, { field: 'match' })
    return rule
  })
}

export function hookUrl(publicUrl: string, channel: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/hooks/${channel}`
}

export function checkPublicUrl(raw: string, field = 'public-url'): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new UsageError(`--${field} "${raw}" is not a URL (e.g. https://relay.example.com).`, { field })
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new UsageError(`--${field} must be an http(s) URL.`, { field })
  if (u.search || u.hash || u.username || u.password) throw new UsageError(`--${field} takes no query, fragment or credentials.`, { field })
  return u.toString().replace(/\/+$/, '')
}

function conflict(err: unknown): never {
  if (err instanceof RelayStoreConflict) {
    const notFound = err.field === 'channel'
    throw new CliError(err.message, { exitCode: notFound ? EXIT.notFound : EXIT.conflict, code: notFound ? 'channel_not_found' : 'conflict', details: [{ field: err.field, message: err.message }] })
  }
  throw err
}

export interface AddChannelInput {
  name: string
  secrets: string[]
  retentionMs?: number
  maxBytes?: number
  publicUrl: string
  now: Date
}

export async function addRelayChannel(store: RelayStore, input: AddChannelInput): Promise<{ name: string; url: string }> {
  await store
    .addChannel({
      name: input.name,
      secrets: input.secrets,
      createdAt: input.now.toISOString(),
      ...(input.retentionMs ? { retentionMs: input.retentionMs } : {}),
      ...(input.maxBytes ? { maxBytes: input.maxBytes } : {}),
    })
    .catch(conflict)
  return { name: input.name, url: hookUrl(input.publicUrl, input.name) }
}

export interface ChannelView {
  name: string
  url: string
  secrets: number
  createdAt: string
  retention?: string
  maxBytes?: number
}

export async function listRelayChannels(store: RelayStore, publicUrl: string): Promise<ChannelView[]> {
  return (await store.listChannels()).map((c) => ({
    name: c.name,
    url: hookUrl(publicUrl, c.name),
    secrets: c.secrets.length,
    createdAt: c.createdAt,
    ...(c.retentionMs ? { retention: formatMs(c.retentionMs) } : {}),
    ...(c.maxBytes ? { maxBytes: c.maxBytes } : {}),
  }))
}

export async function removeRelayChannel(store: RelayStore, name: string): Promise<{ name: string; removed: true }> {
  if (!(await store.removeChannel(name))) throw new CliError(`No channel ${name} on this relay.`, { exitCode: EXIT.notFound, code: 'channel_not_found', hint: 'List them with `svc relay channel list`.' })
  return { name, removed: true }
}

export interface CreateTokenInput {
  name: string
  channel: string
  only: string[]
  match: MatchRule[]
  now: Date
}

export async function createRelayToken(store: RelayStore, input: CreateTokenInput): Promise<{ name: string; channel: string; token: string }> {
  const token = newRelayToken()
  await store.createToken({ name: input.name, channel: input.channel, hash: hashRelayToken(token), only: input.only, match: input.match, createdAt: input.now.toISOString() }).catch(conflict)
  return { name: input.name, channel: input.channel, token }
}

export interface TokenView {
  name: string
  channel: string
  only: string[]
  match: string[]
  createdAt: string
  revoked: boolean
  revokedAt?: string
}

export async function listRelayTokens(store: RelayStore): Promise<TokenView[]> {
  return (await store.listTokens()).map((t) => ({
    name: t.name,
    channel: t.channel,
    only: t.only,
    match: t.match.map((m) => `${m.path}=${m.glob}`),
    createdAt: t.createdAt,
    revoked: t.revokedAt !== undefined,
    ...(t.revokedAt ? { revokedAt: t.revokedAt } : {}),
  }))
}

export async function revokeRelayToken(store: RelayStore, name: string, now: Date): Promise<{ name: string; revoked: true }> {
  if (!(await store.revokeToken(name, now.toISOString()))) {
    const known = (await store.listTokens()).find((t) => t.name === name)
    if (known) return { name, revoked: true }
    throw new CliError(`No token ${name} on this relay.`, { exitCode: EXIT.notFound, code: 'token_not_found', hint: 'List them with `svc relay token list`.' })
  }
  return { name, revoked: true }
}

export interface RelayStatusView {
  store: string
  channels: Array<{ name: string; deliveries: number; bytes: number }>
  tokens: Array<{ name: string; channel: string; revoked: boolean; connected: boolean; backlog: number; oldestUnackedAt?: string; oldestUnackedAgeSeconds?: number; lastAckAt?: string; untoldLost: number }>
  ingestedLastHour: number
}

/** A heartbeat older than this means the server that wrote it is gone (it beats at every ping). */
const CONNECTED_WITHIN_MS = 3 * RELAY_PING_MS

export async function relayStatus(store: RelayStore, now: Date): Promise<RelayStatusView> {
  const snap = await store.status(now)
  return {
    store: store.kind,
    channels: snap.channels,
    tokens: snap.tokens.map((t) => ({
      name: t.name,
      channel: t.channel,
      revoked: t.revoked,
      connected: !t.revoked && t.connectedAt !== undefined && now.getTime() - Date.parse(t.connectedAt) <= CONNECTED_WITHIN_MS,
      backlog: t.backlog,
      ...(t.oldestUnackedAt ? { oldestUnackedAt: t.oldestUnackedAt, oldestUnackedAgeSeconds: Math.max(0, Math.round((now.getTime() - Date.parse(t.oldestUnackedAt)) / 1000)) } : {}),
      ...(t.lastAckAt ? { lastAckAt: t.lastAckAt } : {}),
      untoldLost: t.untoldLost,
    })),
    ingestedLastHour: snap.ingestedLastHour,
  }
}

export function formatMs(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (ms % size === 0) return `${ms / size}${unit}`
  return `${ms}ms`
}
