/**
 * The capped body reader both local servers (the listener and the sandbox) read requests with:
 * a body up to the limit whole, a declared oversize never read, an oversize drained, a flood cut.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type CappedBody, type CappedBodyOptions, readCappedBody } from '../../../src/lib/net/body.js'
import { useRawSockets } from '../../helpers/raw-http.js'

// A request that never ends must reach the server as it is (nock holds unfinished ones back).
useRawSockets()

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

/** A server that reads each body with `opts` and answers with what it got (the result's kind and size). */
async function reader(opts: CappedBodyOptions): Promise<{ port: number; seen: Array<CappedBody | Error> }> {
  const seen: Array<CappedBody | Error> = []
  server = createServer((req: IncomingMessage, res) => {
    readCappedBody(req, opts).then(
      (r) => {
        seen.push(r)
        res.end(r.ok ? `ok ${r.body.length}` : r.tooLarge)
      },
      (err: Error) => seen.push(err),
    )
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, seen }
}

/** Sends `chunks` as a chunked (or, with a length, declared) body; resolves with the answer's text, or the error. */
function send(port: number, chunks: Buffer[], headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      let text = ''
      res.on('data', (c) => {
        text += c
      })
      res.on('end', () => resolve(text))
    })
    req.on('error', (err) => resolve(`error ${(err as NodeJS.ErrnoException).code}`))
    for (const c of chunks) req.write(c)
    req.end()
  })
}

describe('readCappedBody', () => {
  it('reads a body up to the limit whole', async () => {
    const { port, seen } = await reader({ limit: 10 })
    expect(await send(port, [Buffer.from('12345'), Buffer.from('67890')])).toBe('ok 10')
    expect(seen[0]).toEqual({ ok: true, body: Buffer.from('1234567890') })
    expect(await send(port, [])).toBe('ok 0')
  })

  it('refuses a body whose Content-Length is over the limit without reading it', async () => {
    const { port, seen } = await reader({ limit: 10 })
    expect(await send(port, [Buffer.alloc(11)], { 'content-length': '11' })).toBe('declared')
    expect(seen).toEqual([{ ok: false, tooLarge: 'declared' }])
  })

  it('drains a body that grows past the limit to its end, then says it was too large', async () => {
    const { port, seen } = await reader({ limit: 10 })
    expect(await send(port, [Buffer.alloc(8), Buffer.alloc(8), Buffer.alloc(8)])).toBe('read')
    expect(seen).toEqual([{ ok: false, tooLarge: 'read' }])
  })

  it('cuts the connection past the drain limit: no answer reaches the client', async () => {
    const { port, seen } = await reader({ limit: 10, drainLimit: 20 })
    expect(
      await send(
        port,
        Array.from({ length: 8 }, () => Buffer.alloc(8)),
      ),
    ).toMatch(/^error /)
    expect(seen).toEqual([{ ok: false, tooLarge: 'cut' }])
  })

  it('rejects when the client goes away before the body ended', async () => {
    let arrived!: () => void
    const started = new Promise<void>((resolve) => {
      arrived = resolve
    })
    const result = new Promise<unknown>((resolve) => {
      server = createServer((req) => {
        readCappedBody(req, { limit: 100 }).then(resolve, resolve)
        arrived()
      })
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const req = request({ host: '127.0.0.1', port: (server!.address() as AddressInfo).port, method: 'POST', headers: { 'content-length': '50' } })
    req.on('error', () => {})
    req.write(Buffer.alloc(10))
    await started
    req.destroy()
    expect(((await result) as NodeJS.ErrnoException).code).toBe('ECONNRESET')
  })
})
