/**
 * Transport failures are sorted once, in net/outbound.ts, and every caller reads the same reason:
 * the API client's retries, `webhooks check`, the forwarder and the sandbox's webhook sender used
 * to keep five tables that disagreed (UND_ERR_SOCKET, undici's head deadline, EAFNOSUPPORT).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCodeOf, OutboundClient, OutboundError, reasonOf, reasonOfCode } from '../../../src/lib/net/outbound.js'
import { classifyError } from '../../../src/lib/webhooks/check/transport.js'
import { describeSendError } from '../../../src/lib/sandbox/deliveries/sender.js'

describe('reasonOfCode', () => {
  it.each([
    ['ECONNREFUSED', 'refused'],
    ['EHOSTUNREACH', 'unreachable'],
    ['EAFNOSUPPORT', 'unreachable'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connect_timeout'],
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ECONNRESET', 'reset'],
    ['UND_ERR_SOCKET', 'reset'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['ERR_INVALID_ARG_TYPE', 'invalid'],
    [undefined, 'invalid'],
    ['EWHATEVER', 'other'],
  ])('%s → %s', (code, reason) => {
    expect(reasonOfCode(code)).toBe(reason)
  })
})

describe('errorCodeOf', () => {
  it('looks past UND_ERR_SOCKET to the errno under it, into causes and AggregateErrors', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET', cause: Object.assign(new Error('read'), { code: 'ECONNRESET' }) })
    expect(errorCodeOf(socket)).toBe('ECONNRESET')
    expect(errorCodeOf(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }))).toBe('UND_ERR_SOCKET')
    expect(errorCodeOf(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toBe('ECONNREFUSED')
  })
})

describe('one reason, read the same by every caller', () => {
  it("undici's head deadline is a timeout for `webhooks check` and for the sandbox's sender alike", () => {
    const err = new OutboundError('transport', 'Headers Timeout Error', { code: 'UND_ERR_HEADERS_TIMEOUT' })
    expect(err.reason).toBe('timeout')
    expect(classifyError(err)).toEqual({ kind: 'timeout' })
    expect(describeSendError(err, 10_000)).toBe('timeout: no answer within 10 s')
  })

  it('a refused connection is unreachable for `webhooks check`, and named by its code in the delivery log', () => {
    const err = new OutboundError('transport', 'connect ECONNREFUSED 127.0.0.1:9', { code: 'ECONNREFUSED' })
    expect(classifyError(err)).toEqual({ kind: 'unreachable', reason: 'connection refused' })
    expect(describeSendError(err, 10_000)).toBe('ECONNREFUSED')
    expect(reasonOf(err)).toBe('refused')
  })
})

describe('OutboundClient over real sockets', () => {
  let server: Server
  let origin: string
  const client = new OutboundClient()
  beforeAll(async () => {
    server = createServer((req) => {
      if (req.url === '/cut') req.socket.destroy()
      // '/silent' never answers.
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await client.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const send = (path: string, at = origin) =>
    client.send({ origin: at, path, method: 'GET', timeoutMs: 300, maxBodyBytes: 1024, overflow: 'fail' }).then(
      () => undefined,
      (err: unknown) => err as OutboundError,
    )

  it('sorts a cut connection as reset, a silent server as timeout, a closed port as refused', async () => {
    expect((await send('/cut'))?.reason).toBe('reset')
    expect((await send('/silent'))?.reason).toBe('timeout')
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    expect((await send('/', `http://127.0.0.1:${port}`))?.reason).toBe('refused')
  })
})
