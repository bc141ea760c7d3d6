/**
 * Echoed keys never leak (issue 29 item 5). A server (a proxy, a hostile --base-url) echoes the
 * Authorization key back: whole, without its `svc_test_` prefix, upper-cased, or both, in every
 * field of an error body (code, message, details, requestId), in the X-Request-Id header, in a
 * 2xx answer that is not the API's shape (field names and text), and in bytes that are not HTTP
 * (which undici quotes in the network error's cause). Neither `svc-cli/client` (every field of
 * the SvcApiError it throws, its cause chain included) nor the CLI (stderr error line, --json
 * error object, SVC_DEBUG lines) shows the key's secret part, in any case.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Command } from '@oclif/core'
import { createClient, SvcApiError } from '../../src/public/client.js'
import { runCommand } from '../helpers/run-command.js'

const SECRET = 'k3yS3cr3tPart0123456789abcdefXYZ'
const KEY = `svc_test_${SECRET}`
const CHARGE_ID = '65a1f0c2b3d4e5f60718293a'

/** How the server echoes the key it was sent. */
const FORMS = {
  whole: (key: string) => key,
  'without its prefix': (key: string) => key.replace(/^svc_(test|live)_/, ''),
  'upper-cased': (key: string) => key.toUpperCase(),
  'upper-cased, without its prefix': (key: string) => key.replace(/^svc_(test|live)_/, '').toUpperCase(),
  // Issue 36.7: in part or re-formatted.
  'its first 20 secret characters': (key: string) => key.replace(/^svc_(test|live)_/, '').slice(0, 20),
  '28 of 32 characters, upper-cased': (key: string) =>
    key
      .replace(/^svc_(test|live)_/, '')
      .slice(4)
      .toUpperCase(),
  'grouped by four with hyphens': (key: string) => key.replace(/^svc_(test|live)_/, '').replace(/(.{4})(?=.)/g, '$1-'),
  'split by a space': (key: string) => {
    const s = key.replace(/^svc_(test|live)_/, '')
    return `${s.slice(0, 16)} ${s.slice(16)}`
  },
  'with dots and colons between pairs, mixed case': (key: string) =>
    key
      .replace(/^svc_(test|live)_/, '')
      .replace(/(.{2})(?=.)/g, (m, _p, i: number) => `${m}${i % 4 === 0 ? '.' : ':'}`)
      .replace(/[a-z]/g, (c, i: number) => (i % 3 === 0 ? c.toUpperCase() : c)),
} as const
type Form = keyof typeof FORMS

/** Where the server puts it: an API error body in every field; a 2xx answer that is not JSON (quoted in the message); a charge with a bad field named after it (in details). */
const PLACES = ['error body and X-Request-Id', '2xx answer that is not JSON', '2xx charge with a bad field'] as const
type Place = (typeof PLACES)[number]

let form: Form = 'whole'
/** 'svc api answer': a 200 that echoes the key in its body, X-Request-Id and WWW-Authenticate (svc api prints answers). */
let place: Place | 'svc api answer' = PLACES[0]
let server: Server
let baseUrl: string

function answer(req: IncomingMessage, res: ServerResponse): void {
  req.resume()
  const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '')
  const echo = FORMS[form](key)
  if (place === 'svc api answer') {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${echo}`, 'www-authenticate': `Bearer realm="svc", token="${echo}"` })
    res.end(JSON.stringify({ id: CHARGE_ID, youSent: echo, note: `Authorization: Bearer ${echo}` }))
    return
  }
  if (place === 'error body and X-Request-Id') {
    res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': `req_${echo}` })
    res.end(
      JSON.stringify({
        error: {
          code: `bad_${echo}`,
          message: `Chave ${echo} recusada (Authorization: Bearer ${echo})`,
          details: [{ field: `header.${echo}`, message: `o valor ${echo} não é aceito` }],
          requestId: `req_${echo}`,
        },
      }),
    )
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${echo}` })
  if (place === '2xx answer that is not JSON') return void res.end(`${echo} <html>`)
  const at = '2026-11-20T12:00:00.000Z'
  const charge = {
    id: CHARGE_ID,
    status: 'awaiting_payment',
    environment: 'test',
    amount: { grossInCents: 1500, feeBps: 100, feeFixedInCents: 0, feeInCents: 15, netInCents: 1485 },
    pix: { qrCode: '000201', expiresAt: at },
    settlement: { delayHours: 24 },
    payer: { taxNumber: '***.982.247-**' },
    metadata: { [echo]: 42 },
    createdAt: at,
    updatedAt: at,
  }
  res.end(JSON.stringify(charge))
}

/** Every text an error holds, as a developer would see it: fields, cause chain, inspect, JSON. */
function everythingIn(err: unknown): string {
  return [inspect(err, { depth: 20, showHidden: true }), JSON.stringify(err), String(err)].join('\n')
}

/** Any 8 consecutive characters of the secret part, in any case, whatever stands between them. */
function leaks(text: string): boolean {
  const flat = text.toLowerCase().replace(/[-:_. ]/g, '')
  const secret = SECRET.toLowerCase()
  for (let i = 0; i + 8 <= secret.length; i++) if (flat.includes(secret.slice(i, i + 8))) return true
  return false
}

beforeAll(async () => {
  server = createServer(answer)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const CASES = PLACES.flatMap((p) => (Object.keys(FORMS) as Form[]).map((f) => [p, f] as const))

describe('svc-cli/client', () => {
  it.each(CASES)('%s, the key echoed %s: no field of the SvcApiError holds it', async (p, f) => {
    place = p
    form = f
    const client = createClient({ apiKey: KEY, baseUrl, maxRetries: 0 })
    let caught: unknown
    try {
      await client.charges.get(CHARGE_ID)
    } catch (err) {
      caught = err
    } finally {
      await client.close()
    }
    expect(caught).toBeInstanceOf(SvcApiError)
    const err = caught as SvcApiError
    // The echo did reach the error (masked), so this test sees the fields it means to.
    expect(everythingIn(err)).toMatch(/…/)
    for (const field of [err.message, err.code, err.requestId ?? '', JSON.stringify(err.details ?? []), everythingIn(err.cause)]) expect(leaks(field), field).toBe(false)
    expect(leaks(everythingIn(err))).toBe(false)
  })

  it('bytes that are not HTTP, carrying the key, leave no trace of it in the network error or its causes', async () => {
    const tcp: TcpServer = createTcpServer((socket) => {
      socket.once('data', (chunk) => {
        const key = /authorization: Bearer (\S+)/i.exec(chunk.toString('latin1'))?.[1] ?? ''
        socket.end(`HTTP/1.1 200 OK\r\nX-Echo: ${key}\r\n${key.toUpperCase()} ${key}\r\n\r\n`)
      })
    })
    tcp.listen(0, '127.0.0.1')
    await once(tcp, 'listening')
    const client = createClient({ apiKey: KEY, baseUrl: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`, maxRetries: 0 })
    let caught: unknown
    try {
      await client.charges.get(CHARGE_ID)
    } catch (err) {
      caught = err
    } finally {
      await client.close()
      tcp.close()
    }
    expect(caught).toBeInstanceOf(SvcApiError)
    expect((caught as SvcApiError).code).toBe('network_error')
    expect(leaks(everythingIn(caught))).toBe(false)
  })
})

describe('the CLI', () => {
  const load = async (): Promise<typeof Command & { run(argv?: string[], opts?: string): Promise<unknown> }> => (await import('../../src/commands/charges/get.js')).default as never

  it.each(CASES)('%s, the key echoed %s: neither the error line, --json nor SVC_DEBUG lines show it', async (p, f) => {
    place = p
    form = f
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: baseUrl, SVC_DEBUG: '1', SVC_CONFIG_DIR: '/nonexistent-svc-config' }
    for (const argv of [[CHARGE_ID], [CHARGE_ID, '--json']]) {
      const r = await runCommand(await load(), argv, { env })
      expect(r.exitCode, r.stderr).not.toBe(0)
      expect(r.stderr).toMatch(/…/)
      expect(leaks(r.stderr), r.stderr).toBe(false)
      expect(leaks(r.stdout), r.stdout).toBe(false)
    }
  })
})

describe('svc api (issue 36.6): an answer that echoes the key', () => {
  const load = async (): Promise<typeof Command & { run(argv?: string[], opts?: string): Promise<unknown> }> => (await import('../../src/commands/api.js')).default as never
  const MODES = [
    ['on a terminal', [], true],
    ['piped', [], false],
    ['with --json', ['--json'], false],
    ['with -i on a terminal', ['-i'], true],
    ['with -i, piped', ['-i'], false],
  ] as const

  it.each(MODES.flatMap(([mode, flags, tty]) => (Object.keys(FORMS) as Form[]).map((f) => [mode, f, flags, tty] as const)))(
    '%s, the key echoed %s: the body and the headers show it masked',
    async (_mode, f, flags, tty) => {
      place = 'svc api answer'
      form = f
      const env = { SVC_API_KEY: KEY, SVC_BASE_URL: baseUrl, SVC_CONFIG_DIR: '/nonexistent-svc-config' }
      const r = await runCommand(await load(), [...flags, 'GET', `/v1/charges/${CHARGE_ID}`], { env, tty })
      expect(r.exitCode, r.stderr).toBe(0)
      // The answer itself is printed, only the echo is masked.
      expect(r.stdout).toContain(CHARGE_ID)
      expect(r.stdout).toMatch(/youSent"?: ?"(svc_test_)?…/)
      if (flags.includes('-i' as never)) {
        expect(r.stdout).toMatch(/x-request-id: req_(svc_test_)?…/)
        expect(r.stdout).toMatch(/www-authenticate: Bearer realm="svc", token="(svc_test_)?…/)
      }
      expect(leaks(r.stdout), r.stdout).toBe(false)
      expect(leaks(r.stderr), r.stderr).toBe(false)
    },
  )
})

describe('svc mcp results (issue 36.7): a tool error or result that echoes a key or a webhook secret in part', () => {
  const WEBHOOK = 'whsec_0f1e2d3c4b5a69788796a5b4c3d2e1f0'
  const hexPart = WEBHOOK.slice('whsec_'.length)

  it.each(Object.keys(FORMS) as Form[])('the key echoed %s in an API error: no field of the result holds it', async (f) => {
    const { errorResult } = await import('../../src/lib/mcp/results.js')
    const { ApiError } = await import('../../src/lib/errors.js')
    const echo = FORMS[f](KEY)
    const err = new ApiError({ status: 400, code: 'bad_request', message: `Chave ${echo} recusada`, details: [{ field: `x.${echo}`, message: echo }], requestId: `req_${echo}` })
    const out = JSON.stringify(errorResult(err, [KEY]))
    expect(out).toMatch(/…/)
    expect(leaks(out), out).toBe(false)
  })

  it('a webhook secret grouped like a UUID, upper-cased, in a success: masked in the text and the structured content', async () => {
    const { successResult } = await import('../../src/lib/mcp/results.js')
    const uuid = hexPart.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5').toUpperCase()
    const out = JSON.stringify(successResult({ structured: { note: `secret ${uuid}`, [uuid]: 1, list: [`\u0000${hexPart.slice(0, 12)}`] }, text: `got ${uuid}` }, [KEY, WEBHOOK]))
    const flat = out.toLowerCase().replace(/[-:_. ]/g, '')
    for (let i = 0; i + 8 <= hexPart.length; i++) expect(flat, out).not.toContain(hexPart.slice(i, i + 8))
  })
})

describe('a sandbox panel command (its client is not the API client): the error line masks the key in use', () => {
  const load = async (): Promise<typeof Command & { run(argv?: string[], opts?: string): Promise<unknown> }> => (await import('../../src/commands/sandbox/deliveries/index.js')).default as never

  it.each(Object.keys(FORMS) as Form[])('the key echoed %s in a panel error', async (f) => {
    place = 'error body and X-Request-Id'
    form = f
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: baseUrl, SVC_CONFIG_DIR: '/nonexistent-svc-config' }
    for (const argv of [[], ['--json']]) {
      const r = await runCommand(await load(), argv, { env })
      expect(r.exitCode, r.stderr).not.toBe(0)
      expect(r.stderr).toMatch(/…/)
      expect(leaks(r.stderr), r.stderr).toBe(false)
    }
  })
})
