/**
 * The sandbox's one router (router.ts): routes, params, and the difference between a path that
 * does not exist (404) and one that exists for other methods (405 with Allow, RFC 9110); then,
 * over HTTP, that the three surfaces answer those cases in their own shape, and that an error
 * thrown anywhere is shaped once (spec 2.9: one error object, the request's id).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Router } from '../../../../src/lib/sandbox/http/router.js'
import { startSandboxServer } from '../../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../../src/lib/sandbox/types.js'

const router = new Router([
  { method: 'GET', pattern: '/v1/things', handler: 'list' },
  { method: 'POST', pattern: '/v1/things', handler: 'create' },
  { method: 'GET', pattern: '/v1/things/:id', handler: 'get' },
  { method: 'POST', pattern: '/v1/things/:id/cancel', handler: 'cancel' },
  { method: 'GET', pattern: '/qr/:id([0-9a-f]{4}).png', handler: 'qr' },
])

describe('Router', () => {
  it('finds the route of a method and path, with its params as sent', () => {
    expect(router.match('GET', '/v1/things')).toMatchObject({ route: { handler: 'list' }, params: {} })
    expect(router.match('POST', '/v1/things')).toMatchObject({ route: { handler: 'create' } })
    expect(router.match('GET', '/v1/things/a%20b')).toMatchObject({ route: { handler: 'get' }, params: { id: 'a%20b' } })
    expect(router.match('POST', '/v1/things/x1/cancel')).toMatchObject({ route: { handler: 'cancel' }, params: { id: 'x1' } })
  })

  it('answers HEAD with the GET route', () => {
    expect(router.match('HEAD', '/v1/things/x')).toMatchObject({ route: { handler: 'get' } })
  })

  it('tells a path that exists for other methods (its Allow list) from one that does not exist', () => {
    expect(router.match('DELETE', '/v1/things')).toEqual({ allow: ['GET', 'POST', 'HEAD', 'OPTIONS'] })
    expect(router.match('GET', '/v1/things/x/cancel')).toEqual({ allow: ['POST', 'OPTIONS'] })
    expect(router.match('OPTIONS', '/v1/things/x')).toEqual({ allow: ['GET', 'HEAD', 'OPTIONS'] })
    expect(router.match('GET', '/v1/nothing')).toBeUndefined()
    expect(router.match('GET', '/v1/things/x/y')).toBeUndefined()
    expect(router.allowed('/v1/things')).toEqual(['GET', 'POST', 'HEAD', 'OPTIONS'])
    expect(router.allowed('/v1/nothing')).toBeUndefined()
  })

  it('a table without HEAD (headAsGet: false) answers only the methods it lists', () => {
    const strict = new Router([{ method: 'GET', pattern: '/clock', handler: 'clock' }], { headAsGet: false })
    expect(strict.match('HEAD', '/clock')).toEqual({ allow: ['GET', 'OPTIONS'] })
    expect(strict.match('GET', '/clock')).toMatchObject({ route: { handler: 'clock' } })
  })

  it('a segment matches one segment only, and a constraint and the literal around it hold', () => {
    expect(router.match('GET', '/v1/things/')).toBeUndefined()
    expect(router.match('GET', '/qr/abcd.png')).toMatchObject({ route: { handler: 'qr' }, params: { id: 'abcd' } })
    expect(router.match('GET', '/qr/abcdxpng')).toBeUndefined()
    expect(router.match('GET', '/qr/ABCD.png')).toBeUndefined()
    expect(router.match('GET', '/qr/abcde.png')).toBeUndefined()
  })
})

describe('the sandbox surfaces over HTTP', () => {
  let sb: RunningSandbox
  beforeAll(async () => {
    sb = await startSandboxServer({ port: 0, inMemory: true })
  })
  afterAll(() => sb.close())

  const call = (method: string, path: string, key: string | null = sb.testKey) => fetch(`${sb.baseUrl}${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} })

  /** The one error shape: a single error object whose requestId is the answer's X-Request-Id. */
  async function expectError(r: Response, status: number, code: string): Promise<void> {
    expect(r.status).toBe(status)
    expect(r.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await r.json()) as { error: Record<string, unknown> }
    expect(Object.keys(body)).toEqual(['error'])
    expect(body.error).toMatchObject({ code, message: expect.any(String), requestId: r.headers.get('x-request-id') })
    expect(typeof body.error.message).toBe('string')
  }

  it('/v1: a known path with another method is 405 with Allow, an unknown path 404 (after the key)', async () => {
    const r = await call('DELETE', '/v1/account')
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    await expectError(r, 405, 'method_not_allowed')
    await expectError(await call('GET', '/v1/nothing'), 404, 'not_found')
    await expectError(await call('GET', '/v1/nothing', null), 401, 'invalid_api_key')
  })

  it('/_sandbox: an error thrown by a panel route is shaped once, with the request id', async () => {
    await expectError(await call('GET', '/_sandbox/webhook'), 404, 'webhook_not_configured')
    await expectError(await call('GET', '/_sandbox/nothing'), 404, 'not_found')
    // The panel API has no 405: another method on a known path is an unknown route.
    await expectError(await call('POST', '/_sandbox/clock'), 404, 'not_found')
    expect((await call('HEAD', '/_sandbox/clock')).status).toBe(404)
  })

  it('/panel: answers in HTML pages, not JSON errors', async () => {
    const r = await call('GET', '/panel/charges', null)
    expect(r.status).toBe(401)
    expect(r.headers.get('content-type')).toMatch(/^text\/html/)
  })
})
