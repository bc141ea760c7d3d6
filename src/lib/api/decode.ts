/**
 * Turns an HTTP answer into a typed value or a typed error: 2xx bodies are validated with the
 * contract's zod schemas, error bodies (spec 2.9) become ApiError. A body that is not JSON or
 * not the API's shape is a ResponseError that names the field(s) and the status.
 *
 * Validation runs zod's compiled parsers first (generated/answer-parsers.ts, generated from the
 * schemas): a valid answer is decoded without loading zod. Only an answer they refuse loads the
 * schema, and zod words the error, exactly as before.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { type AnswerShape, parseErrorBody } from '../generated/answer-parsers.js'
import type { ErrorBody } from '../contract/schemas.js'
import { ApiError, ResponseError } from '../errors.js'
import type { NextStep } from '../next-step.js'
import type { HttpResponse } from './http.js'
import { parseRetryAfter } from './retry.js'

/** What the user should do next, by error code (the message itself comes from the API), where every door says it alike. */
const HINTS: Record<string, string> = {
  merchant_not_activated: 'The account is not cleared to charge yet: check it in the panel.',
  charge_blocked: 'Charges are blocked for this account: contact support with the requestId.',
  missing_merchant_id: 'The account has no merchant id at the payment provider yet: check it in the panel.',
  rate_limited: 'Too many requests for this key: wait a moment and try again.',
  idempotency_key_conflict: 'This Idempotency-Key was used with a different request: use a new key.',
  provider_error: 'The instant-payment provider refused: try again later.',
  provider_unavailable: 'The instant-payment provider is unavailable: try again later.',
  internal_error: 'The service failed: quote the requestId to support.',
}

/** The next step by error code where it is a command or a tool: each door words it (next-step.ts). */
const STEPS: Record<string, NextStep> = {
  invalid_api_key: { do: 'fix_credentials' },
  revoked_api_key: { do: 'replace_revoked_key' },
  not_available_in_live: { do: 'use_test_key', by: 'service' },
  charge_processing: { do: 'repeat_create_same_key' },
  external_id_conflict: { do: 'find_charge_by_external_id' },
}

export function requestIdOf(headers: IncomingHttpHeaders): string | undefined {
  const v = headers['x-request-id'] ?? headers['request-id']
  return Array.isArray(v) ? v[0] : v
}

function snippet(body: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: flattening control characters is the point
  const flat = body.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) }
  } catch {
    return { ok: false }
  }
}

/** The error body when it has the API's shape (spec 2.9), else undefined. */
export function errorBodyOf(res: HttpResponse): ErrorBody | undefined {
  const json = parseJson(res.body)
  if (!json.ok) return undefined
  // Generated as definite: undefined here means ErrorBodySchema refuses it.
  return parseErrorBody(json.value)
}

/** A 2xx body, validated against `shape`; `what` names the resource for the message. */
export async function decodeBody<T>(res: HttpResponse, shape: AnswerShape<T>, what: string, request: string): Promise<T> {
  const where = `${request} (HTTP ${res.status})`
  const json = parseJson(res.body)
  if (!json.ok) {
    const type = res.headers['content-type']
    const got = res.body.trim() === '' ? 'an empty body' : `a body that is not JSON${type ? ` (${type})` : ''}: "${snippet(res.body)}"`
    throw new ResponseError(`The answer to ${where} was ${got}.`, res.status)
  }
  // zod (compiled or not) leaves out a key named `__proto__` (e.g. a metadata key): put it back.
  // The cheap test keeps the walk off every answer that holds no such key.
  const keep = (value: T): T => (res.body.includes('proto') ? keepProtoKeys(json.value, value) : value)
  const fast = shape.parse(json.value)
  if (fast !== undefined) return keep(fast)
  const [schema, { detailsFromZod }] = await Promise.all([shape.schema(), import('../contract/schemas.js')])
  const parsed = schema.safeParse(json.value)
  if (!parsed.success) {
    const details = detailsFromZod(parsed.error)
    const fields = details.map((d) => d.field).join(', ')
    throw new ResponseError(`The answer to ${where} is not a valid ${what}: bad or missing field(s) ${fields}.`, res.status, details)
  }
  return keep(parsed.data)
}

/**
 * `parsed` with every own `__proto__` key of `raw` (the JSON as parsed) that zod left out put
 * back, in its place among the keys, at every depth: metadata is data, whatever its keys (issue
 * 29 item 27). Object.fromEntries defines the key (never the prototype setter); its value is
 * carried as the answer holds it. Objects without such a key are kept as they are.
 */
function keepProtoKeys<T>(raw: unknown, parsed: T): T {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    for (let i = 0; i < Math.min(raw.length, parsed.length); i++) parsed[i] = keepProtoKeys(raw[i], parsed[i])
    return parsed
  }
  if (raw === null || typeof raw !== 'object' || parsed === null || typeof parsed !== 'object') return parsed
  const from = raw as Record<string, unknown>
  const to = parsed as Record<string, unknown>
  for (const key of Object.keys(to)) if (Object.hasOwn(from, key)) to[key] = keepProtoKeys(from[key], to[key])
  if (!Object.hasOwn(from, '__proto__') || Object.hasOwn(to, '__proto__')) return parsed
  const keys = [...Object.keys(from).filter((k) => k === '__proto__' || Object.hasOwn(to, k)), ...Object.keys(to).filter((k) => !Object.hasOwn(from, k))]
  return Object.fromEntries(keys.map((k) => [k, k === '__proto__' ? from[k] : to[k]])) as T
}

/** The typed error for a non-2xx answer. */
export function errorFromResponse(res: HttpResponse, request: string): ApiError | ResponseError {
  const retryAfterMs = parseRetryAfter(res.headers['retry-after'])
  const body = errorBodyOf(res)
  if (body) {
    const { code, message, details, requestId } = body.error
    let hint = Object.hasOwn(HINTS, code) ? HINTS[code] : undefined
    if (code === 'rate_limited' && retryAfterMs !== undefined) hint = `Too many requests for this key: try again in ${Math.ceil(retryAfterMs / 1000)} s.`
    const next = Object.hasOwn(STEPS, code) ? STEPS[code] : undefined
    return new ApiError({ status: res.status, code, message, details, requestId, retryAfterMs, hint, next })
  }
  // A gateway or proxy answering instead of the service: keep the status's meaning (exit 6/7).
  if (res.status === 429 || res.status === 502 || res.status === 503 || res.status === 504) {
    return new ApiError({
      status: res.status,
      code: `http_${res.status}`,
      message: `${request} answered HTTP ${res.status} without the API's error body.`,
      requestId: requestIdOf(res.headers),
      retryAfterMs,
      hint: 'The service or a proxy in front of it is overloaded or down: try again later.',
    })
  }
  const json = parseJson(res.body)
  const got = json.ok ? 'a body that is not the API error shape {"error": {code, message, requestId}}' : `a body that is not JSON: "${snippet(res.body)}"`
  return new ResponseError(`The answer to ${request} (HTTP ${res.status}) was ${got}.`, res.status)
}
