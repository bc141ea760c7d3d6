/**
 * What a tool call answers (MCP `CallToolResult`): the object an agent reads in
 * `structuredContent`, a short sentence, and the same object as JSON text for clients that only
 * read text. A failure is a result with `isError: true` carrying the error object in the API's
 * shape (`code`, `message`, `details`, `requestId`), never a success that hides a 4xx. Every
 * text is passed through `redact`, so no key or secret leaves in full.
 */
import { redact } from '../config/mask.js'
import type { ErrorDetail } from '../contract/schemas.js'
import { ApiError, CliError, InputValueError, NetworkError } from '../errors.js'
import { forAgent } from './wording.js'

export interface ToolOutput {
  structured: Record<string, unknown>
  /** One or two sentences for the agent (and the person reading its transcript). */
  text: string
}

export interface ToolResult {
  [key: string]: unknown
  content: Array<{ type: 'text'; text: string }>
  structuredContent: Record<string, unknown>
  isError?: boolean
}

/** The error object of a failed call: the API's (spec 2.9), plus the HTTP status and a hint when known. */
export interface ToolError {
  error: { code: string; message: string; details?: ErrorDetail[]; requestId?: string }
  status?: number
  hint?: string
}

/**
 * Every key- or secret-shaped string masked, and the session's own secrets wherever they appear,
 * in each text (names and values) on its own: masking the JSON text whole could cut an escape
 * sequence in two.
 */
function clean<T>(value: T, secrets: readonly string[]): T {
  const list = [...secrets]
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, list)
    if (Array.isArray(v)) return v.map(walk)
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k, list), walk(x)]))
    return v
  }
  // Through JSON first: what leaves is what JSON.stringify would send (no undefined, no class instances).
  return walk(JSON.parse(JSON.stringify(value) ?? 'null')) as T
}

export function successResult(output: ToolOutput, secrets: readonly string[]): ToolResult {
  const structured = clean(output.structured, secrets)
  return {
    content: [
      { type: 'text', text: redact(output.text, [...secrets]) },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  }
}

/**
 * The error object of anything a tool threw: API errors as the API sent them, the CLI's own errors
 * in the same shape; fields, message and hint in the tools' words (wording.ts).
 */
/** The tools' word for an input path where it is not the path itself: one item of trigger's `overrides`. */
const ARGUMENT_OF: Readonly<Record<string, string>> = { override: 'overrides item' }

export function toolErrorOf(err: unknown): ToolError {
  if (err instanceof ApiError) {
    const body = err.toBody().error as ToolError['error']
    const { message, details, hint } = forAgent({ code: body.code, message: body.message, details: body.details, hint: err.hint, next: err.next })
    return { error: { ...body, message, ...(details ? { details } : {}) }, status: err.status, ...(hint ? { hint } : {}) }
  }
  if (err instanceof CliError) {
    // An input's bad value by the tool's argument (trigger's `overrides`), in the message and its detail line.
    const named = err instanceof InputValueError ? err.named(`${ARGUMENT_OF[err.path] ?? err.path}`) : undefined
    const own = named === undefined ? err.details : err.details?.map((d) => (d.field === (err as InputValueError).path ? { ...d, message: named } : d))
    const { message, details, hint } = forAgent({ code: err.code, message: named ?? err.message, details: own?.length ? own : undefined, hint: err.hint, next: err.next })
    const error: ToolError['error'] = { code: err.code, message, ...(details ? { details } : {}) }
    return { error, ...(hint ? { hint } : {}) }
  }
  const message = err instanceof Error ? err.message : String(err)
  return { error: { code: 'internal_error', message: `svc failed unexpectedly: ${message}` }, hint: 'This is a bug in svc; run `svc mcp` with SVC_DEBUG=1 and report its stderr.' }
}

export function errorResult(err: unknown, secrets: readonly string[]): ToolResult {
  const body = clean(toolErrorOf(err), secrets)
  const { code, message, requestId } = body.error
  const kind = err instanceof NetworkError ? 'Network failure' : err instanceof ApiError ? `The API refused (${body.status} ${code})` : `Error [${code}]`
  // Each detail's reason is added to the sentence unless the message already says it: a message
  // that names the field ("Invalid tz; nothing was sent.") still needs the reason.
  const fields = body.error.details
    ?.filter((d) => !message.includes(d.message))
    .map((d) => `${d.field}: ${d.message}`)
    .join('; ')
  const text = `${kind}: ${message}${fields ? ` (${fields})` : ''}${requestId ? ` requestId ${requestId}` : ''}${body.hint ? `${/[.!?]$/.test(message) ? '' : '.'} ${body.hint}` : ''}`
  return { content: [{ type: 'text', text }], structuredContent: { ...body }, isError: true }
}
