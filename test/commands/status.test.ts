/**
 * `svc status` (CLI.md 0.4) over a real sandbox and this machine's listener event log: overdue
 * settlements (held in the sandbox), refunds since, failed forwards and split/withdrawal
 * failures from the log; a deactivated endpoint (mocked service) with how to reactivate it;
 * --exit-status exits 9 when anything is listed; --json `{ items: [{ kind, count, … }] }`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import nock from 'nock'
import { beforeAll, describe, expect, it } from 'vitest'
import Status from '../../src/commands/status.js'
import { EXIT } from '../../src/lib/errors.js'
import { EventStore } from '../../src/lib/webhooks/event-store.js'
import { account, BASE_URL } from '../helpers/api-fixtures.js'
import { testEnv } from '../helpers/charges.js'
import { START, useOperatorSandbox } from '../helpers/operator-sandbox.js'
import type { DeliveryRecord } from '../../src/lib/contract/panel.js'
import { RecordingDeliveries } from '../../src/lib/sandbox/deliveries/null-sink.js'
import { SandboxClock } from '../../src/lib/sandbox/engine/clock.js'
import { startSandboxServer } from '../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../src/lib/sandbox/types.js'
import { runCommand } from '../helpers/run-command.js'

const op = useOperatorSandbox()

beforeAll(async () => {
  const store = await EventStore.open({ env: process.env })
  const now = Date.now()
  const rec = (eventId: string, type: string, outcome: 'forwarded' | 'failed', ageMs: number, chargeId?: string) =>
    store.record({
      receivedAt: new Date(now - ageMs).toISOString(),
      source: 'service',
      eventId,
      type,
      chargeId,
      headers: {},
      body: new TextEncoder().encode('{}'),
      verification: 'verified',
      outcome,
      answeredStatus: outcome === 'failed' ? 502 : 200,
      forwardUrl: 'http://localhost:3000/',
      forwardStatus: outcome === 'failed' ? 500 : 200,
      ...(outcome === 'failed' ? { error: 'app answered 500' } : {}),
    })
  rec('evt_failed_twice', 'charge.paid', 'failed', 60_000)
  rec('evt_failed_twice', 'charge.paid', 'failed', 30_000)
  rec('evt_recovered', 'charge.settled', 'failed', 60_000)
  rec('evt_recovered', 'charge.settled', 'forwarded', 30_000)
  rec('evt_old', 'charge.paid', 'failed', 3 * 86_400_000)
  rec('evt_split', 'charge.split.failed', 'forwarded', 10_000, 'abcabcabcabcabcabcabcabc')
  rec('evt_wd', 'withdrawal.failed', 'forwarded', 10_000)
  await store.committed()
  store.close()
})

describe('svc status', () => {
  it('--json: overdue settlements, refunds since, failed forwards and failure events, each with kind and count', async () => {
    const r = await runCommand(Status, ['--since', '48h', '--json'], { env: op.env })
    expect(r.exitCode).toBe(0)
    const { items } = JSON.parse(r.stdout) as { items: Array<Record<string, unknown> & { kind: string; count: number }> }
    expect(items.map((i) => [i.kind, i.count])).toEqual([
      ['overdue_settlements', 1],
      ['refunds', 1],
      ['failed_forwards', 1],
      ['split_failed', 1],
      ['withdrawal_failed', 1],
    ])
    expect(items[0]).toMatchObject({ oldest: { id: op.ids.e, externalId: 'order-e' }, grossInCents: 5000 })
    // 2 h by the service's clock (its Date header is read to the second; the local clock adds what passed since).
    expect(Math.round((items[0]!.oldest as { lateMs: number }).lateMs / 60_000)).toBe(120)
    expect(items[1]).toMatchObject({ charges: [{ id: op.ids.c, externalId: 'order-c', grossInCents: 10_000 }] })
    expect(items[2]).toMatchObject({ events: [{ eventId: 'evt_failed_twice', deliveries: 2, forwardStatus: 500, error: 'app answered 500' }] })
  })

  it('--since bounds refunds and the event log: 24h leaves out the refund of 39 h ago', async () => {
    const r = await runCommand(Status, ['--json'], { env: op.env })
    const { items } = JSON.parse(r.stdout) as { items: Array<{ kind: string }> }
    expect(items.map((i) => i.kind)).not.toContain('refunds')
  })

  it('--exit-status: exit 9 when anything is listed, after printing it', async () => {
    const r = await runCommand(Status, ['--exit-status'], { env: op.env })
    expect(r.exitCode).toBe(EXIT.needsAttention)
    expect(r.exitCode).toBe(9)
    expect(r.stdout.split('\n')[0]).toMatch(/^overdue_settlements\t1\t/)
  })

  it('on a terminal: one block per item with what to do', async () => {
    const r = await runCommand(Status, ['--no-color'], { env: op.env, tty: true })
    expect(r.stdout).toContain(`1 settlement(s) overdue (R$ 50,00); oldest ${op.ids.e} (order-e), 2 h late`)
    expect(r.stdout).toContain('→ your app did not take these: fix it, then svc webhooks replay EVENT_ID')
  })

  it('a deactivated endpoint is listed with how to reactivate it (save the URL again); bad --since exits 2', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .times(2)
      .reply(200, { data: [], hasMore: false })
      .get('/v1/account')
      .reply(200, { ...account(), webhook: { url: 'https://shop.example/hooks', active: false } })
    const r = await runCommand(Status, ['--since', '1h', '--json', '--exit-status'], { env: testEnv })
    expect(r.exitCode).toBe(9)
    const { items } = JSON.parse(r.stdout) as { items: Array<Record<string, unknown>> }
    // The event log of this machine is read whatever the service: its items follow.
    expect(items.map((i) => i.kind)).toEqual(['webhook_inactive', 'failed_forwards', 'split_failed', 'withdrawal_failed'])
    expect(items.slice(0, 1)).toEqual([
      {
        kind: 'webhook_inactive',
        count: 1,
        environment: 'test',
        url: 'https://shop.example/hooks',
        hint: "save the URL again in the service's panel (Webhooks) to reactivate it; events sent meanwhile were not retried",
      },
    ])
    const bad = await runCommand(Status, ['--since', 'a while'], { env: testEnv })
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('--since')
  })
})

describe('svc status: a source it cannot read (issue 36.20)', () => {
  it('an event log that is no database: the API findings still print, the log is named, exit 10', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-status-'))
    writeFileSync(join(dir, 'events.db'), 'this is not a database, it is a shopping list\n'.repeat(100))
    const r = await runCommand(Status, ['--since', '48h', '--json', '--exit-status'], { env: { ...op.env, SVC_CONFIG_DIR: dir } })
    expect(r.exitCode).toBe(EXIT.couldNotTell)
    expect(r.exitCode).toBe(10)
    const report = JSON.parse(r.stdout) as { items: Array<{ kind: string }>; unreadable: Array<{ source: string; path: string; reason: string }> }
    expect(report.items.map((i) => i.kind)).toEqual(['overdue_settlements', 'refunds'])
    expect(report.unreadable).toEqual([{ source: 'event_log', path: join(dir, 'events.db'), reason: expect.stringMatching(/not a database/) }])
    expect(r.stderr).toContain(join(dir, 'events.db'))
    expect(r.stderr).not.toMatch(/bug in svc/)
  })

  it('without --exit-status too: an incomplete answer is never exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-status-'))
    writeFileSync(join(dir, 'events.db'), 'x'.repeat(4096))
    const r = await runCommand(Status, [], { env: { ...op.env, SVC_CONFIG_DIR: dir } })
    expect(r.exitCode).toBe(10)
    expect(r.stdout).toMatch(/^overdue_settlements\t1\t/)
  })

  it('a --since past any date exits 2 naming it', async () => {
    const r = await runCommand(Status, ['--since', '999999999d'], { env: op.trapEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--since')
  })
})

describe('svc status: piped rows and times (issue 36.21)', () => {
  it('piped: centavos and RFC 3339 instants in their own fields, no R$', async () => {
    const r = await runCommand(Status, ['--since', '48h'], { env: op.env })
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    expect(r.stdout).not.toContain('R$')
    const overdue = rows.find((f) => f[0] === 'overdue_settlements')!
    expect(overdue.slice(0, 4)).toEqual(['overdue_settlements', '1', '5000', op.ids.e])
    expect(overdue[4]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    expect(Math.round(Number(overdue[5]) / 60_000)).toBe(120)
    const refunds = rows.find((f) => f[0] === 'refunds')!
    expect([refunds[1], refunds[2], refunds[4]]).toEqual(['1', '10000', op.ids.c])
    expect(refunds[3]).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/)
    expect(rows.find((f) => f[0] === 'failed_forwards')).toEqual(['failed_forwards', '1', 'evt_failed_twice'])
  })

  it('on a terminal: "refunds since" in local time, not a raw UTC instant', async () => {
    const r = await runCommand(Status, ['--since', '48h', '--no-color'], { env: op.env, tty: true })
    expect(r.stdout).toMatch(/1 refund\(s\) since \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} \(UTC/)
    expect(r.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/)
  })
})

describe("svc status on a local sandbox: its delivery log's failures (issue 36.21)", () => {
  const failed: DeliveryRecord = {
    eventId: 'evt_sandbox_gave_up',
    type: 'charge.paid',
    environment: 'test',
    url: 'http://127.0.0.1:9/hooks',
    attempts: 10,
    lastError: 'ECONNREFUSED',
    state: 'failed',
    createdAt: new Date(START).toISOString(),
    body: '{}',
  }
  class GaveUp extends RecordingDeliveries {
    seen: Array<Record<string, unknown>> = []
    override list(filter: Record<string, unknown> = {}): DeliveryRecord[] {
      this.seen.push(filter)
      return filter.state === 'failed' ? [failed] : []
    }
  }
  let sb: RunningSandbox
  const worker = new GaveUp()
  beforeAll(async () => {
    sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true, start: START }), deliveries: () => worker })
    return () => sb.close()
  })

  it('lists the deliveries the sandbox gave up on, since --since on its clock', async () => {
    const env = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }
    const r = await runCommand(Status, ['--json'], { env })
    const { items } = JSON.parse(r.stdout) as { items: Array<Record<string, unknown>> }
    expect(items[0]).toMatchObject({ kind: 'failed_deliveries', count: 1, source: 'sandbox', deliveries: [{ eventId: 'evt_sandbox_gave_up', attempts: 10, lastError: 'ECONNREFUSED' }] })
    expect(worker.seen.at(-1)).toMatchObject({ state: 'failed', sinceMs: START - 86_400_000 })
    const piped = await runCommand(Status, [], { env })
    expect(piped.stdout.split('\n')[0]).toBe('failed_deliveries\t1\tevt_sandbox_gave_up')
  })
})
