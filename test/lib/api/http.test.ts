import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import type { ApiClient, ClientOptions } from '../../../src/lib/api/types.js'
import { NetworkError } from '../../../src/lib/errors.js'
import { account, TEST_KEY } from '../../helpers/api-fixtures.js'

// A real peer on 127.0.0.1 (port 0) for what nock cannot fake: keep-alive reuse, a refused
// connection and a server that never answers.

const servers: Server[] = []
const clients: ApiClient[] = []

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

function client(opts: Partial<ClientOptions> & { baseUrl: string }, sleeps: number[] = []): ApiClient {
  const c = createClient({ apiKey: TEST_KEY, sleep: async (ms) => void sleeps.push(ms), random: () => 0, ...opts })
  clients.push(c)
  return c
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

describe('transport', () => {
  it('reuses keep-alive connections across requests', async () => {
    let connections = 0
    const { server, url } = await listen((_req, res) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(account()))
    })
    server.on('connection', () => connections++)
    const c = client({ baseUrl: url })
    for (let i = 0; i < 10; i++) await c.getAccount()
    // undici may open a second socket while the first is finishing a response; never one each.
    expect(connections).toBeLessThanOrEqual(2)
  })

  it('times out a request that gets no answer, retries, then fails with exit 7', async () => {
    let requests = 0
    const { url } = await listen(() => {
      requests++ // never answers
    })
    const sleeps: number[] = []
    const err = await client({ baseUrl: url, timeoutMs: 100, maxRetries: 1 }, sleeps)
      .getAccount()
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NetworkError)
    expect(err).toMatchObject({ exitCode: 7 })
    expect((err as Error).message).toMatch(/No answer from 127\.0\.0\.1:\d+ within 0\.1 s \(2 attempts\)/)
    expect((err as NetworkError).next).toEqual({ do: 'check_connection', cause: 'timeout' })
    expect(requests).toBe(2)
    expect(sleeps).toEqual([250])
  })

  it('says a refused loopback connection may mean the sandbox is not running', async () => {
    const { server, url } = await listen(() => {})
    servers.pop()
    await new Promise((r) => server.close(r))
    const sleeps: number[] = []
    const err = await client({ baseUrl: url }, sleeps)
      .getAccount()
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NetworkError)
    expect((err as Error).message).toMatch(/connection refused \(4 attempts\)/)
    expect((err as NetworkError).next).toEqual({ do: 'check_connection', cause: 'sandbox' })
    expect(sleeps).toHaveLength(3)
  })

  it('retries when the server drops the connection mid-request', async () => {
    let requests = 0
    const { url } = await listen((req, res) => {
      requests++
      if (requests === 1) {
        req.socket.destroy()
        return
      }
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(account()))
    })
    const sleeps: number[] = []
    expect(await client({ baseUrl: url }, sleeps).getAccount()).toEqual(account())
    expect(requests).toBe(2)
    expect(sleeps).toEqual([250])
  })
})
