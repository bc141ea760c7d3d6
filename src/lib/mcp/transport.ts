/**
 * The stdio transport of `svc mcp`: the SDK's `Transport` over the lines early-initialize.ts cut
 * from stdin, with every message checked before the SDK's `Server` sees it.
 *
 * The SDK's own StdioServerTransport drops what it cannot read (a line that is not JSON, a batch,
 * `{}`, `params: null`) with no answer, so the client waits for ever; and a request whose params
 * do not fit the method (a tools/call without `name`) is answered with zod's raw dump. Here each
 * request gets the JSON-RPC error it deserves, in plain words: -32700 for a line that is not
 * JSON, -32600 for a message that is not a JSON-RPC request, -32602 for params that do not fit the
 * method. The last word is the SDK's own message schema, so nothing it would drop gets through.
 * A notification (no id) is never answered, as JSON-RPC says; its refusal goes to the log.
 */
import type { Readable, Writable } from 'node:stream'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** The SDK's types module (loaded with the SDK, after `initialize` was answered). */
export type SdkTypes = typeof import('@modelcontextprotocol/sdk/types.js')

type Id = string | number

export interface JsonRpcErrorAnswer {
  jsonrpc: '2.0'
  id: Id | null
  error: { code: number; message: string }
}

export type Verdict = { ok: true; message: JSONRPCMessage } | { ok: false; answer?: JsonRpcErrorAnswer; why: string }

const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600
const INVALID_PARAMS = -32602

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error'])

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v))

/** Echoed input is cut: an answer never carries a huge field back. */
function cut(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** One zod issue in words: `params.name must be a string (it is missing)`. */
function plainIssue(issue: { path: PropertyKey[]; message: string; code?: string; expected?: string }): string {
  const at = issue.path.map(String).join('.') || 'the message'
  if (issue.code === 'invalid_type' && issue.expected) {
    const received = /received (\w+)/.exec(issue.message)?.[1]
    const a = /^[aeiou]/.test(issue.expected) ? 'an' : 'a'
    return `${at} must be ${a} ${issue.expected}${received === 'undefined' ? ' and is missing' : received ? `, not ${received}` : ''}`
  }
  return `${at}: ${issue.message.replace(/^Invalid input: /, '')}`
}

/** The paths of `__proto__` keys in `value` (JSON.parse keeps them as own keys; the SDK's schemas drop them silently). */
function protoKeys(value: unknown, at: string, depth = 0): string[] {
  if (depth > 32 || typeof value !== 'object' || value === null) return []
  const out: string[] = []
  for (const key of Object.keys(value)) {
    const path = at ? `${at}.${key}` : key
    if (key === '__proto__') out.push(path)
    out.push(...protoKeys((value as Record<string, unknown>)[key], path, depth + 1))
  }
  return out
}

/** What to do with one line: hand the message on, or the error to answer (none for a notification). */
export function checkMessage(line: string, sdk: Pick<SdkTypes, 'JSONRPCMessageSchema' | 'ClientRequestSchema'>): Verdict {
  const refuse = (code: number, id: Id | null, message: string): Verdict => ({ ok: false, answer: { jsonrpc: '2.0', id, error: { code, message } }, why: message })
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (err) {
    return refuse(PARSE_ERROR, null, `Parse error: the message is not JSON (${cut((err as Error).message, 120)}). Send one JSON-RPC message per line.`)
  }
  if (Array.isArray(value)) return refuse(INVALID_REQUEST, null, 'Invalid request: batches (JSON arrays) are not supported; send one JSON-RPC message per line.')
  if (!isRecord(value)) return refuse(INVALID_REQUEST, null, 'Invalid request: a message must be a JSON object with jsonrpc "2.0", a method and, for a request, an id.')
  const hasId = 'id' in value && value.id !== undefined
  if (hasId && !isId(value.id)) return refuse(INVALID_REQUEST, null, 'Invalid request: id must be a string or an integer.')
  const id = hasId ? (value.id as Id) : null
  const isRequest = hasId && 'method' in value
  const isNotification = !hasId && 'method' in value
  // A notification is never answered (JSON-RPC 2.0, section 4.1): its refusal is only logged.
  const refuseRequest = (code: number, message: string): Verdict => (isNotification ? { ok: false, why: message } : refuse(code, id, message))
  if (value.jsonrpc !== '2.0') return refuseRequest(INVALID_REQUEST, 'Invalid request: jsonrpc must be "2.0".')
  const stray = Object.keys(value).filter((k) => !MESSAGE_KEYS.has(k))
  if (stray.length) return refuseRequest(INVALID_REQUEST, `Invalid request: ${stray.map((k) => JSON.stringify(cut(k))).join(', ')} ${stray.length > 1 ? 'are not members' : 'is not a member'} of a JSON-RPC message.`)
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method === '') return refuseRequest(INVALID_REQUEST, 'Invalid request: method must be a non-empty string.')
    if ('result' in value || 'error' in value) return refuseRequest(INVALID_REQUEST, 'Invalid request: a request has a method, a response a result or an error, never both.')
    if ('params' in value && !isRecord(value.params)) {
      const what = value.params === null ? 'null' : Array.isArray(value.params) ? 'an array' : typeof value.params
      return refuseRequest(INVALID_PARAMS, `Invalid params for ${cut(value.method)}: params must be an object (or left out), not ${what}.`)
    }
    if (isRequest) {
      const params = value.params as Record<string, unknown> | undefined
      if (value.method === 'tools/call' && params && isRecord(params.arguments)) {
        const proto = protoKeys(params.arguments, '')
        if (proto.length) return refuseRequest(INVALID_PARAMS, `Invalid arguments: ${proto.join(', ')} is not an argument of any tool (a key named __proto__ is refused, never dropped). Nothing was sent.`)
      }
      const schema = sdk.ClientRequestSchema.options.find((o) => (o.shape.method as { value?: unknown }).value === value.method)
      const fits = schema?.safeParse({ method: value.method, params: value.params })
      if (fits && !fits.success) {
        const issues = fits.error.issues.slice(0, 3).map((i) => plainIssue(i as Parameters<typeof plainIssue>[0]))
        return refuseRequest(INVALID_PARAMS, `Invalid params for ${value.method}: ${issues.join('; ')}.`)
      }
    }
  } else if (!('result' in value) && !('error' in value)) {
    return refuseRequest(INVALID_REQUEST, 'Invalid request: a message needs a method (a request or a notification), or a result or an error (a response).')
  }
  const parsed = sdk.JSONRPCMessageSchema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => plainIssue(i as Parameters<typeof plainIssue>[0]))
    // A malformed response answers nothing: the server sent no request to pair it with.
    if (!isRequest) return { ok: false, why: `Invalid message: ${issues.join('; ')}.` }
    return refuseRequest(INVALID_REQUEST, `Invalid request: ${issues.join('; ')}.`)
  }
  return { ok: true, message: parsed.data as JSONRPCMessage }
}

/**
 * The SDK's `Transport` over line-framed `input` (each line at most the cap early-initialize.ts
 * keeps, so the buffer here stays small) and `output`.
 */
export class CheckedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private pending = ''
  private closed = false

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly sdk: Pick<SdkTypes, 'JSONRPCMessageSchema' | 'ClientRequestSchema'>,
    private readonly log: (line: string) => void,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    this.pending += chunk.toString()
    let end = this.pending.indexOf('\n')
    while (end >= 0) {
      const line = this.pending.slice(0, end).replace(/\r$/, '')
      this.pending = this.pending.slice(end + 1)
      if (line.trim() !== '') this.receive(line)
      end = this.pending.indexOf('\n')
    }
  }

  private readonly onError = (error: Error) => this.onerror?.(error)

  async start(): Promise<void> {
    this.input.on('data', this.onData)
    this.input.on('error', this.onError)
  }

  private receive(line: string): void {
    const verdict = checkMessage(line, this.sdk)
    if (verdict.ok) {
      this.onmessage?.(verdict.message)
      return
    }
    this.log(`svc mcp: refused a message: ${verdict.why}`)
    if (verdict.answer) void this.write(verdict.answer)
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message)
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve()
      else this.output.once('drain', resolve)
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.input.off('data', this.onData)
    this.input.off('error', this.onError)
    this.pending = ''
    this.onclose?.()
  }
}
