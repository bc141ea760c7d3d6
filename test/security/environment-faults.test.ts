/**
 * Faults of the environment are named as such, never as "a bug in svc" (issue 25 item 9): a
 * config dir that is a file or has a directory in the way of events.db (`webhooks listen`,
 * `webhooks events`), a server answering bytes that are not HTTP (a network failure, exit 7), and
 * a hostile server whose error text echoes the Authorization header (the key is shown masked).
 */
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer, type Server as NetServer } from 'node:net'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configUnwritable } from '../../src/lib/config/store.js'
import { environmentError } from '../../src/lib/errors.js'
import { svc } from '../helpers/cli.js'

const KEY = `svc_test_${'k3y'.repeat(10)}`
const root = mkdtempSync(join(tmpdir(), 'svc-env-faults-'))

function expectEnvironmentFault(r: { exitCode: number; stderr: string }, path: string): void {
  expect(r.exitCode).toBe(1)
  expect(r.stderr).toContain('Error [config_unwritable]')
  expect(r.stderr).toContain(path)
  expect(r.stderr).toContain('SVC_CONFIG_DIR')
  expect(r.stderr).not.toContain('This is a bug')
}

describe('an unusable config dir', () => {
  it('SVC_CONFIG_DIR pointing at a regular file: webhooks listen and webhooks events exit 1 naming it', async () => {
    const file = join(root, 'not-a-dir')
    writeFileSync(file, '')
    const env = { SVC_CONFIG_DIR: file, SVC_WEBHOOK_SECRET: 'whsec_9c8b7a6f5e4d3c2b1a0f', SVC_API_KEY: undefined, SVC_PROFILE: undefined }
    expectEnvironmentFault(await svc(['webhooks', 'listen', '--forward', 'localhost:1', '--port', '0'], { env }), file)
    const events = await svc(['webhooks', 'events'], { env })
    expectEnvironmentFault(events, join(file, 'events.db'))
    expect(events.stderr).toContain('a part of the path is a file, not a directory')
  })

  it('a directory in the way of events.db: exit 1 naming events.db', async () => {
    const dir = join(root, 'blocked')
    mkdirSync(join(dir, 'events.db'), { recursive: true })
    const env = { SVC_CONFIG_DIR: dir, SVC_WEBHOOK_SECRET: 'whsec_9c8b7a6f5e4d3c2b1a0f', SVC_API_KEY: undefined, SVC_PROFILE: undefined }
    expectEnvironmentFault(await svc(['webhooks', 'events'], { env }), join(dir, 'events.db'))
    expectEnvironmentFault(await svc(['webhooks', 'listen', '--forward', 'localhost:1', '--port', '0'], { env }), join(dir, 'events.db'))
  })

  it('read-only, full or permission-denied: each named, with what to do (the kinds a root test run cannot provoke)', () => {
    const cases: Array<[object, string]> = [
      [{ code: 'EACCES', path: '/x/svc' }, 'permission denied'],
      [{ code: 'EROFS', path: '/x/svc' }, 'read-only'],
      [{ code: 'ENOSPC', path: '/x/svc' }, 'no space left'],
      [{ code: 'ERR_SQLITE_ERROR', errcode: 8 }, 'read-only'],
      [{ code: 'ERR_SQLITE_ERROR', errcode: 13 }, 'disk is full'],
    ]
    for (const [fault, words] of cases) {
      const err = configUnwritable('/x/svc/events.db', Object.assign(new Error('raw'), fault), { SVC_CONFIG_DIR: '/x/svc' })
      expect(err).toMatchObject({ exitCode: 1, code: 'config_unwritable' })
      expect(err!.message).toContain('/x/svc')
      expect(err!.message).toContain(words)
    }
    expect(configUnwritable('/x', new TypeError('a bug'))).toBeUndefined()
    // Anywhere else: the same kind of fault caught by nothing closer is named by the command base, not called a bug.
    expect(environmentError(Object.assign(new Error('EACCES'), { code: 'EACCES', path: '/srv/x' }))).toMatchObject({ exitCode: 1, code: 'environment_error', message: 'Cannot use /srv/x: permission denied.' })
    expect(environmentError(new Error('plain'))).toBeUndefined()
  })
})

describe('hostile or broken servers', () => {
  let garbage: NetServer
  let echo: Server
  let garbageUrl: string
  let echoUrl: string
  beforeAll(async () => {
    garbage = createServer((socket) => {
      socket.on('error', () => {})
      socket.once('data', () => socket.end('garbage\r\n\r\n'))
    })
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r))
    garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`
    echo = createHttpServer((req, res) => {
      req.resume()
      res.writeHead(401, { 'content-type': 'application/json' })
      const auth = req.headers.authorization ?? ''
      res.end(
        JSON.stringify({ error: { code: 'invalid_api_key', requestId: 'req_echo', message: `Key rejected: ${auth} (raw ${auth.slice('Bearer '.length)})`, details: [{ field: 'authorization', message: auth }] } }),
      )
    })
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r))
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((r) => garbage.close(() => r()))
    await new Promise<void>((r) => echo.close(() => r()))
  })

  it('an answer of non-HTTP bytes is a network failure naming the peer: exit 7', async () => {
    const r = await svc(['charges', 'get', 'ffffffffffffffffffffffff'], { env: { SVC_CONFIG_DIR: root, SVC_API_KEY: KEY, SVC_BASE_URL: garbageUrl }, timeoutMs: 30_000 })
    expect(r.exitCode).toBe(7)
    expect(r.stderr).toContain('Error [network_error]')
    expect(r.stderr).toContain(garbageUrl.slice('http://'.length))
    expect(r.stderr).toContain('not HTTP')
    expect(r.stderr).not.toContain('This is a bug')
  })

  it('an error text echoing the Authorization header shows the key masked, in text and --json', async () => {
    for (const json of [false, true]) {
      const r = await svc(['account', ...(json ? ['--json'] : [])], { env: { SVC_CONFIG_DIR: root, SVC_API_KEY: KEY, SVC_BASE_URL: echoUrl } })
      expect(r.exitCode).toBe(3)
      expect(r.stderr).toContain('Key rejected')
      expect(r.stderr).toContain(`svc_test_…${KEY.slice(-4)}`)
      expect(r.stderr.includes(KEY)).toBe(false)
      expect(r.stderr.includes(KEY.slice('svc_test_'.length))).toBe(false)
    }
  })
})
