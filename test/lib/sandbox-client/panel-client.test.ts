import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError, NetworkError } from '../../../src/lib/errors.js'
import { detectSandbox, noDeliveryError, PanelClient, setWebhookUrl } from '../../../src/lib/sandbox-client/panel-client.js'

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void
let server: Server | undefined

async function serve(handler: Handler): Promise<string> {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => handler(req, body, res))
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
}

afterEach(async () => {
  server?.closeAllConnections()
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()))
  server = undefined
})

describe('detectSandbox', () => {
  it('is true when /_sandbox/info says it is a sandbox', async () => {
    const base = await serve((req, _b, res) => (req.url === '/_sandbox/info' ? json(res, 200, { sandbox: true }) : json(res, 404, {})))
    expect(await detectSandbox(`${base}/`)).toBe(true)
  })

  it('is false for a real service (404) and for nothing listening', async () => {
    const base = await serve((_r, _b, res) => json(res, 404, { error: { code: 'not_found', message: 'x', requestId: 'r' } }))
    expect(await detectSandbox(base)).toBe(false)
    expect(await detectSandbox('http://127.0.0.1:1')).toBe(false)
  })

  it('gives up quickly on a server that never answers', async () => {
    const base = await serve(() => {})
    expect(await detectSandbox(base, { timeoutMs: 50 })).toBe(false)
  })
})

describe('PanelClient', () => {
  it('setWebhookUrl PUTs the url and env with the bearer key', async () => {
    let seen: { method?: string; url?: string; auth?: string; body?: unknown } = {}
    const base = await serve((req, body, res) => {
      seen = { method: req.method, url: req.url, auth: req.headers.authorization, body: JSON.parse(body) }
      json(res, 200, { environment: 'test', url: 'http://127.0.0.1:4242/', active: true })
    })
    const ep = await setWebhookUrl({ baseUrl: base, apiKey: 'svc_test_abcdefghijkl', url: 'http://127.0.0.1:4242/', env: 'test' })
    expect(ep.active).toBe(true)
    expect(seen).toEqual({ method: 'PUT', url: '/_sandbox/webhook', auth: 'Bearer svc_test_abcdefghijkl', body: { url: 'http://127.0.0.1:4242/', env: 'test' } })
  })

  it('turns an error body into an ApiError with code, details and requestId', async () => {
    const base = await serve((_r, _b, res) => json(res, 400, { error: { code: 'invalid_request', message: 'bad', details: [{ field: 'url', message: 'must be http(s)' }], requestId: 'req_1' } }))
    const err = await new PanelClient({ baseUrl: base, apiKey: 'svc_test_x' }).setWebhook('ftp://x').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ apiCode: 'invalid_request', status: 400, requestId: 'req_1', exitCode: 2, details: [{ field: 'url', message: 'must be http(s)' }] })
  })

  it('says what to do about a 404 of a running sandbox as a typed step, each door words it', async () => {
    const base = await serve((req, _b, res) =>
      req.url === '/_sandbox/info'
        ? json(res, 200, { sandbox: true })
        : json(res, 404, { error: { code: req.url?.startsWith('/_sandbox/webhook') ? 'webhook_not_configured' : 'not_found', message: 'x', requestId: 'r' } }),
    )
    const panel = new PanelClient({ baseUrl: base, apiKey: 'svc_test_x' })
    const webhook = await panel.getWebhook('live').catch((e: unknown) => e)
    expect(webhook).toMatchObject({ apiCode: 'webhook_not_configured', message: 'No webhook URL is set for the live environment.', next: { do: 'set_webhook', env: 'live' }, hint: undefined })
    const resend = await panel.resendDelivery('evt_1', 'test').catch((e: unknown) => e)
    expect(resend).toMatchObject({ exitCode: 4, message: 'No delivery with event id evt_1 in the test environment.', next: { do: 'list_deliveries', env: 'test' }, hint: undefined })
    expect(noDeliveryError('evt_2', 'live')).toMatchObject({ exitCode: 4, next: { do: 'list_deliveries', env: 'live' } })
  })

  it('points at a sandbox when a 404 comes from something that is none', async () => {
    const other = await serve((_r, _b, res) => json(res, 404, { error: { code: 'not_found', message: 'x', requestId: 'r' } }))
    const stray = await new PanelClient({ baseUrl: other, apiKey: 'svc_test_x' }).getWebhook('test').catch((e: unknown) => e)
    expect(stray).toMatchObject({ message: 'x', next: { do: 'point_at_sandbox', baseUrl: other } })
  })

  it('sends the key to revoke in the body, never in the URL', async () => {
    let seen: { url?: string; body?: string } = {}
    const base = await serve((req, body, res) => {
      seen = { url: req.url, body }
      json(res, 200, { key: 'svc_test_…wxyz', environment: 'test', revoked: true, createdAt: '2026-01-01T00:00:00Z' })
    })
    await new PanelClient({ baseUrl: base, apiKey: 'svc_test_admin' }).revokeKey('svc_test_secretsecretwxyz')
    expect(seen.url).toBe('/_sandbox/keys/revoke')
    expect(JSON.parse(seen.body!)).toEqual({ key: 'svc_test_secretsecretwxyz' })
  })

  it('reports an unreachable sandbox as a network error (exit 7)', async () => {
    const err = await new PanelClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'svc_test_x' }).getClock().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(NetworkError)
    expect((err as NetworkError).exitCode).toBe(7)
  })
})
