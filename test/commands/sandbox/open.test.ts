/** `svc sandbox open`: a one-time URL into the web panel, printed where no browser can be opened. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { svc } from '../../helpers/cli.js'

let sb: RunningSandbox
beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true })
})
afterAll(() => sb.close())

describe('svc sandbox open', () => {
  it('prints a one-time URL (no browser here) that lands on the page asked for, once', async () => {
    const r = await svc(['sandbox', 'open', 'bank', '--print'], { env: { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl } })
    expect(r.exitCode).toBe(0)
    const url = r.stdout.trim()
    expect(url).toMatch(new RegExp(`^${sb.baseUrl}/panel\\?ticket=[\\w-]+&next=`))
    expect(url).not.toContain(sb.testKey)
    const first = await fetch(url, { redirect: 'manual' })
    expect(first.status).toBe(303)
    expect(first.headers.get('location')).toBe('/panel/bank?env=test')
    expect(first.headers.get('set-cookie')).toMatch(new RegExp(`^svc_panel_${new URL(sb.baseUrl).port}=[\\w-]+; HttpOnly; SameSite=Strict; Path=/panel$`))
    const again = await fetch(url, { redirect: 'manual' })
    expect(again.status).toBe(401)
  })

  it('refuses an unknown page (exit 2) before asking the sandbox', async () => {
    const r = await svc(['sandbox', 'open', 'nowhere'], { env: { SVC_API_KEY: sb.testKey, SVC_BASE_URL: 'http://127.0.0.1:9' } })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('PAGE must be one of charges, deliveries')
  })
})

describe('svc sandbox webhook remove', () => {
  it('removes the URL (events no longer delivered), and exits 4 when there is none', async () => {
    const env = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }
    expect((await svc(['sandbox', 'webhook', 'set', 'http://127.0.0.1:9/hooks'], { env })).exitCode).toBe(0)
    const removed = await svc(['sandbox', 'webhook', 'remove', '--json'], { env })
    expect(removed.exitCode).toBe(0)
    expect(JSON.parse(removed.stdout)).toEqual({ environment: 'test', removed: true })
    expect((await svc(['sandbox', 'webhook', 'show'], { env })).exitCode).toBe(4)
    expect((await svc(['sandbox', 'webhook', 'remove'], { env })).exitCode).toBe(4)
  })
})
