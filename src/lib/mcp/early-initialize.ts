/**
 * The answer to `initialize`, before the MCP SDK has loaded.
 *
 * An agent starts `svc mcp` and waits for the answer to `initialize` before anything else. Most
 * of the server's start is the SDK's own (it builds some 270 zod schemas as it loads), and the
 * answer needs none of it: it is the server's name, capabilities and instructions, and the
 * protocol version the client asked for when the server speaks it. So the first line on stdin, if
 * it is a well-formed `initialize` request, is answered at once with exactly what the SDK's Server
 * would answer (test/lib/mcp/early-initialize.test.ts holds the two equal, and the version list
 * to the SDK's); every line then goes on to the SDK as it came, so its Server learns the client's
 * capabilities as usual, and its own answer to that one request is dropped. Anything else (another
 * first message, a malformed one) is left to the server's transport (transport.ts), untouched.
 *
 * This is also where stdin is cut into lines, so it is where a line too long to read is refused
 * (MAX_MESSAGE_BYTES): before anything holds it whole.
 */
import { PassThrough, type Readable, Writable } from 'node:stream'

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS, newest first (the test compares them to the pinned SDK's). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const

export interface ServerIdentity {
  serverInfo: { name: string; title?: string; version: string }
  capabilities: Record<string, unknown>
  instructions?: string
}

type Id = string | number

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The id of a JSON-RPC `initialize` request the SDK would accept, or undefined. */
export function initializeRequestId(line: string): Id | undefined {
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return undefined
  }
  if (!isRecord(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined
  const { id, params } = message
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return undefined
  if (!isRecord(params) || typeof params.protocolVersion !== 'string' || !isRecord(params.capabilities)) return undefined
  const info = params.clientInfo
  if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return undefined
  return id
}

/** The answer the SDK's Server gives to that request (its `_oninitialize`). */
export function initializeAnswer(line: string, id: Id, identity: ServerIdentity): string {
  const requested = (JSON.parse(line) as { params: { protocolVersion: string } }).params.protocolVersion
  const protocolVersion = (PROTOCOL_VERSIONS as readonly string[]).includes(requested) ? requested : PROTOCOL_VERSIONS[0]
  const result = { protocolVersion, capabilities: identity.capabilities, serverInfo: identity.serverInfo, ...(identity.instructions ? { instructions: identity.instructions } : {}) }
  return `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`
}

/** The longest message (one line) the server reads: a tool's arguments are small (a BR Code is at most 512 characters). */
export const MAX_MESSAGE_BYTES = 1024 * 1024

/**
 * Streams for the SDK's stdio transport in place of `stdin` and `stdout`: stdin cut into lines
 * (a line longer than `maxBytes` is answered with a JSON-RPC error and skipped to its end, never
 * held whole, so one huge message cannot stop the server); the first line answered at once when
 * it is `initialize`; every other line passed on, one write each; the SDK's second answer to
 * `initialize` dropped. `firstLine` settles once the first line was seen (or stdin ended): load
 * the SDK after it, so its loading does not hold up the answer.
 */
export function answerInitializeEarly(stdin: Readable, stdout: NodeJS.WritableStream, identity: ServerIdentity, maxBytes = MAX_MESSAGE_BYTES): { input: Readable; output: Writable; firstLine: Promise<void> } {
  const input = new PassThrough()
  let answered: Id | undefined
  let seenFirst = false
  let firstSeen!: () => void
  const firstLine = new Promise<void>((resolve) => (firstSeen = resolve))
  const onLine = (line: Buffer) => {
    if (!seenFirst) {
      seenFirst = true
      firstSeen()
      const text = line.toString('utf8').replace(/\r$/, '')
      const id = initializeRequestId(text)
      if (id !== undefined) {
        answered = id
        stdout.write(initializeAnswer(text, id, identity))
      }
    }
    input.write(Buffer.concat([line, NEWLINE]))
  }
  const onTooLong = (head: Buffer, tail: Buffer, bytes: number) => {
    stdout.write(`${JSON.stringify(tooLargeAnswer(head, tail, bytes, maxBytes))}\n`)
  }
  const lines = new LineSplitter(maxBytes, onLine, onTooLong)
  stdin.on('data', (chunk: Buffer) => lines.push(chunk))
  stdin.once('end', () => {
    lines.end()
    seenFirst = true
    firstSeen()
    input.end()
  })
  stdin.once('close', () => input.end())
  let pending = ''
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (answered === undefined) {
        stdout.write(chunk)
        return done()
      }
      // The SDK writes one message a line; look for its answer to the request answered above.
      pending += chunk.toString()
      let end = pending.indexOf('\n')
      while (end >= 0) {
        const line = pending.slice(0, end + 1)
        pending = pending.slice(end + 1)
        if (answered !== undefined && isAnswerTo(line, answered)) answered = undefined
        else stdout.write(line)
        end = pending.indexOf('\n')
      }
      if (answered === undefined && pending) {
        stdout.write(pending)
        pending = ''
      }
      done()
    },
  })
  return { input, output, firstLine }
}

const NEWLINE = Buffer.from('\n')
/** How much of a refused line's start and end is kept to find its id (the SDK's client writes `"id"` last). */
const EDGE_BYTES = 256

/**
 * Cuts a byte stream into lines of at most `max` bytes. A longer line is not kept: its first and
 * last bytes are (to find the request's id), the rest is counted and dropped until its newline.
 */
export class LineSplitter {
  private parts: Buffer[] = []
  private size = 0
  /** Inside a line past `max`: its head, the last bytes seen, and its length so far. */
  private skipping?: { head: Buffer; tail: Buffer; bytes: number }

  constructor(
    private readonly max: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onTooLong: (head: Buffer, tail: Buffer, bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let from = 0
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from)
      const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl)
      this.take(piece)
      if (nl < 0) return
      this.finish()
      from = nl + 1
    }
  }

  /** stdin ended: a last line without its newline is still a message. */
  end(): void {
    if (this.size > 0 || this.skipping) this.finish()
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return
    if (this.skipping) {
      this.skipping.bytes += piece.length
      // Only the last bytes are kept: memory stays flat however long the line.
      this.skipping.tail = piece.length >= EDGE_BYTES ? Buffer.from(piece.subarray(-EDGE_BYTES)) : Buffer.concat([this.skipping.tail, piece]).subarray(-EDGE_BYTES)
      return
    }
    if (this.size + piece.length <= this.max) {
      this.parts.push(Buffer.from(piece))
      this.size += piece.length
      return
    }
    const whole = Buffer.concat([...this.parts, piece])
    this.skipping = { head: whole.subarray(0, EDGE_BYTES), tail: Buffer.from(whole.subarray(-EDGE_BYTES)), bytes: whole.length }
    this.parts = []
    this.size = 0
  }

  private finish(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping
      this.skipping = undefined
      this.onTooLong(head, tail, bytes)
      return
    }
    const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts)
    this.parts = []
    this.size = 0
    // Blank lines between messages are no message.
    if (line.toString('utf8').trim() === '') return
    this.onLine(line)
  }
}

const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*,/
const ID_AT_END = /,\s*"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/

/**
 * The answer to a line too long to read: -32600 with the request's id when it stands at the very
 * start or end of the line (where clients put it), so the client's call fails at once instead of
 * waiting; else id null, as JSON-RPC says when the id cannot be told.
 */
export function tooLargeAnswer(head: Buffer, tail: Buffer, bytes: number, max: number): { jsonrpc: '2.0'; id: Id | null; error: { code: number; message: string } } {
  const found = ID_AT_START.exec(head.toString('utf8'))?.[1] ?? ID_AT_END.exec(tail.toString('utf8').replace(/\r$/, ''))?.[1]
  let id: Id | null = null
  if (found !== undefined) {
    try {
      id = JSON.parse(found) as Id
    } catch {
      id = null
    }
  }
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32600, message: `Message refused: it is ${mib(bytes)} long and svc mcp reads messages of at most ${mib(max)} (one line). Nothing was done; send a smaller request.` },
  }
}

function isAnswerTo(line: string, id: Id): boolean {
  try {
    const m = JSON.parse(line) as Record<string, unknown>
    return m.id === id && ('result' in m || 'error' in m) && !('method' in m)
  } catch {
    return false
  }
}
