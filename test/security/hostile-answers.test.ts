/**
 * A server that answers with an endless body: the API client, the sandbox panel client, the
 * forwarder and `webhooks check` read a bounded amount of it and go on (or stop with a clear
 * error and a contract exit code), never buffering the whole answer. The CLI runs with a small
 * heap, so an unbounded read would crash it long before the server is done.
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { Forwarder } from '../../src/lib/webhooks/forward.js'
import { createTransport } from '../../src/lib/webhooks/check/transport.js'
import { svc } from '../helpers/cli.js'

const MiB = 1024 * 1024
const CHUNK = Buffer.alloc(64 * 1024, 'a')

/** Streams up to `limitBytes` of "aaaa…" as the answer of every request; counts what it sent. */
async function endlessServer(limitBytes: number, status = 200): Promise<{ server: Server; url: string; sent: () => number }> {
  let sent = 0
  const server = createServer((req, res) => {
    req.resume()
    res.writeHead(status, { 'content-type': 'application/json' })
    const pump = () => {
      while (sent < limitBytes) {
        sent += CHUNK.length
        if (!res.write(CHUNK)) return void res.once('drain', pump)
      }
      res.end()
    }
    res.on('close', () => res.removeAllListeners('drain'))
    pump()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent }
}

let open: Server | undefined
afterEach(async () => {
  open?.closeAllConnections()
  open?.close()
  open = undefined
})

describe('an endless answer', () => {
  it('stops the API client at its cap with a one-line error and exit 1', async () => {
    const hostile = await endlessServer(300 * MiB)
    open = hostile.server
    const r = await svc(['charges', 'get', '0123456789abcdef01234567', '--json'], {
      env: { SVC_API_KEY: 'svc_test_hostileanswer0000', SVC_BASE_URL: hostile.url, NODE_OPTIONS: '--max-old-space-size=96' },
      timeoutMs: 30_000,
    })
    expect(r.exitCode).toBe(1)
    const error = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } }
    expect(error.error.code).toBe('invalid_response')
    expect(error.error.message).toMatch(/larger than 16 MiB/)
    expect(r.stdout).toBe('')
    expect(hostile.sent()).toBeLessThan(300 * MiB)
  })

  it('stops the sandbox panel client at its cap with exit 1', async () => {
    const hostile = await endlessServer(300 * MiB)
    open = hostile.server
    const r = await svc(['sandbox', 'clock', 'show', '--base-url', hostile.url], {
      env: { SVC_API_KEY: 'svc_test_hostileanswer0000', NODE_OPTIONS: '--max-old-space-size=96' },
      timeoutMs: 30_000,
    })
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toMatch(/larger than 16 MiB/)
  })

  it('is read and dropped by the forwarder, which keeps the start for the log', async () => {
    const app = await endlessServer(64 * MiB)
    open = app.server
    const forwarder = new Forwarder({ timeoutMs: 10_000 })
    const result = await forwarder.send(new URL(app.url), Buffer.from('{}'), { 'content-type': 'application/json' })
    await forwarder.close()
    expect(result.ok).toBe(true)
    expect(result.responseSnippet).toBe('a'.repeat(2048))
    expect(app.sent()).toBe(64 * MiB)
  })

  it('is cut by webhooks check after its first bytes', async () => {
    const endpoint = await endlessServer(300 * MiB)
    open = endpoint.server
    const transport = createTransport()
    const answer = await transport.send(new URL(endpoint.url), { headers: { 'content-type': 'application/json' }, body: '{}' } as never, 10_000)
    await transport.close()
    expect(answer).toMatchObject({ kind: 'answer', status: 200 })
    expect(answer.kind === 'answer' && answer.body.length).toBe(2048)
    expect(endpoint.sent()).toBeLessThan(300 * MiB)
  })
})
