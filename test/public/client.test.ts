/**
 * svc-cli/client, as built (dist/, what the package ships), over real HTTP against the sandbox:
 * every method a merchant calls, pagination across pages, the typed SvcApiError (API answers,
 * network failures, local key check), a retried creation that makes one charge, and the import
 * promise (neither oclif, Ink nor React is loaded).
 */
import { execFile } from 'node:child_process'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxHandle } from '../../src/public/sandbox.js'
import { ROOT } from '../helpers/run-command.js'

// The built modules (dist/, what the package ships), typed by their sources: a static import of
// dist/ would fail `npm run typecheck` on a fresh clone, before any build.
const { createClient, SvcApiError } = (await import(pathToFileURL(join(ROOT, 'dist/public/client.js')).href)) as typeof import('../../src/public/client.js')
const { startSandbox } = (await import(pathToFileURL(join(ROOT, 'dist/public/sandbox.js')).href)) as typeof import('../../src/public/sandbox.js')

const CPF = '52998224725'

/** A proxy in front of the sandbox that records each request and can answer one in its place. */
interface Seen {
  method: string
  path: string
  idempotencyKey?: string
}
type Fault = (req: IncomingMessage, seen: Seen[]) => 'pass' | 'forward-then-503' | '503' | 'not-json'

async function proxyTo(target: string, fault: Fault = () => 'pass'): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = []
  const upstream = new URL(target)
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry: Seen = { method: req.method!, path: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined }
      const decision = fault(req, seen)
      seen.push(entry)
      if (decision === '503') {
        res.writeHead(503, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { code: 'provider_unavailable', message: 'try again', requestId: 'req_proxy' } }))
        return
      }
      if (decision === 'not-json') {
        res.writeHead(200, { 'content-type': 'text/html' })
        res.end('<html>captive portal</html>')
        return
      }
      const up = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const body: Buffer[] = []
        answer.on('data', (c: Buffer) => body.push(c))
        answer.on('end', () => {
          if (decision === 'forward-then-503') {
            // The work is done upstream; the answer the client gets says "unavailable".
            res.writeHead(503, { 'content-type': 'application/json' })
            res.end(JSON.stringify({ error: { code: 'provider_unavailable', message: 'try again', requestId: 'req_proxy' } }))
            return
          }
          res.writeHead(answer.statusCode!, answer.headers)
          res.end(Buffer.concat(body))
        })
      })
      up.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((r) => server.close(() => r())) }
}

let sandbox: SandboxHandle

beforeAll(async () => {
  sandbox = await startSandbox({ clock: { manual: true } })
})
afterAll(() => sandbox?.close())

describe('createClient against the sandbox', () => {
  it('creates, reads and cancels a charge; the answers are the spec shapes', async () => {
    const client = sandbox.client()
    const charge = await client.charges.create({ amountInCents: 1500, payerTaxNumber: CPF, externalId: 'client-create-1' })
    expect(charge).toMatchObject({ status: 'awaiting_payment', environment: 'test', externalId: 'client-create-1', amount: { grossInCents: 1500 } })
    expect(charge.pix.qrCode).toMatch(/^000201/)
    expect(await client.charges.get(charge.id)).toMatchObject({ id: charge.id, status: 'awaiting_payment' })
    expect(await client.charges.cancel(charge.id)).toMatchObject({ id: charge.id, status: 'canceled' })
  })

  it('lists every charge across pages, following startingAfter as it iterates', async () => {
    const proxy = await proxyTo(sandbox.baseUrl)
    const client = createClient({ apiKey: sandbox.testKey, baseUrl: proxy.url })
    try {
      const made: string[] = []
      for (let i = 0; i < 5; i++) made.push((await client.charges.create({ amountInCents: 2000 + i, payerTaxNumber: CPF, description: 'paged' })).id)
      const listed: string[] = []
      for await (const charge of client.charges.list({ limit: 2 })) if (charge.description === 'paged') listed.push(charge.id)
      expect(listed.sort()).toEqual([...made].sort())
      const pages = proxy.seen.filter((s) => s.method === 'GET' && s.path.startsWith('/v1/charges?'))
      expect(pages.length).toBeGreaterThanOrEqual(3)
      expect(pages.slice(1).every((p) => p.path.includes('startingAfter='))).toBe(true)

      // A filter is sent as the query; breaking out of the loop stops fetching pages.
      const before = proxy.seen.length
      for await (const charge of client.charges.list({ status: 'awaiting_payment', limit: 1 })) {
        expect(charge.status).toBe('awaiting_payment')
        break
      }
      expect(proxy.seen.slice(before).map((s) => s.path)).toEqual(['/v1/charges?status=awaiting_payment&limit=1'])
    } finally {
      await client.close()
      await proxy.close()
    }
  })

  it('creates a split charge, reads the account, a withdrawal, and sends a test webhook', async () => {
    const client = sandbox.client()
    const split = await client.splitCharges.create({
      amountInCents: 3000,
      payerTaxNumber: CPF,
      split: [
        { wallet: 'wallet-a', shareBps: 7000 },
        { wallet: 'wallet-b', shareBps: 3000 },
      ],
    })
    expect(split.split.status).toBe('pending')
    expect(split.split.destinations.map((d) => [d.wallet, d.shareBps])).toEqual([
      ['wallet-a', 7000],
      ['wallet-b', 3000],
    ])
    expect(await client.charges.get(split.id)).toMatchObject({ id: split.id, amount: { grossInCents: 3000 } })

    const account = await client.account.get()
    expect(account).toBeTypeOf('object')

    const { resources } = await sandbox.trigger('withdrawal.paid')
    const made = resources.find((r) => r.object === 'withdrawal')!
    expect(await client.withdrawals.get(made.id)).toMatchObject({ id: made.id, status: 'paid' })

    const hook = createServer((_req, res) => res.writeHead(200).end())
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r))
    try {
      await sandbox.setWebhookUrl(`http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`)
      const { eventId } = await client.webhooks.test()
      expect(eventId).toMatch(/\S/)
    } finally {
      await new Promise((r) => hook.close(r))
    }
  })

  it('the live key reaches the live environment', async () => {
    const charge = await sandbox.client('live').charges.create({ amountInCents: 1500, payerTaxNumber: CPF })
    expect(charge.environment).toBe('live')
    await expect(sandbox.client('test').charges.get(charge.id)).rejects.toMatchObject({ status: 404 })
  })
})

describe('SvcApiError', () => {
  it('an API error carries status, code, message and requestId', async () => {
    const err = await sandbox
      .client()
      .charges.get('0123456789abcdef01234567')
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SvcApiError)
    expect(err).toMatchObject({ name: 'SvcApiError', status: 404, code: 'charge_not_found', requestId: expect.stringMatching(/^req_/) })
    expect((err as Error).message).not.toBe('')
  })

  it('a refused request carries the fields at fault in details', async () => {
    const err = await sandbox
      .client()
      .charges.create({ amountInCents: 5, payerTaxNumber: CPF })
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 400, code: 'invalid_request', details: [expect.objectContaining({ field: 'amountInCents' })] })
  })

  it('a network failure is status 0, code network_error, after the retries', async () => {
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const { port } = closed.address() as AddressInfo
    await new Promise((r) => closed.close(r))
    const client = createClient({ apiKey: 'svc_test_abc', baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 })
    const err = await client.account.get().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SvcApiError)
    expect(err).toMatchObject({ status: 0, code: 'network_error', requestId: undefined })
    expect((err as Error).message).toContain(`127.0.0.1:${port}`)
    await client.close()
  })

  it('a timeout (ms) is a network_error too', async () => {
    const silent = createServer(() => {})
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r))
    const client = createClient({ apiKey: 'svc_test_abc', baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeout: 150, maxRetries: 0 })
    try {
      await expect(client.account.get()).rejects.toMatchObject({ status: 0, code: 'network_error', message: expect.stringContaining('0.15 s') })
    } finally {
      await client.close()
      silent.closeAllConnections()
      await new Promise((r) => silent.close(r))
    }
  })

  it('an answer that is not the API shape is invalid_response, with its HTTP status', async () => {
    const proxy = await proxyTo(sandbox.baseUrl, () => 'not-json')
    const client = createClient({ apiKey: sandbox.testKey, baseUrl: proxy.url })
    try {
      await expect(client.account.get()).rejects.toMatchObject({ name: 'SvcApiError', status: 200, code: 'invalid_response', message: expect.stringContaining('not JSON') })
    } finally {
      await client.close()
      await proxy.close()
    }
  })

  it('a call on a closed client fails at once, without retrying', async () => {
    const client = createClient({ apiKey: sandbox.testKey, baseUrl: sandbox.baseUrl })
    await client.account.get()
    await client.close()
    await expect(client.account.get()).rejects.toMatchObject({ name: 'SvcApiError', status: 0, code: 'client_closed' })
    const pages = client.charges.list()[Symbol.asyncIterator]()
    await expect(pages.next()).rejects.toMatchObject({ code: 'client_closed' })
  })

  it('a bad argument is an SvcApiError too: status 0, invalid_request, nothing sent (trial report item 10)', async () => {
    // Nothing listens on port 1: a call that went out would be a network_error instead.
    const client = createClient({ apiKey: 'svc_test_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:1', maxRetries: 0 })
    for (const call of [() => client.charges.get(''), () => client.charges.cancel('  '), () => client.withdrawals.get(undefined as unknown as string)]) {
      const err = await call().catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SvcApiError)
      expect(err).toMatchObject({ status: 0, code: 'invalid_request', details: [{ field: 'id' }] })
    }
    await expect(client.charges.get('')).rejects.toThrow('charges.get: the id must be a non-empty string')
    await client.close()
    expect(() => createClient({ apiKey: 'svc_test_abc', baseUrl: 'http://127.0.0.1:1', timeout: -1 })).toThrow(expect.objectContaining({ name: 'SvcApiError', status: 0, code: 'invalid_request' }))
    expect(() => createClient({ apiKey: 'svc_test_abc', baseUrl: 'http://127.0.0.1:1', maxRetries: 1.5 })).toThrow(SvcApiError)
  })

  it('a key of neither environment, or no base URL, is refused before anything is sent, without echoing the key', () => {
    const bad = (() => {
      try {
        createClient({ apiKey: 'sk_live_secret123', baseUrl: 'http://127.0.0.1:1' })
      } catch (e) {
        return e
      }
    })()
    expect(bad).toMatchObject({ status: 0, code: 'invalid_api_key' })
    expect((bad as Error).message).not.toContain('secret123')
    const saved = process.env.SVC_BASE_URL
    delete process.env.SVC_BASE_URL
    try {
      expect(() => createClient({ apiKey: 'svc_test_abc' })).toThrow(expect.objectContaining({ code: 'invalid_base_url' }))
    } finally {
      if (saved !== undefined) process.env.SVC_BASE_URL = saved
    }
  })
})

describe('retries', () => {
  it('a 503 after the charge was made is retried with the same Idempotency-Key: one charge', async () => {
    let faulted = false
    const proxy = await proxyTo(sandbox.baseUrl, (req) => {
      if (req.method === 'POST' && !faulted) {
        faulted = true
        return 'forward-then-503'
      }
      return 'pass'
    })
    const client = createClient({ apiKey: sandbox.testKey, baseUrl: proxy.url })
    try {
      const charge = await client.charges.create({ amountInCents: 4321, payerTaxNumber: CPF, description: 'retried once' })
      const posts = proxy.seen.filter((s) => s.method === 'POST')
      expect(posts).toHaveLength(2)
      expect(posts[0]!.idempotencyKey).toMatch(/\S/)
      expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey)
      const same: string[] = []
      for await (const c of client.charges.list()) if (c.description === 'retried once') same.push(c.id)
      expect(same).toEqual([charge.id])
    } finally {
      await client.close()
      await proxy.close()
    }
  })

  it('a 503 before anything was made, then 201: one charge, the same key on both attempts', async () => {
    let refused = false
    const proxy = await proxyTo(sandbox.baseUrl, (req) => {
      if (req.method === 'POST' && !refused) {
        refused = true
        return '503'
      }
      return 'pass'
    })
    const client = createClient({ apiKey: sandbox.testKey, baseUrl: proxy.url })
    try {
      const split = await client.splitCharges.create({
        amountInCents: 5000,
        payerTaxNumber: CPF,
        description: 'split retried',
        split: [
          { wallet: 'a', shareBps: 5000 },
          { wallet: 'b', shareBps: 5000 },
        ],
      })
      const posts = proxy.seen.filter((s) => s.method === 'POST')
      expect(posts.map((p) => p.path)).toEqual(['/v1/split-charges', '/v1/split-charges'])
      expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey)
      const same: string[] = []
      for await (const c of client.charges.list()) if (c.description === 'split retried') same.push(c.id)
      expect(same).toEqual([split.id])
    } finally {
      await client.close()
      await proxy.close()
    }
  })

  it('the caller’s idempotencyKey is the one sent, and a repeat returns the same charge', async () => {
    const client = sandbox.client()
    const a = await client.charges.create({ amountInCents: 1999, payerTaxNumber: CPF }, { idempotencyKey: 'order-77-attempt' })
    const b = await client.charges.create({ amountInCents: 1999, payerTaxNumber: CPF }, { idempotencyKey: 'order-77-attempt' })
    expect(b.id).toBe(a.id)
  })
})

describe('import cost', () => {
  it('importing svc-cli/client loads neither oclif, Ink nor React (nor zod, for valid answers)', async () => {
    const url = pathToFileURL(join(ROOT, 'dist', 'public', 'client.js')).href
    const probe = `
      import { registerHooks } from 'node:module'
      const seen = new Set()
      registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); seen.add(r.url); return r } })
      const { createClient } = await import(${JSON.stringify(url)})
      const client = createClient({ apiKey: ${JSON.stringify(sandbox.testKey)}, baseUrl: ${JSON.stringify(sandbox.baseUrl)} })
      await client.account.get()
      await client.close()
      const heavy = [...seen].filter((u) => /node_modules\\/(@oclif|ink|react|yoga-layout|zod)\\//.test(u))
      console.log(JSON.stringify(heavy))
    `
    // Asynchronous: the sandbox it talks to runs in this process.
    const r = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', timeout: 30_000 })
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual([])
  })
})
