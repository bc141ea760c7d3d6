/**
 * The answer to `initialize`, before the MCP SDK has loaded.
 *
 * An agent starts `svc mcp` and waits for the answer to `initialize` before anything else. Most
 * of the server's start is the SDK's own (it builds some 270 zod schemas as it loads), and the
 * answer needs none of it: it is the server's name, capabilities and instructions, and the
 * protocol version the client asked for when the server speaks it. So the first line on stdin, if
 * it is a well-formed `initialize` request, is answered at once with exactly what the SDK's Server
 * would answer (test/lib/mcp/early-initialize.test.ts holds the two equal, and the version list
 * to the SDK's); every byte then goes on to the SDK as it came, so its Server learns the client's
 * capabilities as usual, and its own answer to that one request is dropped. Anything else (another
 * first message, a malformed one) is left to the SDK, untouched.
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

/**
 * Streams for the SDK's stdio transport in place of `stdin` and `stdout`: the first line answered
 * at once when it is `initialize`, everything passed on, the SDK's second answer to it dropped.
 * `firstLine` settles once the first line was seen (or stdin ended): load the SDK after it, so
 * its loading does not hold up the answer.
 */
export function answerInitializeEarly(stdin: Readable, stdout: NodeJS.WritableStream, identity: ServerIdentity): { input: Readable; output: Writable; firstLine: Promise<void> } {
  const input = new PassThrough()
  let answered: Id | undefined
  let first: Buffer[] | undefined = []
  let firstSeen!: () => void
  const firstLine = new Promise<void>((resolve) => (firstSeen = resolve))
  stdin.on('data', (chunk: Buffer) => {
    if (first) {
      first.push(chunk)
      const head = Buffer.concat(first)
      const end = head.indexOf(0x0a)
      if (end < 0) return
      first = undefined
      firstSeen()
      const line = head.subarray(0, end).toString('utf8').replace(/\r$/, '')
      const id = initializeRequestId(line)
      if (id !== undefined) {
        answered = id
        stdout.write(initializeAnswer(line, id, identity))
      }
      input.write(head)
      return
    }
    input.write(chunk)
  })
  stdin.once('end', () => {
    if (first?.length) input.write(Buffer.concat(first))
    first = undefined
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

function isAnswerTo(line: string, id: Id): boolean {
  try {
    const m = JSON.parse(line) as Record<string, unknown>
    return m.id === id && ('result' in m || 'error' in m) && !('method' in m)
  } catch {
    return false
  }
}
