/**
 * The wire between `svc relay serve` and `svc webhooks listen --relay` (CLI.md 0.5). The relay
 * and the listener share nothing but this file: the listener never imports the relay's code.
 *
 * Stream: `GET /v1/stream` with `Authorization: Bearer <token>` and `Accept: text/event-stream`
 * answers `200 text/event-stream` (Server-Sent Events, one JSON object per `data:` line):
 *   event: ready      data: RelayReady       — sent once after the backlog query began; the
 *                                               listener says "ready" only after this frame
 *   event: delivery   id: <seq>  data: RelayDelivery
 *   event: gap        data: RelayGap         — deliveries pruned before this token acked them
 *   event: closing    data: RelayClosing     — the stream ends (replaced, revoked, shutdown)
 *   `: ping`                                 — a comment every 15 s so proxies and the listener
 *                                               can tell a live stream from a dead one
 * A `Last-Event-ID` header is a hint only: the durable cursor in the relay's store decides.
 *
 * Ack: `POST /v1/ack` with the same bearer token and a JSON body RelayAck → 204. A delivery is
 * acked only after the app answered 2xx (or the listener decided, as without a relay, that it is
 * not forwarded: filtered, no target, a duplicate already delivered). Until acked, the relay sends
 * it again on every new stream and, on an open stream, after the redelivery backoff (10 s, 30 s,
 * then every 60 s). At most 256 unacked deliveries are in flight on one stream: past that the
 * relay waits for acks before sending more, so a listener acks as its app answers, not in bulk at the end.
 *
 * Errors (any route): 401 `{"error":{"code":"unauthorized",...}}` for a missing, unknown or
 * revoked token (rate-limited per address: 429 with Retry-After), the service's error shape.
 */
import { z } from 'zod'

export const RELAY_STREAM_PATH = '/v1/stream'
export const RELAY_ACK_PATH = '/v1/ack'
export const RELAY_HOOKS_PREFIX = '/hooks/'
/** The stream sends a `: ping` comment this often; a listener that hears nothing for 2× this reconnects. */
export const RELAY_PING_MS = 15_000

/** Sent once per stream, before any delivery of it. */
export const RelayReadySchema = z.object({
  /** The token's name (never the token itself). */
  token: z.string(),
  channel: z.string(),
  /** Unacked deliveries waiting for this token when the stream opened. */
  backlog: z.number().int().nonnegative(),
  /** The relay's clock when the stream opened (RFC 3339), so the listener can show skew. */
  serverTime: z.string(),
})
export type RelayReady = z.infer<typeof RelayReadySchema>

/** One stored delivery, exactly as the service posted it to the relay. */
export const RelayDeliverySchema = z.object({
  /** The relay's sequence number: unique per relay store, increasing in arrival order. */
  seq: z.number().int().positive(),
  /** When the relay received it (RFC 3339): the signature's age is counted at this instant. */
  arrivedAt: z.string(),
  /** `content-type` and every `x-svc-*` header as received, names in lower case. */
  headers: z.record(z.string(), z.string()),
  /** The raw body, base64: the listener verifies and forwards these bytes, never a re-serialisation. */
  body: z.string(),
  /** 1 on the first send to this token, then 2, 3… */
  attempt: z.number().int().positive(),
})
export type RelayDelivery = z.infer<typeof RelayDeliverySchema>

/** Deliveries this token never acked were pruned by retention: said, never silent. */
export const RelayGapSchema = z.object({
  lost: z.number().int().positive(),
  /** The oldest and newest lost sequence numbers, when known. */
  fromSeq: z.number().int().positive().optional(),
  toSeq: z.number().int().positive().optional(),
  reason: z.enum(['retention', 'max_bytes']),
})
export type RelayGap = z.infer<typeof RelayGapSchema>

export const RelayClosingSchema = z.object({
  reason: z.enum(['replaced', 'revoked', 'shutdown', 'channel_removed']),
  message: z.string(),
})
export type RelayClosing = z.infer<typeof RelayClosingSchema>

export const RelayAckSchema = z.object({
  seqs: z.array(z.number().int().positive()).min(1).max(1000),
})
export type RelayAck = z.infer<typeof RelayAckSchema>
