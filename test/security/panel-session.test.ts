/**
 * Issue 25 item 3: the web panel's session cookie. Cookies are not scoped by port, so a cookie
 * of the panel on 127.0.0.1:8787 reaches every server on 127.0.0.1. The cookie's name carries the
 * port (two sandboxes keep their own sign-ins), and its value is a session made at sign-in,
 * never the start token that signs in again and again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'

let a: RunningSandbox
let b: RunningSandbox
beforeAll(async () => {
  a = await startSandboxServer({ port: 0, inMemory: true })
  b = await startSandboxServer({ port: 0, inMemory: true })
})
afterAll(async () => {
  await a?.close()
  await b?.close()
})

const portOf = (sb: RunningSandbox) => new URL(sb.baseUrl).port
const tokenOf = (sb: RunningSandbox) => new URL(sb.panelUrl).searchParams.get('token')!

/** Signs in with the start URL, as a browser opening it; returns the cookie set (name=value). */
async function signIn(sb: RunningSandbox): Promise<{ name: string; value: string }> {
  const r = await fetch(sb.panelUrl, { redirect: 'manual' })
  expect(r.status).toBe(303)
  const [pair] = (r.headers.get('set-cookie') ?? '').split(';')
  const eq = pair!.indexOf('=')
  return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1) }
}

/** A panel page with the Cookie header a browser sends to 127.0.0.1 (every port's cookies at once). */
const page = (sb: RunningSandbox, cookie: string) => fetch(`${sb.baseUrl}/panel/charges?env=test`, { headers: { cookie }, redirect: 'manual' })

describe('web panel session cookie', () => {
  it('is named after the port, and its value is not the start token', async () => {
    const cookie = await signIn(a)
    expect(cookie.name).toBe(`svc_panel_${portOf(a)}`)
    expect(cookie.value).toMatch(/^[\w-]{32,}$/)
    expect(cookie.value).not.toBe(tokenOf(a))
  })

  it('signing in to a second sandbox leaves the first one signed in', async () => {
    const first = await signIn(a)
    const second = await signIn(b)
    const jar = `${first.name}=${first.value}; ${second.name}=${second.value}`
    expect((await page(a, jar)).status).toBe(200)
    expect((await page(b, jar)).status).toBe(200)
  })

  it('each sign-in gets its own session', async () => {
    expect((await signIn(a)).value).not.toBe((await signIn(a)).value)
  })

  it('refuses the start token as a cookie value, under either name', async () => {
    for (const name of [`svc_panel_${portOf(a)}`, 'svc_panel']) {
      const r = await page(a, `${name}=${tokenOf(a)}`)
      expect(r.status, name).toBe(401)
    }
  })

  it("refuses another sandbox's session, and a session under another port's name", async () => {
    const mine = await signIn(a)
    const theirs = await signIn(b)
    expect((await page(a, `svc_panel_${portOf(a)}=${theirs.value}`)).status).toBe(401)
    expect((await page(b, `svc_panel_${portOf(b)}=${mine.value}`)).status).toBe(401)
    expect((await page(a, `svc_panel_${portOf(b)}=${mine.value}`)).status).toBe(401)
  })
})
