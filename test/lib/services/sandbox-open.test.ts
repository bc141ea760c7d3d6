/**
 * `runSandboxOpen` (issue 25 item 4): the panel link comes from the server, so only an http(s)
 * URL on the sandbox's own origin reaches the system's opener, as one argv element and never
 * through a shell (on Windows `cmd /c start` ran what followed an `&` and cut the `&next=` off).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError, EXIT } from '../../../src/lib/errors.js'
import { openerArgv, runSandboxOpen, type SandboxOpenOptions } from '../../../src/lib/services/sandbox-open.js'
import { svc } from '../../helpers/cli.js'

const BASE = 'http://127.0.0.1:8787'

function options(link: string, over: Partial<SandboxOpenOptions> = {}): { opts: SandboxOpenOptions; opened: string[][] } {
  const opened: string[][] = []
  const opts: SandboxOpenOptions = {
    page: 'bank',
    target: async () => ({ baseUrl: BASE, environment: 'test' }),
    panelLink: async () => ({ url: link }),
    print: false,
    platform: 'linux',
    opener: async (argv) => {
      opened.push([...argv])
      return true
    },
    ...over,
  }
  return { opts, opened }
}

describe('runSandboxOpen', () => {
  it('opens the one-time link with the page kept, the URL one argument of the opener', async () => {
    const { opts, opened } = options(`${BASE}/panel?ticket=T1`)
    const r = await runSandboxOpen(opts)
    expect(r).toEqual({ kind: 'opened', url: `${BASE}/panel?ticket=T1&next=%2Fpanel%2Fbank%3Fenv%3Dtest`, next: '/panel/bank?env=test' })
    expect(opened).toEqual([['xdg-open', r.url]])
  })

  it('on Windows, goes through rundll32 (no cmd parser): the whole URL with its & is one argument', async () => {
    const { opts, opened } = options(`${BASE}/panel?ticket=T2`, { platform: 'win32', page: '01a20e8d8eae000000000005', env: 'live' })
    const r = await runSandboxOpen(opts)
    expect(opened).toEqual([['rundll32', 'url.dll,FileProtocolHandler', `${BASE}/panel?ticket=T2&next=%2Fpanel%2Fcharges%2F01a20e8d8eae000000000005%3Fenv%3Dlive`]])
    expect(opened.flat()).not.toContain('cmd')
    expect(r.kind).toBe('opened')
    expect(openerArgv('http://x/', 'darwin')).toEqual(['open', 'http://x/'])
  })

  it.each([
    ['a file: URL with shell metacharacters', 'file:///etc/passwd?x=1 & calc.exe & rem'],
    ['another site', 'https://evil.example/panel?ticket=T'],
    ['another port of the same host', 'http://127.0.0.1:8788/panel?ticket=T'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['not a URL at all', 'panel?ticket=T & calc.exe'],
  ])('refuses %s (exit 1) and opens nothing, printing included', async (_, link) => {
    for (const print of [false, true]) {
      const { opts, opened } = options(link, { print })
      const err = await runSandboxOpen(opts).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(CliError)
      expect((err as CliError).exitCode).toBe(EXIT.unexpected)
      expect((err as CliError).message).toContain('Nothing was opened')
      expect(opened).toEqual([])
    }
  })

  it('with print, returns the URL and starts nothing; an opener that cannot start says so', async () => {
    const printed = options(`${BASE}/panel?ticket=T3`, { print: true })
    expect((await runSandboxOpen(printed.opts)).kind).toBe('printed')
    expect(printed.opened).toEqual([])
    const failed = options(`${BASE}/panel?ticket=T4`, { opener: async () => false })
    expect((await runSandboxOpen(failed.opts)).kind).toBe('failed')
  })

  it('refuses an unknown page (exit 2) before asking for credentials or a link', async () => {
    let asked = false
    const { opts } = options(`${BASE}/panel?ticket=T`, {
      page: 'nowhere',
      target: async () => {
        asked = true
        return { baseUrl: BASE, environment: 'test' }
      },
    })
    await expect(runSandboxOpen(opts)).rejects.toMatchObject({ exitCode: EXIT.usage })
    expect(asked).toBe(false)
  })
})

describe('svc sandbox open against a hostile server', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume()
      res.writeHead(201, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ url: 'file:///etc/passwd?x=1 & calc.exe & rem' }))
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('exits 1 naming the link, and prints no URL', async () => {
    const r = await svc(['sandbox', 'open', '--print'], { env: { SVC_API_KEY: 'svc_test_0123456789abcdef', SVC_BASE_URL: base } })
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('not an http(s) URL on its own origin')
  })
})
