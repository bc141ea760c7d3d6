import { afterAll, beforeAll, expect, it } from 'vitest'
import SandboxClockAdvance from '../../../src/commands/sandbox/clock/advance.js'
import SandboxDeliveriesResend from '../../../src/commands/sandbox/deliveries/resend.js'
import SandboxKeysList from '../../../src/commands/sandbox/keys/list.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'

let sb: RunningSandbox

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true, start: Date.parse('2026-11-22T12:00:00Z') }) })
  const store = await ProfileStore.open()
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
})

afterAll(() => sb.close())

const DEBUG = { SVC_DEBUG: '1' }

it('SVC_DEBUG=1 logs each panel request and answer like the API client (method, path, status, ms, requestId), key masked', async () => {
  const r = await runCommand(SandboxKeysList, [], { env: DEBUG })
  expect(r.exitCode).toBe(0)
  const lines = r.stderr.trim().split('\n')
  expect(lines[0]).toBe('→ GET /_sandbox/keys')
  expect(lines[1]).toMatch(/^← 200 GET \/_sandbox\/keys \d+ms requestId req_[0-9a-f]+$/)
  expect(r.stdout).not.toContain('→')
  for (const secret of [sb.testKey, sb.liveKey, sb.testKey.slice(9, 25)]) expect(r.stdout + r.stderr).not.toContain(secret)

  const post = await runCommand(SandboxClockAdvance, ['1s'], { env: DEBUG })
  expect(post.stderr).toMatch(/^→ POST \/_sandbox\/clock\/advance\n← 200 POST \/_sandbox\/clock\/advance \d+ms requestId req_[0-9a-f]+\n$/)
})

it('logs the failed request, then the sandbox check a 404 triggers', async () => {
  const r = await runCommand(SandboxDeliveriesResend, ['evt_nope'], { env: DEBUG })
  expect(r.exitCode).toBe(4)
  expect(r.stderr).toMatch(/^→ POST \/_sandbox\/deliveries\/evt_nope\/resend\n← 404 POST \/_sandbox\/deliveries\/evt_nope\/resend \d+ms requestId req_[0-9a-f]+\n/)
  expect(r.stderr).toMatch(/→ GET \/_sandbox\/info\n← 200 GET \/_sandbox\/info \d+ms requestId req_[0-9a-f]+\n/)
})

it('logs nothing without SVC_DEBUG', async () => {
  expect((await runCommand(SandboxKeysList, [])).stderr).toBe('')
})
