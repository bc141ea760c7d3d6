/**
 * Exposure: the sandbox (which hands out keys) and the listener (which forwards into the
 * merchant's app) bind 127.0.0.1 unless told otherwise — unreachable on the machine's other
 * addresses — and say so loudly on stderr when told otherwise. The "otherwise" tried here is a
 * documentation address (192.0.2.1, RFC 5737) that no machine has, so the test never exposes
 * anything: the warning must come before the bind, which then fails.
 */
import { type AddressInfo, connect, createServer } from 'node:net'
import { networkInterfaces } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import SandboxStart from '../../src/commands/sandbox/start.js'
import WebhooksListen from '../../src/commands/webhooks/listen.js'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { EventStore } from '../../src/lib/webhooks/event-store.js'
import type { Forwarder } from '../../src/lib/webhooks/forward.js'
import { forwarding } from '../helpers/webhooks.js'
import { WebhookListener } from '../../src/lib/webhooks/listener.js'
import { useRawSockets } from '../helpers/raw-http.js'
import { runCommand } from '../helpers/run-command.js'

useRawSockets()

/** This machine's own non-loopback IPv4 addresses (none in some CI containers). */
const ownAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a && a.family === 'IPv4' && !a.internal)
  .map((a) => a!.address)

/** A documentation address (RFC 5737) this machine does not have. */
const NOT_LOCAL = ['192.0.2.1', '198.51.100.1', '203.0.113.1'].find((a) => !ownAddresses.includes(a))!

/** Whether a TCP connection to host:port is accepted. */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port })
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
    s.setTimeout(1000, () => {
      s.destroy()
      resolve(false)
    })
  })
}

let sb: RunningSandbox | undefined
let listener: WebhookListener | undefined
let forwarder: Forwarder | undefined
let store: EventStore | undefined
afterEach(async () => {
  await listener?.close()
  await forwarder?.close()
  store?.close()
  await sb?.close()
  sb = listener = forwarder = store = undefined
})

describe('bound to loopback by default', () => {
  it('the sandbox listens on 127.0.0.1 only', async () => {
    sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true }) })
    const url = new URL(sb.baseUrl)
    expect(url.hostname).toBe('127.0.0.1')
    const port = Number(url.port)
    expect(await reachable('127.0.0.1', port)).toBe(true)
    for (const address of ownAddresses) expect(await reachable(address, port), `reachable on ${address}`).toBe(false)
  })

  it('the listener listens on 127.0.0.1 only', async () => {
    store = await EventStore.open({ path: ':memory:' })
    const f = forwarding('127.0.0.1:9')
    forwarder = f.forwarder
    listener = new WebhookListener({ ...f, secrets: ['whsec_x'], store, port: 0 })
    const url = new URL(await listener.start())
    expect(url.hostname).toBe('127.0.0.1')
    const port = Number(url.port)
    expect(await reachable('127.0.0.1', port)).toBe(true)
    for (const address of ownAddresses) expect(await reachable(address, port), `reachable on ${address}`).toBe(false)
  })

  it('the commands default --host to 127.0.0.1', () => {
    expect(SandboxStart.flags.host.default).toBe('127.0.0.1')
    expect(WebhooksListen.flags.host.default).toBe('127.0.0.1')
  })
})

describe('told to listen elsewhere, they say so loudly first', () => {
  it('svc sandbox start --host 192.0.2.1 warns that keys are exposed', async () => {
    const r = await runCommand(SandboxStart, ['--host', NOT_LOCAL, '--port', '0', '--in-memory', '--no-profile'])
    expect(r.stderr).toMatch(new RegExp(`Warning:.*${NOT_LOCAL.replaceAll('.', '\\.')}`))
    expect(r.stderr).toMatch(/127\.0\.0\.1/)
    expect(r.exitCode).not.toBe(0)
  })

  it('svc webhooks listen --host 192.0.2.1 warns that the listener is exposed', async () => {
    const r = await runCommand(WebhooksListen, ['--forward', 'localhost:3000', '--host', NOT_LOCAL, '--port', '0', '--secret', 'whsec_exposure_test_secret', '--no-tui'])
    expect(r.stderr).toMatch(new RegExp(`Warning:.*${NOT_LOCAL.replaceAll('.', '\\.')}`))
    expect(r.stderr).toMatch(/127\.0\.0\.1/)
    expect(r.exitCode).toBe(2)
  })

  it('no warning on loopback (127.0.0.1, localhost, ::1)', async () => {
    // A port already taken, so that the command stops right after the point where it would warn.
    const busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '::', resolve))
    const port = String((busy.address() as AddressInfo).port)
    try {
      for (const host of ['127.0.0.1', 'localhost', '::1']) {
        const r = await runCommand(WebhooksListen, ['--forward', 'localhost:3000', '--host', host, '--port', port, '--no-tui'], { env: { SVC_WEBHOOK_SECRET: 'whsec_exposure_test_secret' } })
        expect(r.stderr, host).not.toMatch(/Warning:/)
        expect(r.exitCode, r.stderr).toBe(2)
      }
    } finally {
      busy.close()
    }
  })
})
