/**
 * The guard of svc's local servers against slow clients: a client that sends part of its head and
 * then nothing gets its 408 and is let go, its descriptor with it, even when it never closes its
 * side (a half-open socket is what held 1000 descriptors on the listener and the sandbox).
 */
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { answerClientErrors, guardedServerOptions } from '../../../src/lib/net/server-guard.js'
import { useRawSockets } from '../../helpers/raw-http.js'

useRawSockets()

let server: Server | undefined
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  server = undefined
})

async function guarded(graceMs: number): Promise<number> {
  server = createServer(guardedServerOptions({ headersMs: 200, requestMs: 400, checkEveryMs: 50 }), (_req, res) => res.end('ok'))
  answerClientErrors(server, () => 'req_test', { graceMs })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const connections = () => new Promise<number>((resolve, reject) => server!.getConnections((err, n) => (err ? reject(err) : resolve(n))))

/** A client that sends half a request head, keeps its side open for ever, and records what it got. */
function halfHead(port: number): { received: () => string; ended: Promise<void> } {
  let data = ''
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true })
  socket.setEncoding('latin1')
  socket.on('data', (d: string) => (data += d))
  socket.on('error', () => {})
  socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ')
  return { received: () => data, ended: new Promise((resolve) => socket.once('end', () => resolve())) }
}

async function until(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs
  while (performance.now() < deadline) {
    if (await check()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return check()
}

describe('answerClientErrors: slow clients are let go', () => {
  it('a client that sends half its head gets a 408 in the error shape, then leaves the server connections', async () => {
    const port = await guarded(50)
    const client = halfHead(port)
    await until(async () => (await connections()) === 1, 1000)
    await client.ended
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/)
    expect(client.received()).toContain('"code":"invalid_request"')
    // The client never closes its side: the server lets go of the socket anyway.
    expect(await until(async () => (await connections()) === 0, 2000)).toBe(true)
  })

  it('keeps the socket for the grace period, so the client can read the answer', async () => {
    const port = await guarded(60_000)
    const client = halfHead(port)
    await client.ended
    expect(client.received()).toContain('408')
    expect(await connections()).toBe(1)
  })
})
