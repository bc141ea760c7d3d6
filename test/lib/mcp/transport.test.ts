/**
 * `svc mcp` answers every request, whatever a client writes: a line too long to read is refused
 * with an error and the server keeps serving; a line that is not JSON, a batch, `{}`, params that
 * are not an object, a tools/call without a name: each gets the JSON-RPC error it deserves
 * (-32700, -32600, -32602) in plain words, never silence and never a zod dump. The server is the
 * real one (serveMcp), on pipes standing for stdin and stdout.
 */
import * as sdkTypes from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LineSplitter, tooLargeAnswer } from '../../../src/lib/mcp/early-initialize.js'
import { checkMessage } from '../../../src/lib/mcp/transport.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { type McpPipes, mcpOverPipes } from '../../helpers/mcp-stdio.js'

let sb: RunningSandbox
let mcp: McpPipes

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
  mcp = await mcpOverPipes({ apiKey: sb.testKey, baseUrl: sb.baseUrl })
})

afterAll(async () => {
  await mcp?.close()
  await sb?.close()
})

const errorOf = (m: { error?: { code: number; message: string } }) => m.error!

describe('a message too long to read', () => {
  it('is refused with an error naming the cap, and the server keeps answering', async () => {
    // 11 MB in one line, written in 64 KiB chunks as a pipe delivers it; its id is last, as the SDK's client writes it.
    const big = JSON.stringify({ method: 'tools/call', params: { name: 'decode_pix', arguments: { brcode: 'x'.repeat(11_000_000) } }, jsonrpc: '2.0', id: 'big-1' })
    const bytes = Buffer.from(`${big}\n`)
    for (let i = 0; i < bytes.length; i += 65_536) mcp.write(bytes.subarray(i, i + 65_536))
    const refused = await mcp.answer('big-1')
    expect(errorOf(refused).code).toBe(-32600)
    expect(errorOf(refused).message).toMatch(/10\.5 MiB long .* at most 1 MiB/)
    // Every later call is answered.
    const after = await mcp.call('decode_pix', { brcode: '000201' })
    expect(after.result?.structuredContent).toMatchObject({ valid: false })
    expect((await mcp.request('tools/list')).result?.tools?.length).toBeGreaterThan(5)
    expect(mcp.garbage).toEqual([])
  })

  it('answers id null when the id cannot be told, and a message right at the cap still goes through', async () => {
    mcp.write(`{"params":{"arguments":{"brcode":"${'y'.repeat(2_000_000)}"}},"id":7,"jsonrpc":"2.0","method":"tools/call"}\n`)
    await expect.poll(() => mcp.messages.some((m) => m.id === null && m.error?.code === -32600)).toBe(true)
    const pad = 'z'.repeat(1024 * 1024 - 200)
    const near = JSON.stringify({ jsonrpc: '2.0', id: 'near', method: 'tools/call', params: { name: 'decode_pix', arguments: { brcode: pad } } })
    expect(near.length).toBeLessThanOrEqual(1024 * 1024)
    mcp.write(`${near}\n`)
    // Read, and refused by the argument's own cap (a BR Code is at most 512 characters), naming it.
    const r = await mcp.answer('near')
    expect(r.result?.isError).toBe(true)
    expect(JSON.stringify(r.result?.structuredContent)).toContain('brcode')
  })

  it('is cut without holding the line whole: the splitter keeps only its edges', () => {
    const lines: string[] = []
    const refused: Array<{ bytes: number; head: string; tail: string }> = []
    const s = new LineSplitter(
      16,
      (l) => lines.push(l.toString()),
      (head, tail, bytes) => refused.push({ bytes, head: head.toString(), tail: tail.toString() }),
    )
    s.push(Buffer.from('{"a":1}\n{"b":"'))
    s.push(Buffer.from('0123456789abcdef0123'))
    s.push(Buffer.from('"}\n\n{"c":3}'))
    s.end()
    expect(lines).toEqual(['{"a":1}', '{"c":3}'])
    expect(refused).toEqual([{ bytes: 28, head: '{"b":"0123456789abcdef0123', tail: '{"b":"0123456789abcdef0123"}' }])
    expect(tooLargeAnswer(Buffer.from('{"jsonrpc":"2.0","id":42,"method":"x"'), Buffer.from(''), 5, 4).id).toBe(42)
    expect(tooLargeAnswer(Buffer.from('{"method":"x"'), Buffer.from('"arguments":{"id":5}}}'), 5, 4).id).toBeNull()
  })
})

describe('malformed messages', () => {
  it('a line that is not JSON: -32700, id null', async () => {
    mcp.write('this is not json\n')
    await expect.poll(() => mcp.messages.find((m) => m.error?.code === -32700)?.error?.message).toMatch(/^Parse error: the message is not JSON/)
  })

  it.each([
    ['{}', /jsonrpc must be "2\.0"/],
    ['[{"jsonrpc":"2.0","id":"b1","method":"ping"}]', /batches .* not supported/],
    ['42', /must be a JSON object/],
  ])('%s: -32600 in plain words, id null', async (line, words) => {
    const before = mcp.messages.length
    mcp.write(`${line}\n`)
    await expect.poll(() => mcp.messages.slice(before).find((m) => m.id === null && m.error?.code === -32600)?.error?.message).toMatch(words)
  })

  it('params null, or an array: -32602 with the request id', async () => {
    mcp.send({ jsonrpc: '2.0', id: 'pn', method: 'tools/call', params: null })
    expect(errorOf(await mcp.answer('pn'))).toEqual({ code: -32602, message: 'Invalid params for tools/call: params must be an object (or left out), not null.' })
    mcp.send({ jsonrpc: '2.0', id: 'pa', method: 'tools/list', params: [] })
    expect(errorOf(await mcp.answer('pa')).code).toBe(-32602)
  })

  it('a tools/call without a name: -32602 naming the field, no zod dump', async () => {
    const r = await mcp.request('tools/call', { arguments: {} })
    expect(errorOf(r)).toEqual({ code: -32602, message: 'Invalid params for tools/call: params.name must be a string and is missing.' })
  })

  it('a member JSON-RPC does not have, or no jsonrpc: -32600 with the id', async () => {
    mcp.write('{"jsonrpc":"2.0","id":"x1","method":"ping","extra":1}\n')
    expect(errorOf(await mcp.answer('x1')).message).toBe('Invalid request: "extra" is not a member of a JSON-RPC message.')
    mcp.write('{"id":"x2","method":"ping"}\n')
    expect(errorOf(await mcp.answer('x2'))).toEqual({ code: -32600, message: 'Invalid request: jsonrpc must be "2.0".' })
  })

  it('a notification is never answered, only logged', async () => {
    const before = mcp.messages.length
    mcp.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}\n')
    await expect.poll(() => mcp.log.some((l) => l.includes('refused a message') && l.includes('notifications/cancelled'))).toBe(true)
    expect(mcp.messages.length).toBe(before)
  })

  it('keeps serving after all of it', async () => {
    expect((await mcp.request('ping')).result).toEqual({})
    expect(mcp.garbage).toEqual([])
  })
})

describe('checkMessage', () => {
  it('hands on only what the SDK reads, and refuses nothing the SDK reads', () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x","arguments":{"k":1}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1.5}}}',
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":"ping","result":{}}',
      '{"jsonrpc":"2.0","id":1,"method":""}',
      '{"jsonrpc":"2.0","id":1,"method":"made/up","params":{"a":1}}',
    ]
    for (const line of lines) {
      const sdkReads = sdkTypes.JSONRPCMessageSchema.safeParse(JSON.parse(line)).success
      expect(checkMessage(line, sdkTypes).ok, line).toBe(sdkReads && !line.includes('"method":""'))
    }
  })

  it('refuses an argument named __proto__ by name (the SDK would drop it silently)', () => {
    const v = checkMessage('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"create_charge","arguments":{"amountInCents":1500,"__proto__":{"x":1}}}}', sdkTypes)
    expect(v).toMatchObject({ ok: false, answer: { id: 9, error: { code: -32602, message: expect.stringMatching(/^Invalid arguments: __proto__ is not an argument/) } } })
  })
})
