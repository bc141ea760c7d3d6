import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import SandboxDeliveries from '../../../src/commands/sandbox/deliveries/index.js'
import SandboxDeliveriesResend from '../../../src/commands/sandbox/deliveries/resend.js'
import SandboxKeysCreate from '../../../src/commands/sandbox/keys/create.js'
import SandboxKeysRevoke from '../../../src/commands/sandbox/keys/revoke.js'
import SandboxWebhookSet from '../../../src/commands/sandbox/webhook/set.js'
import SandboxWebhookShow from '../../../src/commands/sandbox/webhook/show.js'
import { maskSecret } from '../../../src/lib/config/mask.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'
import { startTarget, type Target } from '../../helpers/delivery-target.js'

const WRONG_HINT = 'Is this a local sandbox'

let sb: RunningSandbox
let target: Target
let notSandbox: Server
let notSandboxUrl: string

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true, start: Date.parse('2026-11-22T12:00:00Z') }) })
  target = await startTarget()
  const store = await ProfileStore.open()
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
  // A server that is not a sandbox: every path is a 404 in the API's error shape.
  notSandbox = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'Not found', requestId: 'req_x' } }))
  })
  await new Promise<void>((r) => notSandbox.listen(0, '127.0.0.1', r))
  notSandboxUrl = `http://127.0.0.1:${(notSandbox.address() as AddressInfo).port}`
})

afterAll(async () => {
  await sb.close()
  await target.close()
  notSandbox.closeAllConnections()
  await new Promise<void>((r) => notSandbox.close(() => r()))
})

describe('a 404 from a running sandbox says what was not found', () => {
  it('deliveries resend of an unknown event: exit 4, no delivery with that id in the environment', async () => {
    const r = await runCommand(SandboxDeliveriesResend, ['evt_nope'])
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('Error [not_found]: No delivery with event id evt_nope in the test environment.')
    expect(r.stderr).toMatch(/\(requestId req_[0-9a-f]+\)/)
    expect(r.stderr).not.toContain(WRONG_HINT)
    // The use-case gives a typed step ({do: 'list_deliveries', env}); the command words it as the CLI always did.
    expect(r.stderr).toContain('Hint: List the deliveries with `svc sandbox deliveries`; an event of the live environment needs --env live.')
  })

  it('deliveries --event-id of an unknown event agrees with resend: exit 4, same message (--json: the error object)', async () => {
    const r = await runCommand(SandboxDeliveries, ['--event-id', 'evt_nope'])
    expect(r).toMatchObject({ exitCode: 4, stdout: '' })
    expect(r.stderr).toContain('Error [not_found]: No delivery with event id evt_nope in the test environment.')
    const tty = await runCommand(SandboxDeliveries, ['--event-id', 'evt_nope'], { tty: true })
    expect(tty.exitCode).toBe(4)
    const json = await runCommand(SandboxDeliveries, ['--event-id', 'evt_nope', '--json'])
    expect(json.exitCode).toBe(4)
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'not_found', message: 'No delivery with event id evt_nope in the test environment.' } })
    // Every format agrees: a script piping --ndjson or --csv learns the event is unknown from the exit code too.
    for (const format of [['--ndjson'], ['--csv'], ['--all'], ['--all', '--csv']]) {
      const streamed = await runCommand(SandboxDeliveries, ['--event-id', 'evt_nope', ...format])
      expect(streamed, format.join(' ')).toMatchObject({ exitCode: 4, stdout: '' })
      expect(streamed.stderr).toContain('No delivery with event id evt_nope in the test environment.')
    }
    // Without --event-id an empty log is not an error.
    expect(await runCommand(SandboxDeliveries, ['--env', 'live'])).toMatchObject({ exitCode: 0, stdout: '' })
  })

  it('resend acts on the environment of the key, or --env', async () => {
    await runCommand(SandboxWebhookSet, [target.url, '--env', 'live'])
    const res = await fetch(`${sb.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: { authorization: `Bearer ${sb.liveKey}` } })
    const { eventId } = (await res.json()) as { eventId: string }
    const wrongEnv = await runCommand(SandboxDeliveriesResend, [eventId])
    expect(wrongEnv.exitCode).toBe(4)
    expect(wrongEnv.stderr).toContain(`No delivery with event id ${eventId} in the test environment.`)
    expect(wrongEnv.stderr).toContain('--env live')
    expect(await runCommand(SandboxDeliveriesResend, [eventId, '--env', 'live'])).toMatchObject({ exitCode: 0, stdout: `${eventId}\n` })
  })

  it('keys revoke: the masked form of one key revokes it (as in the help, also with three dots); an unknown one says so', async () => {
    const keys = [] as string[]
    for (let i = 0; i < 2; i++) keys.push((await runCommand(SandboxKeysCreate, ['--env', 'test'])).stdout.trim())
    const masked = maskSecret(keys[0])
    expect(masked).toMatch(/^svc_test_…[0-9a-f]{4}$/)
    const r = await runCommand(SandboxKeysRevoke, [masked])
    expect(r).toMatchObject({ exitCode: 0, stdout: `${masked}\trevoked\n` })
    const dots = await runCommand(SandboxKeysRevoke, [masked.replace('…', '...'), '--json'])
    expect(dots.exitCode).toBe(0)
    expect(JSON.parse(dots.stdout)).toMatchObject({ key: masked, revoked: true })

    const unknown = await runCommand(SandboxKeysRevoke, ['svc_test_…a1b2'])
    expect(unknown.exitCode).toBe(4)
    expect(unknown.stderr).toContain('No key svc_test_…a1b2 in this sandbox.')
    expect(unknown.stderr).toContain('svc sandbox keys list')
    expect(unknown.stderr).not.toContain(WRONG_HINT)
    const full = await runCommand(SandboxKeysRevoke, ['-'], { stdin: 'svc_test_00000000000000000000000000000000\n' })
    expect(full.stderr).toContain('No key svc_test_…0000 in this sandbox.')
    expect(full.stderr).not.toContain('svc_test_00000000000000000000000000000000')
  })

  it('webhook show with no URL set: what is missing and how to set it', async () => {
    const r = await runCommand(SandboxWebhookShow, [])
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toContain('Error [webhook_not_configured]: No webhook URL is set for the test environment.')
    expect(r.stderr).toContain('svc sandbox webhook set URL --env test')
  })
})

it('a 404 from a server that is not a sandbox asks whether it is one', async () => {
  const r = await runCommand(SandboxDeliveriesResend, ['evt_nope', '--base-url', notSandboxUrl], { env: { SVC_API_KEY: 'svc_test_0123456789abcdef' } })
  expect(r.exitCode).toBe(4)
  expect(r.stderr).toContain(`Is ${notSandboxUrl} a local sandbox?`)
})
