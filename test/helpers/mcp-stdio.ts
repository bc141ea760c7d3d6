/**
 * `svc mcp`'s server (serveMcp, as the command starts it) driven over a pair of in-process pipes
 * standing for stdin and stdout: raw lines in, JSON-RPC messages out, the log (stderr) kept.
 * The protocol tests send what a buggy or hostile client sends, byte for byte.
 */
import { PassThrough } from 'node:stream'
import { vi } from 'vitest'
import type { Credentials } from '../../src/lib/config/resolve.js'
import { environmentOfKey } from '../../src/lib/config/mask.js'
import { serveMcp } from '../../src/lib/mcp/server.js'
import { McpSession } from '../../src/lib/mcp/session.js'

export interface RpcMessage {
  jsonrpc: string
  id?: string | number | null
  result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: Array<{ text: string }>; tools?: Array<{ name: string; description: string }>; instructions?: string }
  error?: { code: number; message: string }
}

export interface McpPipes {
  /** Writes raw bytes to the server's stdin. */
  write(raw: string | Buffer): void
  send(message: object): void
  /** Sends a request and waits for its answer. */
  request(method: string, params?: object): Promise<RpcMessage>
  call(name: string, args?: Record<string, unknown>): Promise<RpcMessage>
  /** The answer with this id, once it came. */
  answer(id: string | number | null): Promise<RpcMessage>
  messages: RpcMessage[]
  /** Every line written to stdout that is not a JSON object (none expected). */
  garbage: string[]
  log: string[]
  close(): Promise<void>
}

let nextId = 1000

export async function mcpOverPipes(o: { apiKey: string; baseUrl: string; source?: string; profileName?: string; allowLiveWrites?: boolean; only?: string[]; env?: NodeJS.ProcessEnv }): Promise<McpPipes> {
  const credentials: Credentials = { apiKey: o.apiKey, baseUrl: o.baseUrl, environment: environmentOfKey(o.apiKey)!, profileName: o.profileName, source: o.source ?? 'SVC_API_KEY' }
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const log: string[] = []
  const messages: RpcMessage[] = []
  const garbage: string[] = []
  let rest = ''
  stdout.on('data', (c: Buffer) => {
    rest += c.toString('utf8')
    const parts = rest.split('\n')
    rest = parts.pop()!
    for (const line of parts) {
      try {
        messages.push(JSON.parse(line) as RpcMessage)
      } catch {
        garbage.push(line)
      }
    }
  })
  const session = new McpSession({ credentials, env: o.env ?? {}, timeoutMs: 10_000, userAgent: 'svc/test (mcp)', allowLiveWrites: o.allowLiveWrites, log: (l) => log.push(l) })
  const served = serveMcp({ session, allowLiveWrites: o.allowLiveWrites ?? false, only: o.only, version: '0.0.0-test', stdin, stdout })
  const write = (raw: string | Buffer) => void stdin.write(raw)
  const send = (m: object) => write(`${JSON.stringify(m)}\n`)
  const answer = (id: string | number | null) =>
    vi.waitFor(
      () => {
        const m = messages.find((x) => x.id === id && ('result' in x || 'error' in x))
        if (!m) throw new Error(`no answer to ${id} yet; stdout so far: ${JSON.stringify(messages).slice(0, 500)}`)
        return m
      },
      { timeout: 10_000, interval: 10 },
    )
  const request = (method: string, params?: object) => {
    const id = nextId++
    send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })
    return answer(id)
  }
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipes', version: '1' } })
  send({ jsonrpc: '2.0', method: 'notifications/initialized' })
  return {
    write,
    send,
    request,
    call: (name, args = {}) => request('tools/call', { name, arguments: args }),
    answer,
    messages,
    garbage,
    log,
    async close() {
      stdin.end()
      await served
      await session.close()
    },
  }
}
