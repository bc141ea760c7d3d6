/**
 * The API key never leaves the client inside an error. A server (or a proxy, or a hostile
 * endpoint at --base-url) may echo the Authorization header back: in an error's message, its
 * details, its code, its requestId, or in bytes that undici quotes when the answer is not HTTP.
 * Every error the client throws is rebuilt here with each of those fields masked by the one
 * masking function (config/mask.ts `redact`: the key whole or without its prefix, in any case),
 * its `cause` chain included. Runs on the error path only: a successful call pays nothing.
 */
import { redact } from '../config/mask.js'
import { ApiError, NetworkError, ResponseError } from '../errors.js'
import type { ErrorDetail } from '../contract/schemas.js'

/** How deep a cause chain is copied; deeper causes are dropped (undici nests two or three). */
const MAX_CAUSE_DEPTH = 4

export function concealKey(err: unknown, key: string): unknown {
  const mask = (text: string) => redact(text, [key])
  const details = (list: ErrorDetail[] | undefined) => list?.map((d) => ({ field: mask(d.field), message: mask(d.message) }))
  if (err instanceof ApiError) {
    return new ApiError({
      status: err.status,
      code: mask(err.apiCode),
      message: mask(err.message),
      details: details(err.details),
      requestId: err.requestId === undefined ? undefined : mask(err.requestId),
      retryAfterMs: err.retryAfterMs,
      hint: err.hint === undefined ? undefined : mask(err.hint),
      next: err.next,
    })
  }
  if (err instanceof ResponseError) return new ResponseError(mask(err.message), err.status, details(err.details))
  if (err instanceof NetworkError) return new NetworkError(mask(err.message), { cause: maskedCause(err.cause, mask, 0), hint: err.hint, next: err.next })
  if (err instanceof Error) return maskedCause(err, mask, 0)
  return err
}

/** A plain copy of an error (name, message, code, its own text fields, its cause), every text masked. */
function maskedCause(cause: unknown, mask: (text: string) => string, depth: number): unknown {
  if (cause === undefined || cause === null) return cause
  if (!(cause instanceof Error)) return typeof cause === 'string' ? mask(cause) : undefined
  const inner = depth < MAX_CAUSE_DEPTH ? maskedCause(cause.cause, mask, depth + 1) : undefined
  const copy = new Error(mask(cause.message), inner === undefined ? undefined : { cause: inner })
  copy.name = cause.name
  for (const [k, v] of Object.entries(cause)) {
    if (k === 'cause' || k === 'message' || k === 'stack') continue
    if (typeof v === 'string') Object.defineProperty(copy, k, { value: mask(v), enumerable: true, writable: true, configurable: true })
    else if (typeof v === 'number' || typeof v === 'boolean') Object.defineProperty(copy, k, { value: v, enumerable: true, writable: true, configurable: true })
  }
  if (copy.stack) copy.stack = mask(copy.stack)
  return copy
}
