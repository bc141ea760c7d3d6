/**
 * When and how long to wait before retrying a request (CLI.md "Network"): at most 3 retries,
 * exponential backoff with jitter on connection errors, timeouts and 5xx, the server's
 * `Retry-After` on 429, and 1 s on 409 `charge_processing` (spec 4.1).
 */
import { LIMITS } from '../contract/limits.js'

export const DEFAULT_MAX_RETRIES = 3
export const DEFAULT_TIMEOUT_MS = 30_000
const BASE_DELAY_MS = 500
const MAX_DELAY_MS = 8_000
/**
 * A `Retry-After` longer than this is not waited for: the user gets the 429 at once (exit 6)
 * with the delay in the message, rather than a CLI that hangs silently for minutes.
 */
export const MAX_RETRY_AFTER_MS = 60_000

/** What a failed attempt looked like, as far as the retry decision cares. */
export type Failure = { kind: 'transport'; reason: TransportReason } | { kind: 'status'; status: number; code?: string; retryAfterMs?: number }

/**
 * `refused` and `dns` mean the request never reached the server; `reset` and `timeout` mean it
 * may have been processed (the answer was lost).
 */
export type TransportReason = 'refused' | 'dns' | 'reset' | 'timeout' | 'other'

/**
 * Delay before retry number `retry` (0 for the first retry): 500 ms, 1 s, 2 s … capped at 8 s,
 * with "equal jitter" (between half and all of it) so that many clients do not retry in step.
 */
export function backoffMs(retry: number, random: () => number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry)
  return Math.round(ceiling / 2 + (ceiling / 2) * random())
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim()
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - nowMs)
}

/** True when the request may have taken effect on the server although no answer came back. */
export function isAmbiguous(failure: Failure): boolean {
  if (failure.kind === 'transport') return failure.reason === 'reset' || failure.reason === 'timeout' || failure.reason === 'other'
  // 503 and 429 say "not processed"; other 5xx may come after a partial effect.
  return failure.status >= 500 && failure.status !== 503
}

/**
 * How long to wait before the next attempt, or undefined when this failure is final (any
 * other 4xx, or a Retry-After too long to wait for). `retry` counts the retries done so far.
 * With `ambiguousIsFinal` (a non-idempotent request without an idempotency key), failures
 * that may have taken effect are not retried either.
 */
export function retryDelay(failure: Failure, retry: number, random: () => number, ambiguousIsFinal = false): number | undefined {
  if (ambiguousIsFinal && isAmbiguous(failure)) return undefined
  if (failure.kind === 'transport') return backoffMs(retry, random)
  const { status, code, retryAfterMs } = failure
  if (status === 409 && code === 'charge_processing') return retryAfterMs ?? LIMITS.chargeProcessingRetryMs
  if (status === 429) {
    if (retryAfterMs === undefined) return backoffMs(retry, random)
    return retryAfterMs <= MAX_RETRY_AFTER_MS ? retryAfterMs : undefined
  }
  if (status >= 500) {
    if (retryAfterMs !== undefined && retryAfterMs <= MAX_RETRY_AFTER_MS) return Math.max(retryAfterMs, backoffMs(retry, random))
    return backoffMs(retry, random)
  }
  return undefined
}
