/**
 * The inputs of `svc api`, checked before anything is sent: method, path, `-H` headers and the
 * `-d` body (JSON text, @FILE or @- for stdin). Also how its answer is shown and mapped to an
 * exit code.
 */
import type { Readable } from 'node:stream'
import { UsageError, EXIT, type ExitCode, exitCodeForApiError } from '../errors.js'
import { readInputFile } from '../input/input-file.js'
import { safeText } from '../output/safe-text.js'
import { readAllStdin } from '../input/stdin.js'

export const RAW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Set by the client from --api-key / the profile, or by the connection: not from -H. */
const RESERVED = new Set(['authorization', 'host', 'content-length'])

export function parseMethod(method: string): string {
  const upper = method.toUpperCase()
  if (!RAW_METHODS.includes(upper)) throw new UsageError(`METHOD must be one of ${RAW_METHODS.join(', ')}, not "${method}".`, { field: 'method' })
  return upper
}

export function checkPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || /[\s\p{Cc}]/u.test(path)) {
    throw new UsageError(`PATH must start with / (it is relative to the base URL) and have no spaces, not "${path}".`, {
      field: 'path',
      hint: 'For example: svc api GET /v1/account (encode a space in a query as %20).',
    })
  }
  return path
}

export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const at = line.indexOf(':')
    const name = line.slice(0, Math.max(at, 0)).trim()
    if (at < 1 || !TOKEN.test(name)) throw new UsageError(`-H must look like 'Name: value', not "${line}".`, { field: 'header' })
    if (RESERVED.has(name.toLowerCase())) {
      throw new UsageError(`The ${name} header cannot be set with -H.`, { field: 'header', hint: 'Choose the key with --api-key, SVC_API_KEY or --profile.' })
    }
    const value = line.slice(at + 1).trim()
    if (/\p{Cc}/u.test(value)) throw new UsageError(`The value of the ${name} header has control characters.`, { field: 'header' })
    headers[name] = value
  }
  return headers
}

/** The `-d` body: checked to be JSON before anything is sent (every body of the API is JSON). */
export async function readRequestBody(data: string, stdin: Readable): Promise<string> {
  let text = data
  if (data === '@-') text = (await readAllStdin(stdin)).toString('utf8')
  else if (data.startsWith('@')) {
    text = (await readInputFile(data.slice(1), { given: `-d ${data}`, field: 'data' })).toString('utf8')
  }
  try {
    JSON.parse(text)
  } catch (err) {
    throw new UsageError(`The body given with -d is not valid JSON: ${(err as Error).message}.`, { field: 'data' })
  }
  return text
}

/**
 * Pretty JSON for a terminal; any other text as it came, lines and all. Control characters are
 * escaped either way (JSON.stringify leaves C1 controls and bidi overrides as they are).
 */
export function prettyBody(body: string): string {
  let text: string
  try {
    text = JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    text = body.replace(/\n$/, '')
  }
  return safeText(text, 'multiline')
}

/** 2xx → 0; an error status → the exit code of its API error (CLI.md); 1xx/3xx → 1. */
export function exitCodeForStatus(status: number, body: string): ExitCode {
  if (status >= 200 && status <= 299) return EXIT.ok
  if (status < 400) return EXIT.unexpected
  let code: string | undefined
  try {
    const c = (JSON.parse(body) as { error?: { code?: unknown } })?.error?.code
    code = typeof c === 'string' ? c : undefined
  } catch {}
  return exitCodeForApiError(status, code)
}
