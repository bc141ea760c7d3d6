import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import SandboxAccountSet from '../../../src/commands/sandbox/account/set.js'
import SandboxAccountShow from '../../../src/commands/sandbox/account/show.js'
import SandboxClockAdvance from '../../../src/commands/sandbox/clock/advance.js'
import SandboxClockShow from '../../../src/commands/sandbox/clock/show.js'
import SandboxDeliveries from '../../../src/commands/sandbox/deliveries/index.js'
import SandboxDeliveriesResend from '../../../src/commands/sandbox/deliveries/resend.js'
import SandboxKeysCreate from '../../../src/commands/sandbox/keys/create.js'
import SandboxKeysList from '../../../src/commands/sandbox/keys/list.js'
import SandboxKeysRevoke from '../../../src/commands/sandbox/keys/revoke.js'
import SandboxWebhook from '../../../src/commands/sandbox/webhook/index.js'
import SandboxWebhookSet from '../../../src/commands/sandbox/webhook/set.js'
import SandboxWebhookShow from '../../../src/commands/sandbox/webhook/show.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'
import { startTarget, type Target } from '../../helpers/delivery-target.js'

const START = Date.parse('2026-11-22T12:00:00.000Z')
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
const ANSI = /\u001B\[/

let sb: RunningSandbox
let clock: SandboxClock
let target: Target

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field
async function api(method: string, path: string, key = sb.testKey): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sb.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}` } })
  return { status: res.status, body: await res.json() }
}

beforeAll(async () => {
  clock = new SandboxClock({ manual: true, start: START })
  sb = await startSandboxServer({ port: 0, inMemory: true, clock })
  target = await startTarget()
  const store = await ProfileStore.open()
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
  store.save('sandbox-live', { apiKey: sb.liveKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
})

afterAll(async () => {
  await sb.close()
  await target.close()
})

beforeEach(() => {
  target.received.length = 0
  target.answers = [{ status: 200 }]
})

describe('svc sandbox webhook', () => {
  it('show exits 4 with a hint while no URL is set; set saves it; show prints it', async () => {
    const none = await runCommand(SandboxWebhookShow, ['--env', 'live'])
    expect(none.exitCode).toBe(4)
    expect(none.stderr).toContain('webhook_not_configured')
    expect(none.stderr).toContain('svc sandbox webhook set URL --env live')

    const set = await runCommand(SandboxWebhookSet, [target.url])
    expect(set).toMatchObject({ exitCode: 0, stdout: `${target.url}\n` })
    const show = await runCommand(SandboxWebhookShow, ['--json'])
    expect(JSON.parse(show.stdout)).toEqual({ environment: 'test', url: target.url, active: true })
    const piped = await runCommand(SandboxWebhookShow, [])
    expect(piped.stdout).toBe(`environment\ttest\nurl\t${target.url}\nactive\ttrue\n`)
  })

  it('the bare topic shows "none set" and how to set one, exit 0, where show exits 4 (issue 29 item 25)', async () => {
    const tty = await runCommand(SandboxWebhook, ['--env', 'live'], { tty: true, env: { NO_COLOR: '1' } })
    expect(tty.exitCode).toBe(0)
    expect(tty.stdout).toMatch(/URL\s+none set\n/)
    expect(tty.stdout).toContain('Set one with `svc sandbox webhook set URL --env live`, or run `svc webhooks listen`.')
    expect(tty.stderr).toBe('')
    const piped = await runCommand(SandboxWebhook, ['--env', 'live'])
    expect(piped).toMatchObject({ exitCode: 0, stdout: 'environment\tlive\nurl\t\n' })
    const json = await runCommand(SandboxWebhook, ['--env', 'live', '--json'])
    expect(JSON.parse(json.stdout)).toEqual({ environment: 'live', url: null })
    expect((await runCommand(SandboxWebhookShow, ['--env', 'live'])).exitCode).toBe(4)
  })

  it('rejects a URL that is not http(s) with exit 2, sending nothing', async () => {
    const r = await runCommand(SandboxWebhookSet, ['ftp://example.test/hooks'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('URL must be an absolute http:// or https:// URL')
    expect((await runCommand(SandboxWebhookShow, ['--json'])).stdout).toContain(target.url)
  })
})

describe('svc sandbox deliveries and clock', () => {
  it('shows retries, failure and deactivation after 25 h, then reactivation by saving the URL again', async () => {
    await runCommand(SandboxWebhookSet, [target.url])
    target.answers = [{ status: 500 }]
    const { body } = await api('POST', '/v1/webhooks/test')
    const eventId = body.eventId as string
    await runCommand(SandboxClockAdvance, ['1s']) // waits for the first attempt

    const pending = await runCommand(SandboxDeliveries, ['--event-id', eventId])
    // The ninth column (0.4) is when the event was made: createdAt, on the sandbox clock.
    expect(pending.stdout).toBe(`${eventId}\tcharge.test\t${target.url}\t1\t500\t${new Date(START + 10_000).toISOString()}\tpending\t\t${new Date(START).toISOString()}\n`)

    const advanced = await runCommand(SandboxClockAdvance, ['25h', '--json'])
    expect(JSON.parse(advanced.stdout)).toEqual({ now: new Date(START + 1000 + 25 * 3600_000).toISOString() })
    expect(target.received.filter((r) => r.headers['x-svc-event-id'] === eventId)).toHaveLength(10)

    const failed = JSON.parse((await runCommand(SandboxDeliveries, ['--json', '--event-id', eventId])).stdout)
    expect(failed.data[0]).toMatchObject({ eventId, state: 'failed', attempts: 10, lastStatus: 500 })
    expect(failed.data[0].attemptLog).toHaveLength(10)
    expect(JSON.parse((await runCommand(SandboxWebhookShow, ['--json'])).stdout)).toMatchObject({ active: false })

    await runCommand(SandboxWebhookSet, [target.url])
    expect(JSON.parse((await runCommand(SandboxWebhookShow, ['--json'])).stdout)).toMatchObject({ active: true })
  })

  it('resend delivers the same event id again', async () => {
    await runCommand(SandboxWebhookSet, [target.url])
    const { body } = await api('POST', '/v1/webhooks/test')
    await runCommand(SandboxClockAdvance, ['1s'])
    const r = await runCommand(SandboxDeliveriesResend, [body.eventId])
    expect(r).toMatchObject({ exitCode: 0, stdout: `${body.eventId}\n` })
    await runCommand(SandboxClockAdvance, ['1s'])
    expect(target.received.map((x) => x.headers['x-svc-event-id'])).toEqual([body.eventId, body.eventId])
    expect(target.received[1]!.body.equals(target.received[0]!.body)).toBe(true)

    const missing = await runCommand(SandboxDeliveriesResend, ['evt_does_not_exist'])
    expect(missing.exitCode).toBe(4)
  })

  it('draws a table on a terminal', async () => {
    const r = await runCommand(SandboxDeliveries, [], { tty: true })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(ANSI)
    // 100 columns: the URL (the same on every row) gives way to CREATED, the time column (0.4);
    // RETRY, empty on every row (nothing pending), goes first.
    for (const h of ['EVENT ID', 'TYPE', 'TRIES', 'ANSWER', 'STATE', 'CREATED']) expect(r.stdout).toContain(h)
    expect(r.stdout).not.toContain('RETRY')
    expect(r.stdout).toContain('charge.test')
  })

  it('clock show prints the sandbox time; advance rejects a bad duration with exit 2', async () => {
    const shown = JSON.parse((await runCommand(SandboxClockShow, ['--json'])).stdout)
    expect(shown).toMatchObject({ now: clock.nowDate().toISOString(), speed: 1 })
    expect(Object.keys(shown)).toEqual(['now', 'speed', 'leadMs'])
    expect(Number.isInteger(shown.leadMs)).toBe(true)
    expect((await runCommand(SandboxClockShow, [])).stdout).toBe(`${clock.nowDate().toISOString()}\n`)
    const bad = await runCommand(SandboxClockAdvance, ['soon'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('duration')
  })
})

describe('svc sandbox clock show --json: the lead over the wall clock its help promises (trial report item 3)', () => {
  it('leadMs is the sandbox time minus the wall time, in whole ms, negative when behind', async () => {
    // Only Date is faked: the wall clock this machine reads, while sockets and timers run as usual.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(clock.nowDate().getTime() - 90_000)
      const ahead = JSON.parse((await runCommand(SandboxClockShow, ['--json'])).stdout)
      expect(ahead).toEqual({ now: clock.nowDate().toISOString(), speed: 1, leadMs: 90_000 })
      vi.setSystemTime(clock.nowDate().getTime() + 3_600_000)
      expect(JSON.parse((await runCommand(SandboxClockShow, ['--json'])).stdout).leadMs).toBe(-3_600_000)
      // Piped: the time alone, as before.
      expect((await runCommand(SandboxClockShow, [])).stdout).toBe(`${clock.nowDate().toISOString()}\n`)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('svc sandbox keys', () => {
  it('lists keys masked, creates one shown in full once, and revokes it read from stdin', async () => {
    const list = await runCommand(SandboxKeysList, [])
    expect(list.stdout).not.toContain(sb.testKey)
    expect(list.stdout).toMatch(/^svc_test_…\w{4}\ttest\tactive\t/m)

    const created = await runCommand(SandboxKeysCreate, ['--env', 'live'])
    const key = created.stdout.trim()
    expect(key).toMatch(/^svc_live_\w{16,}$/)
    expect((await api('GET', '/v1/account', key)).status).toBe(200)

    const revoked = await runCommand(SandboxKeysRevoke, ['-'], { stdin: `${key}\n` })
    expect(revoked.exitCode).toBe(0)
    expect(revoked.stdout).not.toContain(key)
    expect(await api('GET', '/v1/account', key)).toMatchObject({ status: 401, body: { error: { code: 'revoked_api_key' } } })

    expect((await runCommand(SandboxKeysRevoke, ['-'], { stdin: 'svc_test_nosuchkey000000000000\n' })).exitCode).toBe(4)
  })

  it('refuses a full key as an argument (exit 2, nothing sent, the key not echoed): masked form or stdin only (issue 16 item 19)', async () => {
    const key = (await runCommand(SandboxKeysCreate, ['--env', 'test'])).stdout.trim()
    for (const tty of [false, true]) {
      const r = await runCommand(SandboxKeysRevoke, [key], { tty })
      expect(r.exitCode).toBe(2)
      expect(r.stderr).toContain('A full API key on the command line is refused')
      expect(`${r.stdout}${r.stderr}`).not.toContain(key)
    }
    expect((await api('GET', '/v1/account', key)).status).toBe(200)
  })
})

describe('svc sandbox account set', () => {
  it('changes the plan that GET /v1/account reports', async () => {
    const r = await runCommand(SandboxAccountSet, ['--fee-bps', '250', '--fee-fixed', '0', '--json'])
    expect(JSON.parse(r.stdout)).toMatchObject({ feeBps: 250, feeFixedInCents: 0 })
    expect((await api('GET', '/v1/account')).body).toMatchObject({ plan: { feeBps: 250 }, feeFixedInCents: 0 })
    const blocked = await runCommand(SandboxAccountSet, ['--blocked', 'true'])
    expect(blocked.stdout).toContain('blocked\ttrue\n')
    await runCommand(SandboxAccountSet, ['--blocked', 'false'])
  })

  it('account show prints the settings account set changed: --json, piped field lines, terminal labels (trial report item 6)', async () => {
    await runCommand(SandboxAccountSet, ['--fee-bps', '310', '--hold-hours', '2'])
    const json = await runCommand(SandboxAccountShow, ['--json'])
    expect(json.exitCode).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ feeBps: 310, settlementDelayHours: 2, blocked: false })
    const piped = await runCommand(SandboxAccountShow, [])
    expect(piped.stdout).toContain('feeBps\t310\n')
    expect(piped.stdout).toContain('settlementDelayHours\t2\n')
    const tty = await runCommand(SandboxAccountShow, [], { tty: true })
    const shown = stripAnsi(tty.stdout)
    expect(shown).toMatch(/^Sandbox account\n/)
    expect(shown).toMatch(/Settlement hold\s+2 h/)
    expect(tty.stdout).not.toContain('updated')
  })

  it('exits 2 when given nothing to change or a bad value', async () => {
    expect((await runCommand(SandboxAccountSet, [])).exitCode).toBe(2)
    expect((await runCommand(SandboxAccountSet, ['--fee-bps', '-3'])).exitCode).toBe(2)
    expect((await runCommand(SandboxAccountSet, ['--activated', 'maybe'])).exitCode).toBe(2)
  })
})

it('exits 3 with a hint when there is no sandbox profile', async () => {
  const r = await runCommand(SandboxClockShow, [], { env: { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-empty-')) } })
  expect(r.exitCode).toBe(3)
  expect(r.stderr).toContain('svc sandbox start')
})
