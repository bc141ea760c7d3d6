/** The relay as its operator runs it: the built binary, a real process, SIGTERM. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { svc, svcBackground } from '../../helpers/cli.js'
import { eventBody, openStream, postSigned, rawRequest } from '../../helpers/relay.js'

const SECRET = 'whsec_serve_binary_test_0123456789'
let data: string
let config: string
beforeEach(() => {
  data = mkdtempSync(join(tmpdir(), 'svc-relay-serve-'))
  config = mkdtempSync(join(tmpdir(), 'svc-relay-cfg-'))
})
afterEach(() => {
  rmSync(data, { recursive: true, force: true })
  rmSync(config, { recursive: true, force: true })
})

describe('svc relay serve', () => {
  it('prints {"listening"} first, relays, and on SIGTERM tells streams shutdown and exits 0 — no token or secret in any output', async () => {
    const env = { SVC_CONFIG_DIR: config }
    const add = await svc(['relay', 'channel', 'add', 'team', '--secret', SECRET, '--data', data, '--json'], { env })
    expect(add.exitCode).toBe(0)
    const created = await svc(['relay', 'token', 'create', 'alice', '--channel', 'team', '--data', data, '--json'], { env })
    const token = JSON.parse(created.stdout).token as string
    const relay = await svcBackground(['relay', 'serve', '--port', '0', '--data', data], { env })
    const url = relay.first.listening as string
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await postSigned(url, 'team', eventBody('evt_1'), { secret: SECRET })).status).toBe(200)
    expect((await rawRequest(`${url}/healthz`)).status).toBe(200)
    const s = await openStream(url, token)
    await s.next((f) => f.event === 'delivery')
    const status = await svc(['relay', 'status', '--data', data, '--json'], { env })
    expect(JSON.parse(status.stdout).tokens[0]).toMatchObject({ name: 'alice', connected: true, backlog: 1 })
    const code = relay.stop()
    expect(await s.next((f) => f.event === 'closing')).toMatchObject({ data: { reason: 'shutdown' } })
    expect(await code).toBe(0)
    const everything = [add.stdout, add.stderr, created.stderr, status.stdout, status.stderr, relay.stderr()].join('\n')
    expect(everything).not.toContain(token)
    expect(everything).not.toContain(SECRET.slice(6))
    for (const line of relay.stderr().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow()
  })

  it('refuses a non-loopback --host without TLS or --behind-proxy: exit 2 naming the flags', async () => {
    const r = await svc(['relay', 'serve', '--host', '0.0.0.0', '--port', '0', '--data', data, '--json'], { env: { SVC_CONFIG_DIR: config } })
    expect(r.exitCode).toBe(2)
    const error = JSON.parse(r.stderr).error
    expect(error.details[0].field).toBe('host')
    expect(error.message).toContain('--tls-cert')
    expect(error.message).toContain('--behind-proxy')
  })
})
