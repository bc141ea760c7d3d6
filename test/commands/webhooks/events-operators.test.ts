/**
 * `svc webhooks events` for operators (CLI.md 0.4): --state (the outcome), --since, and every
 * row streamed with --all (past --limit and past one page of the log), --ndjson or --csv.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebhooksEvents from '../../../src/commands/webhooks/events.js'
import { EVENT_LOG_PAGE } from '../../../src/lib/webhooks/event-log-pages.js'
import { EventStore } from '../../../src/lib/webhooks/event-store.js'
import { runCommand } from '../../helpers/run-command.js'

const N = EVENT_LOG_PAGE * 2 + 7
let store: EventStore
const now = Date.now()

beforeAll(async () => {
  store = await EventStore.open()
  for (let i = 0; i < N; i++) {
    const failed = i % 100 === 0
    store.record({
      // The oldest a week ago, the newest a minute ago.
      receivedAt: new Date(now - 60_000 - (N - 1 - i) * 20 * 60_000).toISOString(),
      source: 'service',
      eventId: `evt_${String(i).padStart(5, '0')}`,
      type: i % 2 ? 'charge.paid' : 'withdrawal.paid',
      headers: {},
      body: new TextEncoder().encode('{}'),
      verification: 'verified',
      outcome: failed ? 'failed' : 'forwarded',
      answeredStatus: failed ? 502 : 200,
      forwardStatus: failed ? 500 : 200,
      forwardUrl: 'http://localhost:3000/',
      ...(i === 0 ? { error: '=cmd|" /C calc"!A0' } : {}),
    })
  }
  await store.committed()
})
afterAll(() => store.close())

describe('webhooks events: --state, --since, --all, --csv', () => {
  it('--all streams every row, past --limit and past a page of the log, newest first', async () => {
    const r = await runCommand(WebhooksEvents, ['--all'])
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[1])
    expect(ids).toHaveLength(N)
    expect(ids[0]).toBe(`evt_${String(N - 1).padStart(5, '0')}`)
    expect(new Set(ids).size).toBe(N)
  })

  it('--state failed: only what never reached the app', async () => {
    const r = await runCommand(WebhooksEvents, ['--all', '--state', 'failed', '--ndjson'])
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: string; eventId: string })
    expect(rows.map((x) => x.outcome)).toEqual(rows.map(() => 'failed'))
    expect(rows).toHaveLength(Math.ceil(N / 100))
  })

  it('--since 2h: what was received in the last two hours (20 min apart: 6)', async () => {
    const r = await runCommand(WebhooksEvents, ['--since', '2h', '--all', '--json'])
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(6)
  })

  it('--csv: a header row, and a formula in an error neutralised', async () => {
    const r = await runCommand(WebhooksEvents, ['--all', '--csv', '--state', 'failed', '--type', 'withdrawal.*'])
    const lines = r.stdout.split('\r\n')
    expect(lines[0]).toBe('receivedAt,eventId,type,verification,verifyReason,outcome,answeredStatus,forwardStatus,latencyMs,received,source,target,error')
    expect(lines.at(-2)).toContain(`evt_00000,withdrawal.paid,verified,,failed,502,500,,1,service,http://localhost:3000/,"'=cmd|"" /C calc""!A0"`)
  })

  it('a bad --since exits 2 naming it', async () => {
    const r = await runCommand(WebhooksEvents, ['--since', 'recently'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--since')
    // This command has no --tz: its days are the machine's, and the message says so.
    expect(r.stderr).toContain("in this machine's zone")
    expect(r.stderr).not.toContain('--tz')
  })
})
