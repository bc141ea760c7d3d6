/**
 * Registering the listener with the service, without oclif: against the local sandbox over real
 * HTTP (both environments taken, then given back on a clean stop), against a service that is not
 * a sandbox (the tunnel notes), and against nothing at all.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../../src/lib/config/resolve.js'
import { detectSandbox, getWebhookUrl, probeSandbox, removeWebhookUrl, setWebhookUrl } from '../../../src/lib/sandbox-client/panel-client.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { registerListener, registrationNotes, restoreWebhookUrls } from '../../../src/lib/webhooks/listener-webhook-url.js'

let sandbox: RunningSandbox
let creds: Credentials
beforeAll(async () => {
  sandbox = await startSandboxServer({ port: 0, inMemory: true, log: () => {} })
  creds = { apiKey: sandbox.testKey, baseUrl: sandbox.baseUrl, environment: 'test', source: 'test' }
})
afterAll(() => sandbox.close())

const urlOf = (env: 'test' | 'live') => getWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, env })

describe('registerListener against the local sandbox', () => {
  it('takes both environments, then a clean stop puts back what each had (a URL, or none)', async () => {
    await setWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, url: 'http://127.0.0.1:3000/app', env: 'test' })
    const reg = await registerListener('http://0.0.0.0:4242/', creds, 'unused')
    expect(reg).toMatchObject({ kind: 'sandbox', url: 'http://127.0.0.1:4242/', environment: 'test', also: 'live' })
    expect(await urlOf('test')).toBe('http://127.0.0.1:4242/')
    expect(await urlOf('live')).toBe('http://127.0.0.1:4242/')
    expect(registrationNotes(reg, 'http://0.0.0.0:4242/', ['whsec_0123456789abcdef0123'])[0]).toMatch(/test and live webhook URL; verifying with whsec_…0123/)

    const notes = await restoreWebhookUrls(reg, creds)
    expect(await urlOf('test')).toBe('http://127.0.0.1:3000/app')
    expect(await urlOf('live')).toBeUndefined()
    expect(notes).toEqual(["Restored the sandbox's test webhook URL to http://127.0.0.1:3000/app.", "Removed the sandbox's live webhook URL (there was none before the listener)."])
  })

  it('a URL someone changed while the listener ran is left alone', async () => {
    const reg = await registerListener('http://127.0.0.1:4243/', creds, 'unused')
    await setWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, url: 'http://127.0.0.1:5000/new', env: 'test' })
    await restoreWebhookUrls(reg, creds)
    expect(await urlOf('test')).toBe('http://127.0.0.1:5000/new')
  })
})

describe('going back past a listener that died without restoring (kill -9)', () => {
  const ledgerFile = join(mkdtempSync(join(tmpdir(), 'svc-ledger-')), 'listeners.json')
  const deps = (alive: boolean) => ({ detectSandbox, probeSandbox, setWebhookUrl, getWebhookUrl, removeWebhookUrl, ledgerFile, answers: async () => alive })

  it("skips a dead listener's URL for the one it replaced, but gives back one that still answers, and never skips a URL no listener set", async () => {
    await setWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, url: 'http://127.0.0.1:3000/app', env: 'test' })
    // The first listener registers; a second one starts while the first still answers, then the first dies: no restore.
    await registerListener('http://127.0.0.1:4301/', creds, 'unused', deps(false))
    const second = await registerListener('http://127.0.0.1:4302/', creds, 'unused', deps(true))
    expect(await restoreWebhookUrls(second, creds, deps(false))).toContain("Restored the sandbox's test webhook URL to http://127.0.0.1:3000/app (not http://127.0.0.1:4301/: a listener that no longer answers).")
    expect(await urlOf('test')).toBe('http://127.0.0.1:3000/app')

    // Dead already when the next one starts: it notes the URL the dead one replaced, straight away.
    await registerListener('http://127.0.0.1:4311/', creds, 'unused', deps(false))
    const next = await registerListener('http://127.0.0.1:4312/', creds, 'unused', deps(false))
    expect(next).toMatchObject({ previous: { test: 'http://127.0.0.1:3000/app' } })
    expect(await restoreWebhookUrls(next, creds, deps(false))).toContain("Restored the sandbox's test webhook URL to http://127.0.0.1:3000/app (not http://127.0.0.1:4311/: a listener that no longer answers).")
    expect(await urlOf('test')).toBe('http://127.0.0.1:3000/app')

    // A listener URL that still answers (the first listener is alive) is given back as it was.
    await registerListener('http://127.0.0.1:4303/', creds, 'unused', deps(true))
    const fourth = await registerListener('http://127.0.0.1:4304/', creds, 'unused', deps(true))
    await restoreWebhookUrls(fourth, creds, deps(true))
    expect(await urlOf('test')).toBe('http://127.0.0.1:4303/')

    // The user's own app, down for now, is no listener's URL: it is given back, never skipped.
    await setWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, url: 'http://127.0.0.1:3000/app', env: 'test' })
    const fifth = await registerListener('http://127.0.0.1:4305/', creds, 'unused', deps(false))
    await restoreWebhookUrls(fifth, creds, deps(false))
    expect(await urlOf('test')).toBe('http://127.0.0.1:3000/app')
  })
})

describe('a listener restarted on the port of one killed there (kill -9)', () => {
  const ledgerFile = join(mkdtempSync(join(tmpdir(), 'svc-ledger-')), 'listeners.json')
  const deps = { detectSandbox, probeSandbox, setWebhookUrl, getWebhookUrl, removeWebhookUrl, ledgerFile, answers: async () => false }
  const set = (url: string, env: 'test' | 'live') => setWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, url, env })

  it("never notes its own URL as what it replaced: a clean stop gives each environment the merchant's URL back", async () => {
    await set('http://127.0.0.1:3001/hooks', 'test')
    await set('http://127.0.0.1:3001/live-hooks', 'live')
    // The first listener registers, then is killed: both environments are left on its URL.
    await registerListener('http://127.0.0.1:4242/', creds, 'unused', deps)
    // Started again the same way, on the same port: the URL there now is its own.
    const again = await registerListener('http://127.0.0.1:4242/', creds, 'unused', deps)
    expect(again).toMatchObject({ kind: 'sandbox', previous: { test: 'http://127.0.0.1:3001/hooks', live: 'http://127.0.0.1:3001/live-hooks' } })
    expect(JSON.stringify(JSON.parse(readFileSync(ledgerFile, 'utf8')))).not.toContain('"http://127.0.0.1:4242/"')

    const notes = await restoreWebhookUrls(again, creds, deps)
    expect(notes).toEqual(["Restored the sandbox's test webhook URL to http://127.0.0.1:3001/hooks.", "Restored the sandbox's live webhook URL to http://127.0.0.1:3001/live-hooks."])
    expect(await urlOf('test')).toBe('http://127.0.0.1:3001/hooks')
    expect(await urlOf('live')).toBe('http://127.0.0.1:3001/live-hooks')
  })

  it("killed twice on the same port, then on another: still the merchant's URL, and none where there was none", async () => {
    await set('http://127.0.0.1:3001/hooks', 'test')
    await removeWebhookUrl({ baseUrl: sandbox.baseUrl, apiKey: sandbox.testKey, env: 'live' })
    await registerListener('http://127.0.0.1:4242/', creds, 'unused', deps)
    await registerListener('http://127.0.0.1:4242/', creds, 'unused', deps)
    await registerListener('http://127.0.0.1:4250/', creds, 'unused', deps)
    const last = await registerListener('http://127.0.0.1:4242/', creds, 'unused', deps)
    expect(last).toMatchObject({ previous: { test: 'http://127.0.0.1:3001/hooks', live: null } })
    await restoreWebhookUrls(last, creds, deps)
    expect(await urlOf('test')).toBe('http://127.0.0.1:3001/hooks')
    expect(await urlOf('live')).toBeUndefined()
  })

  it('a ledger that notes a listener as what it replaced (written by 0.3.0) ends in no URL, not a loop', async () => {
    await set('http://127.0.0.1:4242/', 'test')
    writeFileSync(ledgerFile, JSON.stringify({ [`${sandbox.baseUrl} test http://127.0.0.1:4242/`]: 'http://127.0.0.1:4242/' }))
    const reg = await registerListener('http://127.0.0.1:4242/', creds, 'unused', deps)
    expect(reg).toMatchObject({ previous: { test: null } })
    const notes = await restoreWebhookUrls(reg, creds, deps)
    expect(notes[0]).toBe("Removed the sandbox's test webhook URL (there was none before the listener).")
    expect(await urlOf('test')).toBeUndefined()
  })
})

describe('registerListener elsewhere', () => {
  let other: Server
  let otherUrl: string
  beforeAll(async () => {
    other = createServer((_req, res) => res.writeHead(404).end())
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`
  })
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())))

  it('a service that is not a sandbox: nothing set, notes naming a tunnel and the environment', async () => {
    const reg = await registerListener('http://127.0.0.1:4242/', { ...creds, baseUrl: otherUrl }, 'unused')
    expect(reg).toEqual({ kind: 'remote', baseUrl: otherUrl, environment: 'test' })
    expect(registrationNotes(reg, 'http://127.0.0.1:4242/', []).join('\n')).toMatch(/tunnel.*4242[\s\S]*test webhook URL/)
  })

  it('nothing answers: unreachable, with the reason; no credentials: said so', async () => {
    const reg = await registerListener('http://127.0.0.1:4242/', { ...creds, baseUrl: 'http://127.0.0.1:9' }, 'unused')
    expect(reg.kind).toBe('unreachable')
    expect(await registerListener('http://127.0.0.1:4242/', undefined, 'no profile')).toEqual({ kind: 'no_credentials', reason: 'no profile' })
  })
})
