/**
 * `svc sandbox deliveries` for operators (CLI.md 0.4): --state, --type PATTERN, --since (on the
 * sandbox clock), a time column (CREATED on a terminal, createdAt last when piped), and every row
 * streamed with --all, --ndjson or --csv (the panel route pages with hasMore and a cursor).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import SandboxDeliveries from '../../../src/commands/sandbox/deliveries/index.js'
import { ProfileStore } from '../../../src/lib/config/store.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { startTarget, type Target } from '../../helpers/delivery-target.js'
import { runCommand } from '../../helpers/run-command.js'

const START = Date.parse('2026-11-22T12:00:00.000Z')
let sb: RunningSandbox
let clock: SandboxClock
let target: Target
const auth = () => ({ authorization: `Bearer ${sb.testKey}`, 'content-type': 'application/json' })
const post = (path: string, body: unknown = {}) => fetch(`${sb.baseUrl}${path}`, { method: 'POST', headers: auth(), body: JSON.stringify(body) })
const rows = (s: string) =>
  s
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))

beforeAll(async () => {
  clock = new SandboxClock({ manual: true, start: START })
  sb = await startSandboxServer({ port: 0, inMemory: true, clock })
  target = await startTarget()
  const store = await ProfileStore.open()
  store.save('sandbox', { apiKey: sb.testKey, baseUrl: sb.baseUrl, webhookSecret: sb.webhookSecret })
  await fetch(`${sb.baseUrl}/_sandbox/webhook`, { method: 'PUT', headers: auth(), body: JSON.stringify({ url: target.url }) })
  // Two test events the app takes, then a charge whose events it refuses (503: pending, retrying).
  target.answers = [{ status: 200 }, { status: 200 }, { status: 503 }]
  await post('/v1/webhooks/test')
  await target.arrived(1)
  await post('/v1/webhooks/test')
  await target.arrived(2)
  await post('/v1/charges', { amountInCents: 1500, payerTaxNumber: '52998224725' })
  await target.arrived(3)
  // Two hours later (the charge expired meanwhile), one more test event, refused too.
  await clock.advance(2 * 3_600_000)
  await post('/v1/webhooks/test')
  await target.arrived(5)
})

afterAll(async () => {
  await sb.close()
  await target.close()
})

describe('sandbox deliveries: filters, time column, streaming', () => {
  it('--state pending: only what the app refused; piped rows end with createdAt', async () => {
    const r = await runCommand(SandboxDeliveries, ['--state', 'pending'])
    expect(r.exitCode).toBe(0)
    const lines = rows(r.stdout)
    expect(lines.map((l) => l[6])).toEqual(['pending', 'pending', 'pending'])
    expect(lines.map((l) => l[1])).toEqual(['charge.test', 'charge.expired', 'charge.awaiting_payment'])
    expect(lines[2]![8]).toBe('2026-11-22T12:00:00.000Z')
    expect(lines[0]![8]).toBe('2026-11-22T14:00:00.000Z')
  })

  it('--type: an exact type, or a prefix with *', async () => {
    expect(rows((await runCommand(SandboxDeliveries, ['--type', 'charge.expired'])).stdout).map((l) => l[1])).toEqual(['charge.expired'])
    expect(rows((await runCommand(SandboxDeliveries, ['--type', 'charge.*', '--state', 'succeeded'])).stdout)).toHaveLength(2)
    expect((await runCommand(SandboxDeliveries, ['--type', 'withdrawal.*'])).stdout).toBe('')
  })

  it('--since counts back from the sandbox clock: 1h keeps the expiry of 13:00 and the test event of 14:00', async () => {
    const r = await runCommand(SandboxDeliveries, ['--since', '1h', '--json'])
    const { data } = JSON.parse(r.stdout) as { data: Array<{ createdAt: string; type: string }> }
    // The advance walked through 13:00, when the QR expired: its delivery is dated then, not at the advance's end.
    expect(data.map((d) => [d.type, d.createdAt])).toEqual([
      ['charge.test', '2026-11-22T14:00:00.000Z'],
      ['charge.expired', '2026-11-22T13:00:00.000Z'],
    ])
    expect(rows((await runCommand(SandboxDeliveries, ['--since', '30m'])).stdout).map((l) => l[1])).toEqual(['charge.test'])
  })

  it('on a terminal: a CREATED column in local time', async () => {
    const r = await runCommand(SandboxDeliveries, ['--no-color'], { tty: true, columns: 160 })
    expect(r.stdout.split('\n')[0]).toMatch(/EVENT ID.*STATE\s+CREATED/)
    expect(r.stdout).toMatch(/\d{2}\/11 \d{2}:\d{2}/)
  })

  it('--all --csv: a header row and every delivery; --ndjson one per line', async () => {
    const csv = await runCommand(SandboxDeliveries, ['--all', '--csv'])
    const lines = csv.stdout.split('\r\n')
    expect(lines[0]).toBe('eventId,type,environment,createdAt,url,state,attempts,lastStatus,lastError,nextRetryAt,firstAttemptAt,injected')
    expect(lines).toHaveLength(5 + 2)
    const nd = await runCommand(SandboxDeliveries, ['--all', '--ndjson', '--state', 'succeeded'])
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { state: string }).state),
    ).toEqual(['succeeded', 'succeeded'])
  })

  it('the panel route pages with hasMore and startingAfter (what --all follows)', async () => {
    const page = async (q: string) => (await (await fetch(`${sb.baseUrl}/_sandbox/deliveries?${q}`, { headers: auth() })).json()) as { data: Array<{ eventId: string }>; hasMore: boolean }
    const seen: string[] = []
    let q = 'limit=1'
    for (;;) {
      const p = await page(q)
      seen.push(...p.data.map((d) => d.eventId))
      if (!p.hasMore) break
      q = `limit=1&startingAfter=${p.data.at(-1)!.eventId}`
    }
    const all = await page('limit=10')
    expect(seen).toEqual(all.data.map((d) => d.eventId))
    expect(seen).toHaveLength(5)
  })

  it('a bad --since or --state exits 2 naming the flag', async () => {
    const r = await runCommand(SandboxDeliveries, ['--since', 'the other day'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--since')
    const s = await runCommand(SandboxDeliveries, ['--state', 'lost'])
    expect(s.exitCode).toBe(2)
    expect(s.stderr).toContain('--state')
  })
})
