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
} as const
type Form = keyof typeof FORMS

/** Where the server puts it: an API error body in every field; a 2xx answer that is not JSON (quoted in the message); a charge with a bad field named after it (in details). */
const PLACES = ['error body and X-Request-Id', '2xx answer that is not JSON', '2xx charge with a bad field'] as const
type Place = (typeof PLACES)[number]

let form: Form = 'whole'
let place: Place = PLACES[0]
let server: Server
let baseUrl: string

function answer(req: IncomingMessage, res: ServerResponse): void {
  req.resume()
  const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '')
  const echo = FORMS[form](key)
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

function leaks(text: string): boolean {
  return text.toLowerCase().includes(SECRET.toLowerCase())
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
