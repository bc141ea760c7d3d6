/**
 * The early answer to `initialize` must be the SDK's own, byte for byte in meaning: the pinned
 * SDK's Server answers the same request, and its version list is ours. When the SDK moves, this
 * fails first.
 */
import { PassThrough, Writable } from 'node:stream'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { answerInitializeEarly, initializeAnswer, initializeRequestId, PROTOCOL_VERSIONS, type ServerIdentity } from '../../../src/lib/mcp/early-initialize.js'

const identity: ServerIdentity = { serverInfo: { name: 'svc', title: 'svc — test', version: '9.9.9' }, capabilities: { tools: {} }, instructions: 'TEST environment.' }
const request = (protocolVersion: string, id: string | number = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } } })

class Lines extends Writable {
  lines: string[] = []
  private rest = ''
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void): void {
    this.rest += chunk.toString()
    const parts = this.rest.split('\n')
    this.rest = parts.pop()!
    this.lines.push(...parts)
    done()
  }
}

/** What the SDK's Server, as svc mcp builds it, answers to `line`. */
async function sdkAnswer(line: string): Promise<unknown> {
  const stdin = new PassThrough()
  const stdout = new Lines()
  const server = new Server(identity.serverInfo, { capabilities: identity.capabilities, instructions: identity.instructions })
  await server.connect(new StdioServerTransport(stdin, stdout))
  stdin.write(`${line}\n`)
  await expect.poll(() => stdout.lines.length).toBe(1)
  await server.close()
  return JSON.parse(stdout.lines[0]!)
}

describe('answering initialize before the SDK loads', () => {
  it('speaks the protocol versions the pinned SDK speaks', () => {
    expect([...PROTOCOL_VERSIONS]).toEqual(SUPPORTED_PROTOCOL_VERSIONS)
  })

  it.each([['2025-06-18'], ['2024-11-05'], ['1999-01-01'], [PROTOCOL_VERSIONS[0]]])('answers protocol %s exactly as the SDK does', async (version) => {
    const line = request(version, 'a-1')
    expect(JSON.parse(initializeAnswer(line, initializeRequestId(line)!, identity))).toEqual(await sdkAnswer(line))
  })

  it("answers only a well-formed initialize request; anything else is the SDK's", () => {
    expect(initializeRequestId(request('2025-06-18', 7))).toBe(7)
    expect(initializeRequestId('{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).toBeUndefined()
    expect(initializeRequestId('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"x","capabilities":{}}}')).toBeUndefined()
    expect(initializeRequestId('{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{}}')).toBeUndefined()
    expect(initializeRequestId('not json')).toBeUndefined()
  })

  it('answers at once, passes every byte on, and drops only the second answer to that request', async () => {
    const stdin = new PassThrough()
    const stdout = new Lines()
    const early = answerInitializeEarly(stdin, stdout, identity)
    const init = request('2025-06-18', 1)
    // The request split across chunks, and the next message in the same chunk as its end.
    stdin.write(init.slice(0, 20))
    stdin.write(`${init.slice(20)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`)
    await early.firstLine
    expect(stdout.lines.map((l) => JSON.parse(l))).toEqual([{ jsonrpc: '2.0', id: 1, result: expect.objectContaining({ protocolVersion: '2025-06-18' }) }])
    const passed: string[] = []
    early.input.on('data', (c: Buffer) => passed.push(c.toString()))
    await new Promise((r) => setImmediate(r))
    expect(passed.join('')).toBe(`${init}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`)
    // The SDK's own answer to request 1 is dropped; what follows it goes out.
    early.output.write(`${JSON.stringify({ result: {}, jsonrpc: '2.0', id: 1 })}\n`)
    early.output.write(`${JSON.stringify({ result: { tools: [] }, jsonrpc: '2.0', id: 2 })}\n`)
    expect(stdout.lines).toHaveLength(2)
    expect(JSON.parse(stdout.lines[1]!)).toMatchObject({ id: 2 })
  })

  it('leaves a first message that is not initialize to the SDK', async () => {
    const stdin = new PassThrough()
    const stdout = new Lines()
    const early = answerInitializeEarly(stdin, stdout, identity)
    stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n')
    await early.firstLine
    expect(stdout.lines).toEqual([])
    early.output.write('{"jsonrpc":"2.0","id":3,"result":{}}\n')
    expect(stdout.lines).toEqual(['{"jsonrpc":"2.0","id":3,"result":{}}'])
  })
})
