/**
 * Reading requests and writing answers, for every surface of the sandbox: bodies up to 1 MiB,
 * JSON decoding, the schema checks of request bodies (contract/), and answers sent with
 * Content-Length and `Cache-Control: no-store`. Errors are thrown (SandboxApiError); the server
 * shapes them once (spec 2.9, with the requestId).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { z } from 'zod'
import { detailsFromZod, type ErrorDetail } from '../../contract/schemas.js'
import { MAX_BODY_BYTES, readCappedBody } from '../../net/body.js'
import { SandboxApiError, invalidRequest } from '../api-error.js'

/** A body this much over the limit is not drained any more: the connection is cut. */
const MAX_DRAIN_BYTES = 16 * MAX_BODY_BYTES

export interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
  raw?: { contentType: string; bytes: Buffer }
}

/** Plain paths (letters, digits, `_`, `-` between slashes) need no URL parser: most requests. */
const PLAIN_PATH = /^(\/[\w-]+)+$/

/**
 * A path parameter as the client meant it (`%20` is a space). The router leaves decoding to the
 * handler, which knows what a segment that is no text at all (`%ff`) names: nothing, so `notFound`.
 */
export function pathSegment<E extends Error>(segment: string, notFound: () => E): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw notFound()
  }
}

export function parseTarget(target: string | undefined): { pathname: string; searchParams: URLSearchParams } {
  if (target !== undefined && PLAIN_PATH.test(target)) return { pathname: target, searchParams: new URLSearchParams() }
  return new URL(target ?? '/', 'http://sandbox.invalid')
}

/** Reads the whole body; past 1 MiB keeps draining (so the client reads the 413) then refuses. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  // A body declared too large is refused before it is read (and the connection closed after the
  // answer), rather than drained: up to 16 MiB would be read first, and past that, cut unanswered.
  return readCappedBody(req, { limit: MAX_BODY_BYTES, drainLimit: MAX_DRAIN_BYTES }).then((r) => {
    if (r.ok) return r.body
    if (r.tooLarge === 'cut') throw new SandboxApiError('invalid_request', 'Corpo da requisição grande demais.', { status: 413 })
    throw bodyTooLarge(r.tooLarge === 'declared' ? { connection: 'close' } : undefined)
  })
}

function bodyTooLarge(headers?: Record<string, string>): SandboxApiError {
  return new SandboxApiError('invalid_request', `Corpo da requisição maior que ${MAX_BODY_BYTES} bytes.`, {
    status: 413,
    details: [{ field: '(body)', message: `the body must be at most ${MAX_BODY_BYTES} bytes` }],
    headers,
  })
}

const MAX_FORM_BYTES = 64 * 1024

/** A form of the web panel (urlencoded, at most 64 KiB), or undefined when it is not one. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = String(req.headers['content-type'] ?? '')
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of req) {
    size += (c as Buffer).length
    if (size > MAX_FORM_BYTES) return undefined
    chunks.push(c as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/** `application/json`, `…+json`, any parameters; absent is read as JSON too (spec: all bodies are JSON). */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i
const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** The body as JSON; an empty body is `undefined` when `optional`, refused otherwise. */
export function parseJson(raw: Buffer, optional: boolean, contentType: string | undefined): unknown {
  if (raw.length > 0 && contentType !== undefined && !JSON_TYPE.test(contentType.trim())) {
    throw invalidRequest([{ field: 'Content-Type', message: `the body must be sent as application/json, not ${contentType}` }], 'Content-Type inválido: envie JSON (application/json).')
  }
  let text: string
  try {
    // Invalid UTF-8 is refused, not replaced by U+FFFD into a stored payer name.
    text = UTF8.decode(raw)
  } catch {
    throw invalidRequest([{ field: '(body)', message: 'the body is not valid UTF-8' }], 'Corpo da requisição não é UTF-8 válido.')
  }
  if (text.trim() === '') {
    if (optional) return undefined
    throw invalidRequest([{ field: '(body)', message: 'a JSON body is required' }], 'Corpo JSON obrigatório.')
  }
  try {
    return JSON.parse(text)
  } catch (err) {
    throw invalidRequest([{ field: '(body)', message: `the body is not valid JSON: ${(err as Error).message}` }], 'Corpo JSON malformado.')
  }
}

/** An API body (`/v1`) checked by its schema: every field's first complaint in details. */
export function checkApiBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body)
  if (!result.success) throw invalidRequest(detailsFromZod(result.error))
  return result.data
}

/**
 * A panel body (`/_sandbox`) checked by its schema: it must be a JSON object, and each unknown
 * field is named on its own.
 */
export function checkPanelBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest([{ field: '(body)', message: 'the body must be a JSON object' }])
  }
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const details: ErrorDetail[] = []
  const seen = new Set<string>()
  for (const issue of result.error.issues) {
    const fields = issue.code === 'unrecognized_keys' ? issue.keys : [issue.path.length ? issue.path.map(String).join('.') : '(body)']
    for (const field of fields) {
      if (seen.has(field)) continue
      seen.add(field)
      details.push({ field, message: issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message })
    }
  }
  throw invalidRequest(details)
}

/** Sends an answer: JSON (or raw bytes, or nothing for 204), always with Content-Length and no-store. */
export function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...answer.headers }
  if (answer.raw) {
    res.writeHead(answer.status, { ...headers, 'content-type': answer.raw.contentType, 'content-length': String(answer.raw.bytes.length) })
    res.end(answer.raw.bytes)
    return
  }
  if (answer.status === 204) {
    res.writeHead(204, headers)
    res.end()
    return
  }
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body)
  res.writeHead(answer.status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  })
  res.end(text)
}

/** A 303 to another page of the same server (the web panel's answer to its forms). */
export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0 })
  res.end()
}
