/**
 * The relay's store seam: one interface, two implementations (node:sqlite embedded under
 * `--data`, PostgreSQL under `--store postgres://…`). The relay's HTTP side, its admin use-cases
 * and the behaviour suite (test/lib/relay/store-contract.ts) know only this interface; the same
 * suite runs against both.
 *
 * Rules every implementation keeps:
 * - `ingest` resolves only after the transaction that holds the delivery committed (group commit:
 *   concurrent calls share one transaction; a failed commit rejects every caller in it). The
 *   relay answers the service 2xx only after that.
 * - Sequence numbers are unique and increase in commit order within one store (PostgreSQL: a
 *   BIGSERIAL/identity; readers must not skip a seq whose transaction commits later: read only
 *   up to a safe watermark or re-read from the cursor).
 * - A token sees only deliveries of its channel that arrived after it was created
 *   (`seq > startSeq`), in seq order, until it acks each (per-delivery acks; the cursor is the
 *   lowest unacked seq, kept durable).
 * - Secrets of channels are stored as given (the relay's host holds them, as the app does);
 *   listener tokens are stored only as a hash (SHA-256 of the token, hex).
 * - Nothing here logs.
 */

export interface ChannelRecord {
  name: string
  /** The environment's webhook secret(s) (rotation: several). Never printed. */
  secrets: string[]
  createdAt: string
  /** Retention of this channel's deliveries, milliseconds; undefined = the server's default. */
  retentionMs?: number
  /** Cap on the stored bytes of this channel; undefined = none. */
  maxBytes?: number
}

/** `--match PATH=GLOB`: a dotted path into the event body and a glob (`*` any run, `?` one char). */
export interface MatchRule {
  path: string
  glob: string
}

export interface TokenRecord {
  name: string
  channel: string
  /** SHA-256 of the token, lower-case hex. The token itself is never stored. */
  hash: string
  /** `--only` event-type patterns (exact or `prefix.*`); empty = every type. */
  only: string[]
  /** `--match` rules, all must hold; empty = every event. */
  match: MatchRule[]
  createdAt: string
  /** Deliveries with seq > startSeq are this token's (what arrived after it was made). */
  startSeq: number
  revokedAt?: string
}

export interface NewDelivery {
  channel: string
  eventId?: string
  eventType?: string
  /** RFC 3339, the relay's clock at arrival. */
  arrivedAt: string
  /** content-type and x-svc-* headers, lower-case names. */
  headers: Record<string, string>
  body: Uint8Array
}

export interface StoredDelivery extends NewDelivery {
  seq: number
}

export interface PendingDelivery extends StoredDelivery {
  /** How many times it was sent to this token before (0 = never). */
  sends: number
}

export interface TokenStatus {
  name: string
  channel: string
  revoked: boolean
  backlog: number
  /** RFC 3339 arrival of the oldest unacked delivery, if any. */
  oldestUnackedAt?: string
  lastAckAt?: string
  /** Gaps not yet told to the listener. */
  untoldLost: number
  /**
   * The last heartbeat of this token's open stream (RFC 3339; serve beats at every ping and on
   * connect), undefined once it closed cleanly. Older than 3 pings: the server died with it open.
   */
  connectedAt?: string
}

export interface RelayStatusSnapshot {
  channels: Array<{ name: string; deliveries: number; bytes: number }>
  tokens: TokenStatus[]
  ingestedLastHour: number
}

export interface PruneResult {
  deleted: number
  /** Unacked deliveries pruned, per token name (each becomes a gap told on the next stream). */
  lostByToken: Record<string, number>
}

export class RelayStoreConflict extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message)
    this.name = 'RelayStoreConflict'
  }
}

/** The store cannot commit (disk full, database down): the relay answers 503 and /healthz 503. */
export class RelayStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'RelayStoreUnavailable'
  }
}

/**
 * One stream's hold on its token across every relay instance on a shared store (PostgreSQL).
 * The server closes its stream when the lease is lost: another instance took the token
 * (`replaced`) or it was revoked.
 */
export interface StreamLease {
  readonly token: string
  readonly generation: number
  held(): boolean
  /** Called once, when the lease is lost. */
  onLost(cb: (reason: 'replaced' | 'revoked') => void): void
  /** The stream ended: let the lease go. */
  release(): Promise<void>
}

export interface RelayStore {
  readonly kind: 'sqlite' | 'postgres'

  addChannel(channel: ChannelRecord): Promise<void>
  removeChannel(name: string): Promise<boolean>
  getChannel(name: string): Promise<ChannelRecord | undefined>
  listChannels(): Promise<ChannelRecord[]>

  /** startSeq is set by the store (the newest seq at creation). Throws RelayStoreConflict on a taken name. */
  createToken(token: Omit<TokenRecord, 'startSeq' | 'revokedAt'>): Promise<TokenRecord>
  revokeToken(name: string, at: string): Promise<boolean>
  listTokens(): Promise<TokenRecord[]>
  /** A live (not revoked) token by its hash, or undefined. */
  findToken(hash: string): Promise<TokenRecord | undefined>

  /** Durably stores one delivery; resolves after its commit (group commit). */
  ingest(delivery: NewDelivery): Promise<StoredDelivery>

  /** The token's unacked deliveries with seq > afterSeq, in seq order, at most `limit`. */
  pending(token: string, afterSeq: number, limit: number): Promise<PendingDelivery[]>
  /** How many deliveries wait for this token (unacked, its channel, after its startSeq): the `ready` frame's backlog. */
  backlog(token: string): Promise<number>
  /** Counts one more send of these seqs to the token (for `attempt`). */
  markSent(token: string, seqs: number[]): Promise<void>
  /** Acks these seqs for the token (idempotent; seqs not the token's are ignored). */
  ack(token: string, seqs: number[], at: string): Promise<void>
  /** Returns and clears the untold lost count of the token. */
  takeGap(token: string): Promise<{ lost: number; fromSeq?: number; toSeq?: number; reason?: 'retention' | 'max_bytes' } | undefined>
  /** Records (at = RFC 3339 heartbeat) or clears (undefined) that this token has an open stream, for `svc relay status`. */
  markConnected(token: string, at: string | undefined): Promise<void>

  /** Deletes deliveries older than their channel's retention (or over maxBytes), recording gaps. */
  prune(now: Date, defaultRetentionMs: number): Promise<PruneResult>
  status(now: Date): Promise<RelayStatusSnapshot>
  /** True when a write can commit right now (GET /healthz). */
  healthy(): Promise<boolean>
  /**
   * Stores shared by several instances: takes the token's stream for this instance, replacing a
   * stream of it on any instance. Absent on a store only one process serves (SQLite).
   */
  claimStream?(token: string): Promise<StreamLease>
  /**
   * Stores shared by several instances: calls `acked(token)` after any instance committed acks of
   * that token (a load balancer may send a listener's ack to another instance than its stream's),
   * so the stream here can free its window. Absent on a store only one process serves.
   */
  onAcked?(acked: (token: string) => void): () => void
  /** Calls `wake(channel)` after a commit that holds deliveries of that channel, from this or (PostgreSQL) another instance. */
  onIngest(wake: (channel: string) => void): () => void
  close(): Promise<void>
}
