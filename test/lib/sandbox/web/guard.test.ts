/**
 * The web panel's guard (web/guard.ts) over HTTP, without a browser: Host allow-list (DNS
 * rebinding), sign-in, CSRF and origin on forms, the security headers, and the panel's own
 * 404/405 pages. The browser test (test/browser/panel.test.ts) drives the same panel in Chromium.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../../src/lib/sandbox/types.js'

let sb: RunningSandbox
let port: string
let cookie: string
beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, instance: 'nonce-of-this-start' })
  port = new URL(sb.baseUrl).port
  const signIn = await call(new URL(sb.panelUrl).pathname + new URL(sb.panelUrl).search)
  cookie = signIn.headers['set-cookie']![0]!.split(';')[0]!
})
afterAll(() => sb.close())

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined> & { 'set-cookie'?: string[] }
  text: string
}

function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, sb.baseUrl), { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let text = ''
      res.on('data', (c: Buffer) => (text += c.toString('utf8')))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

const signedIn = (headers: Record<string, string> = {}) => ({ cookie, ...headers })
const form = (body: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: signedIn({ 'content-type': 'application/x-www-form-urlencoded', ...headers }),
  body,
})
const csrfOf = async () => /name="_csrf" value="([^"]+)"/.exec((await call('/panel/keys?env=test', { headers: signedIn() })).text)![1]!

describe('web panel guard', () => {
  it('answers a signed-in page with the security headers', async () => {
    const r = await call('/panel/charges?env=test', { headers: signedIn() })
    expect(r.status).toBe(200)
    expect(r.headers['content-security-policy']).toContain("default-src 'none'")
    expect(r.headers['x-frame-options']).toBe('DENY')
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.headers['x-request-id']).toMatch(/\w/)
  })

  it('accepts every loopback Host with its port, and refuses any other (DNS rebinding)', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await call('/panel/charges', { headers: signedIn({ host }) })).status, host).toBe(200)
    }
    // Issue 29 item 11: the README's list is the code's list; another 127.x address is not on it.
    for (const host of [
      'attacker.example',
      `attacker.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      '127.0.0.1',
      `::1:${port}`,
      `127.example.test:${port}`,
      `127.0.0.2:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `localhost.:${port}`,
    ]) {
      expect((await call('/panel/charges', { headers: signedIn({ host }) })).status, host).toBe(403)
    }
  })

  it("/_sandbox/info tells its start's nonce only to a Host the panel answers (issue 29 item 11)", async () => {
    const mine = JSON.parse((await call('/_sandbox/info', { headers: { host: `127.0.0.1:${port}` } })).text) as Record<string, unknown>
    expect(mine).toMatchObject({ sandbox: true, instance: 'nonce-of-this-start' })
    for (const host of [`attacker.example:${port}`, `127.0.0.2:${port}`, `127.0.0.1:${Number(port) + 1}`]) {
      const r = await call('/_sandbox/info', { headers: { host } })
      expect(r.status, host).toBe(200)
      const body = JSON.parse(r.text) as Record<string, unknown>
      expect(body.sandbox, host).toBe(true)
      expect(body, host).not.toHaveProperty('instance')
    }
  })

  it('serves its assets before sign-in, and nothing else', async () => {
    const css = await call('/panel/assets/panel.css')
    expect(css.status).toBe(200)
    expect(css.headers['cache-control']).toBe('no-cache')
    expect((await call('/panel/charges')).status).toBe(401)
  })

  it('refuses a form without the CSRF token, or from another origin; takes one with both', async () => {
    const csrf = await csrfOf()
    expect((await call('/panel/keys?env=test', form('env=test'))).status).toBe(403)
    expect((await call('/panel/keys?env=test', form(`_csrf=${csrf}&env=test`, { origin: 'http://attacker.example' }))).status).toBe(403)
    expect((await call('/panel/keys?env=test', form(`_csrf=${csrf}&env=test`, { 'sec-fetch-site': 'cross-site' }))).status).toBe(403)
    const ok = await call('/panel/keys?env=test', form(`_csrf=${csrf}&env=test`, { origin: `http://127.0.0.1:${port}` }))
    expect(ok.status).toBe(200)
    expect(ok.text).toMatch(/svc_test_[0-9a-f]{32}/)
  })

  it('answers unknown pages 404 and other methods 405, as pages', async () => {
    const page = await call('/panel/nowhere', { headers: signedIn() })
    expect(page.status).toBe(404)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.text).toContain('No panel page at /panel/nowhere')
    expect((await call(`/panel/charges/${'0'.repeat(24)}`, { headers: signedIn() })).status).toBe(404)
    const action = await call('/panel/nowhere', form(`_csrf=${await csrfOf()}`))
    expect(action.status).toBe(404)
    expect(action.text).toContain('No panel action at /panel/nowhere')
    expect((await call('/panel/charges', { method: 'PUT', headers: signedIn() })).status).toBe(405)
  })

  it('a signed-in visit to /panel goes to the charges', async () => {
    const r = await call('/panel', { headers: signedIn() })
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe('/panel/charges?env=test')
  })
})
