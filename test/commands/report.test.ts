/**
 * `svc report settlements` and `svc report charges` (CLI.md 0.4) over a real sandbox: the
 * --json shape, sums checked against sums computed another way from every charge, São Paulo
 * days (a settlement at 22:00 local is that day, not UTC's next), terminal and piped views,
 * CSV; bad input exits 2 naming the flag and sends nothing. An unbalanced charge (from a mocked
 * service: the sandbox always balances) is listed and never summed.
 */
import nock from 'nock'
import { describe, expect, it } from 'vitest'
import ReportCharges from '../../src/commands/report/charges.js'
import ReportSettlements from '../../src/commands/report/settlements.js'
import type { Charge } from '../../src/lib/contract/schemas.js'
import { BASE_URL, chargeN, testEnv } from '../helpers/charges.js'
import { SP, useOperatorSandbox } from '../helpers/operator-sandbox.js'
import { runCommand } from '../helpers/run-command.js'

const op = useOperatorSandbox()
const FROM = Date.parse('2026-11-02T03:00:00Z') // 2 Nov 00:00 in São Paulo
const TO = Date.parse('2026-11-04T03:00:00Z') // end of 3 Nov in São Paulo
const sum = (cs: Charge[], f: (c: Charge) => number) => cs.reduce((a, c) => a + f(c), 0)

describe('report settlements', () => {
  it('--json: the CLI.md shape, São Paulo days, sums equal to a filter over every charge', async () => {
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-02', '--to', '2026-11-03', '--tz', SP, '--json'], { env: op.env })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    const report = JSON.parse(r.stdout)
    const all = await op.charges()
    const settled = all.filter((c) => c.settlement.settledAt && Date.parse(c.settlement.settledAt) >= FROM && Date.parse(c.settlement.settledAt) < TO)
    const refunded = all.filter((c) => c.status === 'refunded' && Date.parse(c.updatedAt) >= FROM && Date.parse(c.updatedAt) < TO)
    expect(settled.map((c) => c.id).sort()).toEqual([op.ids.a, op.ids.b, op.ids.c, op.ids.d].sort())
    const totals = (cs: Charge[]) => ({
      count: cs.length,
      grossInCents: sum(cs, (c) => c.amount.grossInCents),
      feeInCents: sum(cs, (c) => c.amount.feeInCents),
      netInCents: sum(cs, (c) => c.amount.netInCents),
    })
    const day3 = settled.filter((c) => c.id !== op.ids.a)
    expect(report).toEqual({
      from: '2026-11-02T00:00:00-03:00',
      to: '2026-11-04T00:00:00-03:00',
      tz: SP,
      by: 'day',
      periods: [
        {
          start: '2026-11-02T00:00:00-03:00',
          end: '2026-11-03T00:00:00-03:00',
          settled: totals(settled.filter((c) => c.id === op.ids.a)),
          refunded: { count: 0, grossInCents: 0 },
        },
        { start: '2026-11-03T00:00:00-03:00', end: '2026-11-04T00:00:00-03:00', settled: totals(day3), refunded: { count: 1, grossInCents: 10_000 } },
      ],
      total: { settled: totals(settled), refunded: { count: refunded.length, grossInCents: sum(refunded, (c) => c.amount.grossInCents) } },
      unbalanced: [],
    })
    expect(report.total.settled.grossInCents).toBe(1500 + 2500 + 10_000 + 123_456)
  })

  it('in UTC the 22:00 São Paulo settlement falls on 4 Nov', async () => {
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-02', '--to', '2026-11-04', '--tz', 'UTC', '--json'], { env: op.env })
    const report = JSON.parse(r.stdout)
    expect(report.periods.map((p: { settled: { count: number } }) => p.settled.count)).toEqual([1, 2, 1])
  })

  it('relative dates on the service clock: --from 7d --to today, by week (Monday first)', async () => {
    const r = await runCommand(ReportSettlements, ['--from', '7d', '--to', 'today', '--by', 'week', '--tz', SP, '--json'], { env: op.env })
    const report = JSON.parse(r.stdout)
    expect(report.periods.map((p: { start: string }) => p.start)).toEqual(['2026-10-29T00:00:00-03:00', '2026-11-02T00:00:00-03:00'])
    expect(report.total.settled.count).toBe(4)
  })

  it('on a terminal: a table in R$ with a total row; piped: raw centavos, tab-separated', async () => {
    const tty = await runCommand(ReportSettlements, ['--from', '2026-11-02', '--to', '2026-11-03', '--tz', SP, '--no-color'], { env: op.env, tty: true })
    const lines = tty.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/PERIOD\s+SETTLED\s+GROSS\s+FEE\s+NET\s+REFUNDED\s+REFUNDED GROSS/)
    expect(lines[1]).toMatch(/^2026-11-02\s+1\s+R\$ 15,00/)
    expect(lines[2]).toMatch(/^2026-11-03\s+3\s+R\$ 1\.359,56/)
    expect(lines[3]).toMatch(/^Total\s+4\s+R\$ 1\.374,56/)
    const piped = await runCommand(ReportSettlements, ['--from', '2026-11-02', '--to', '2026-11-03', '--tz', SP], { env: op.env })
    expect(piped.stdout.split('\n')[1]).toMatch(/^2026-11-03T00:00:00-03:00\t2026-11-04T00:00:00-03:00\t3\t135956\t\d+\t\d+\t1\t10000$/)
    // The help's "and a total row", piped too: the last row, same columns, start `total`.
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(3)
    expect(piped.stdout.trimEnd().split('\n')[2]).toMatch(/^total\t\t4\t137456\t\d+\t\d+\t1\t10000$/)
  })

  it.each([60, 80])('on a %i-column terminal, by week: no row wider than the terminal', async (columns) => {
    const r = await runCommand(ReportSettlements, ['--from', '2026-10-01', '--to', '2026-11-30', '--by', 'week', '--tz', SP, '--no-color'], { env: op.env, tty: true, columns })
    const lines = r.stdout.trimEnd().split('\n')
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(columns)
    expect(r.stdout).toMatch(/^02\/11–08\/11\s+4\s+R\$ 1\.374,56/m)
    expect(r.stdout).toMatch(/^Total\s+4\s/m)
  })

  it("--csv --separator ';': header row and one row per period", async () => {
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-02', '--to', '2026-11-03', '--tz', SP, '--csv', '--separator', ';'], { env: op.env })
    const rows = r.stdout.split('\r\n')
    expect(rows[0]).toBe('start;end;settledCount;grossInCents;feeInCents;netInCents;refundedCount;refundedGrossInCents')
    expect(rows[1]).toMatch(/^2026-11-02T00:00:00-03:00;2026-11-03T00:00:00-03:00;1;1500;/)
    expect(rows).toHaveLength(4)
  })

  it.each([
    [['--from', '2026-02-30', '--to', '2026-03-01'], '--from'],
    [['--from', '2026-11-05', '--to', '2026-11-01'], '--from'],
    [['--from', '2026-11-01', '--to', '2026-11-05', '--tz', 'America/Atlantis'], '--tz'],
    [['--from', '2026-11-01', '--to', '2026-11-05', '--by', 'year'], '--by'],
    [['--from', '2026-11-01', '--to', 'someday'], '--to'],
    [['--from', '2026-11-01', '--to', '2026-11-05', '--lookback', 'ages'], '--lookback'],
    // issue 36.18: a range of 3.6 million days, and a day the service cannot be sent
    [['--from', '0001-01-01', '--to', '9999-12-30', '--by', 'day', '--csv'], 'at most 10,000 periods'],
    [['--from', '0001-01-01', '--to', '9999-12-30', '--by', 'month'], '--to'],
    [['--from', '2026-11-01', '--to', '9999-12-31', '--tz', 'UTC'], '--to'],
    [['--from', '2026-11-01', '--to', '9999-12-31', '--tz', 'UTC'], 'beyond the dates the service takes'],
    // issue 36.19: durations past any date
    [['--from', '999999999d', '--to', 'today'], '--from'],
    [['--from', '2026-11-01', '--to', '2026-11-05', '--lookback', '999999999d'], '--lookback'],
  ])('%j → exit 2 naming %s, nothing sent', async (argv, flag) => {
    const before = op.trapped.length
    const r = await runCommand(ReportSettlements, argv, { env: op.trapEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(flag)
    expect(op.trapped.length).toBe(before)
  })
})

describe('report: echoed input is cut (issue 36.19)', () => {
  it('a 100 000-character --tz is named, not echoed whole', async () => {
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-01', '--to', '2026-11-05', '--tz', 'x'.repeat(100_000)], { env: op.trapEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--tz')
    expect(r.stderr).toContain('100,000 characters')
    expect(r.stderr.length).toBeLessThan(1000)
  })
})

describe('report charges', () => {
  it('--json: created per São Paulo day, count and gross by status, equal to a filter over every charge', async () => {
    const r = await runCommand(ReportCharges, ['--from', '2026-11-01', '--to', '2026-11-30', '--by', 'month', '--tz', SP, '--json'], { env: op.env })
    expect(r.exitCode).toBe(0)
    const report = JSON.parse(r.stdout)
    const all = await op.charges()
    expect(report.periods).toHaveLength(1)
    expect(report.total.count).toBe(all.length)
    expect(report.total.grossInCents).toBe(sum(all, (c) => c.amount.grossInCents))
    const statuses = new Set(all.map((c) => c.status))
    for (const s of statuses) {
      const mine = all.filter((c) => c.status === s)
      expect(report.total.byStatus[s]).toEqual({ count: mine.length, grossInCents: sum(mine, (c) => c.amount.grossInCents) })
    }
    expect(report.periods[0].byStatus).toEqual(report.total.byStatus)
  })

  it('on a terminal: counts per status with a total row; --csv: the documented columns', async () => {
    const tty = await runCommand(ReportCharges, ['--from', '2026-11-02', '--to', '2026-11-04', '--tz', SP, '--no-color'], { env: op.env, tty: true, columns: 140 })
    expect(tty.stdout.split('\n')[0]).toMatch(/PERIOD\s+CHARGES\s+GROSS\s+WAITING\s+PAID\s+SETTLED\s+EXPIRED\s+CANCELED\s+FAILED\s+REFUNDED/)
    expect(tty.stdout).toMatch(/^Total\s+6\s/m)
    const piped = await runCommand(ReportCharges, ['--from', '2026-11-02', '--to', '2026-11-04', '--tz', SP], { env: op.env })
    expect(piped.stdout.trimEnd().split('\n').at(-1)).toMatch(/^total\t\t6\t\d+\t/)
    for (const columns of [60, 80]) {
      const narrow = await runCommand(ReportCharges, ['--from', '2026-10-01', '--to', '2026-11-30', '--by', 'week', '--tz', SP, '--no-color'], { env: op.env, tty: true, columns })
      expect(
        Math.max(
          ...narrow.stdout
            .trimEnd()
            .split('\n')
            .map((l) => [...l].length),
        ),
      ).toBeLessThanOrEqual(columns)
      expect(narrow.stdout).toMatch(/^Total\s+6\s/m)
    }
    const csv = await runCommand(ReportCharges, ['--from', '2026-11-02', '--to', '2026-11-04', '--tz', SP, '--csv'], { env: op.env })
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'start,end,count,grossInCents,awaiting_paymentCount,awaiting_paymentGrossInCents,paid_pending_settlementCount,paid_pending_settlementGrossInCents,settledCount,settledGrossInCents,expiredCount,expiredGrossInCents,canceledCount,canceledGrossInCents,failedCount,failedGrossInCents,refundedCount,refundedGrossInCents',
    )
  })
})

describe('report settlements: a charge that does not balance', () => {
  it('is listed in unbalanced and on stderr, never summed', async () => {
    const settledAt = '2026-11-20T15:00:00Z'
    const good = chargeN(1, { status: 'settled', settlement: { delayHours: 24, settledAt } })
    const bad = chargeN(2, {
      status: 'settled',
      settlement: { delayHours: 24, settledAt },
      amount: { grossInCents: 1500, feeBps: 199, feeFixedInCents: 50, feeInCents: 80, netInCents: 1500 },
    })
    nock(BASE_URL)
      .get('/v1/charges')
      .query((q) => q.status === 'settled')
      .reply(200, { data: [bad, good], hasMore: false })
      .get('/v1/charges')
      .query((q) => q.status === 'refunded')
      .reply(200, { data: [], hasMore: false })
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-20', '--to', '2026-11-20', '--tz', 'UTC', '--json'], { env: testEnv })
    const report = JSON.parse(r.stdout)
    expect(report.unbalanced).toEqual([bad.id])
    expect(report.total.settled).toEqual({ count: 1, grossInCents: good.amount.grossInCents, feeInCents: good.amount.feeInCents, netInCents: good.amount.netInCents })
    expect(r.stderr).toContain(bad.id)
  })
})

describe('one charge, one row: a charge that moves while the report runs (issue 36.1)', () => {
  const settledAt = '2026-11-20T15:00:00Z'
  const asSettled = chargeN(7, { status: 'settled', updatedAt: settledAt, settlement: { delayHours: 24, settledAt } })
  // Refunded while the second scan was read: listed as settled by the first, as refunded by the second.
  const asRefunded = { ...asSettled, status: 'refunded' as const, updatedAt: '2026-11-20T16:00:00Z' }
  const other = chargeN(8, { status: 'settled', updatedAt: settledAt, settlement: { delayHours: 24, settledAt } })
  const stub = () =>
    nock(BASE_URL)
      .get('/v1/charges')
      .query((q) => q.status === 'settled')
      .reply(200, { data: [other, asSettled], hasMore: false })
      .get('/v1/charges')
      .query((q) => q.status === 'refunded')
      .reply(200, { data: [asRefunded], hasMore: false })

  it('report settlements counts it once, as refunded (the state read last)', async () => {
    stub()
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-20', '--to', '2026-11-20', '--tz', 'UTC', '--json'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.total.settled.count).toBe(2)
    expect(report.total.settled.grossInCents).toBe(asSettled.amount.grossInCents + other.amount.grossInCents)
    expect(report.total.refunded).toEqual({ count: 1, grossInCents: asRefunded.amount.grossInCents })
  })

  it('report settlements --csv has the same one-charge sums', async () => {
    stub()
    const r = await runCommand(ReportSettlements, ['--from', '2026-11-20', '--to', '2026-11-20', '--tz', 'UTC', '--csv'], { env: testEnv })
    expect(r.stdout.split('\r\n')[1]).toBe(
      `2026-11-20T00:00:00Z,2026-11-21T00:00:00Z,2,${asSettled.amount.grossInCents + other.amount.grossInCents},${asSettled.amount.feeInCents + other.amount.feeInCents},${asSettled.amount.netInCents + other.amount.netInCents},1,${asRefunded.amount.grossInCents}`,
    )
  })
})
