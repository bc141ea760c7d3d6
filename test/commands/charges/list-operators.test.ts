/**
 * `svc charges list` for operators (CLI.md 0.4) over a real sandbox: --settled-after/--before by
 * settledAt in the operator's zone (refunded charges included), --overdue by the service's clock
 * (settlements held in the sandbox), --csv with the documented columns and the formula guard;
 * bad dates and zones exit 2 naming the flag and send nothing.
 */
import { describe, expect, it } from 'vitest'
import ChargesList from '../../../src/commands/charges/list.js'
import SandboxAccountSet from '../../../src/commands/sandbox/account/set.js'
import { runCommand } from '../../helpers/run-command.js'
import { SP, useOperatorSandbox } from '../../helpers/operator-sandbox.js'

const op = useOperatorSandbox()
const lines = (s: string) => s.trim().split('\n')

describe('charges list --settled-after/--settled-before', () => {
  it('a São Paulo day: settled, refunded-after-settling, and one settled at 22:00 local (next day in UTC), newest first', async () => {
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-03', '--settled-before', '2026-11-04', '--tz', SP, '-q'], { env: op.env })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(lines(r.stdout)).toEqual([op.ids.d, op.ids.c, op.ids.b])
  })

  it('piped: the usual five columns, then settledAt (issue 36.21)', async () => {
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-03', '--settled-before', '2026-11-04', '--tz', SP], { env: op.env })
    const all = await op.charges()
    const rows = lines(r.stdout).map((l) => l.split('\t'))
    expect(rows.map((f) => [f[0], f[5]])).toEqual([op.ids.d, op.ids.c, op.ids.b].map((id) => [id, all.find((c) => c.id === id)!.settlement.settledAt]))
    expect(rows.every((f) => f.length === 6)).toBe(true)
  })

  it('the same day in UTC leaves out the charge settled at 01:00 UTC the next day', async () => {
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-03', '--settled-before', '2026-11-04', '--tz', 'UTC', '-q'], { env: op.env })
    expect(lines(r.stdout)).toEqual([op.ids.c, op.ids.b])
  })

  it('agrees with a filter over every charge computed another way (settledAt in range)', async () => {
    const from = Date.parse('2026-11-02T03:00:00Z')
    const to = Date.parse('2026-11-04T03:00:00Z')
    const expected = (await op.charges()).filter((c) => c.settlement.settledAt && Date.parse(c.settlement.settledAt) >= from && Date.parse(c.settlement.settledAt) < to).map((c) => c.id)
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-02', '--settled-before', '2026-11-04', '--tz', SP, '--ndjson', '--limit', '1'], { env: op.env })
    expect(lines(r.stdout).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(expected)
  })

  it('relative dates count back from the service clock (5 Nov 03:00Z): 48h reaches back to 3 Nov 03:00Z', async () => {
    const r = await runCommand(ChargesList, ['--settled-after', '48h', '-q'], { env: op.env })
    expect(lines(r.stdout)).toEqual([op.ids.d, op.ids.c, op.ids.b])
  })

  it('--lookback bounds the scan by creation: charges created before settled-after − lookback are not read', async () => {
    // b and c were created and settled at 3 Nov 12:00Z: a lookback of 1h from 3 Nov 11:30Z still reaches them.
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-03T11:30:00Z', '--lookback', '1h', '-q'], { env: op.env })
    expect(lines(r.stdout)).toEqual([op.ids.d, op.ids.c, op.ids.b])
  })

  it.each([
    [['--settled-after', '2026-02-30'], '--settled-after'],
    [['--settled-after', 'last tuesday'], '--settled-after'],
    [['--settled-after', '2026-11-04', '--settled-before', '2026-11-03'], '--settled-after'],
    [['--settled-after', '2026-11-03', '--tz', 'Mars/Olympus'], '--tz'],
    [['--settled-after', '2026-11-03', '--lookback', 'forever'], '--lookback'],
    [['--overdue', '--grace', 'soon'], '--grace'],
    [['--overdue', '--tz', 'Mars/Olympus'], '--tz'],
    [['--csv', '--separator', '""'], '--separator'],
    [['--settled-after', '2026-11-03', '--created-after', '2026-11-01'], '--settled-after'],
    [['--settled-after', '2026-11-03', '--limit', 'many'], '--limit'],
    // issue 36.19: durations past any date, as ages and as a lookback
    [['--settled-after', '999999999d'], '--settled-after'],
    [['--settled-after', '2026-11-03', '--lookback', '999999999d'], '--lookback'],
    [['--created-after', '999999999d'], '--created-after'],
    [['--created-after', '999999999d'], 'beyond the dates the service takes'],
    [['--settled-before', '9999-12-31T23:00:00-03:00'], '--settled-before'],
  ])('%j → exit 2 naming %s, nothing sent', async (argv, flag) => {
    const before = op.trapped.length
    const r = await runCommand(ChargesList, argv, { env: op.trapEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(flag)
    expect(op.trapped.length).toBe(before)
  })
})

describe('charges list --settled-after/--settled-before on a terminal (newcomer trial)', () => {
  it.each([80, 120])('at %i columns: a SETTLED column, in --tz; no row wider than the terminal', async (columns) => {
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-03', '--settled-before', '2026-11-04', '--tz', SP, '--no-color'], { env: op.env, tty: true, columns })
    expect(r.exitCode).toBe(0)
    expect(lines(r.stdout)[0]).toMatch(/\sSETTLED$/)
    // d settled 4 Nov 01:00Z: 22:00 on 3 Nov in São Paulo.
    expect(lines(r.stdout)[1]).toMatch(/03\/11\/2026 22:00$/)
    expect(Math.max(...lines(r.stdout).map((l) => [...l].length))).toBeLessThanOrEqual(columns)
  })

  it('wide: CREATED in --tz too', async () => {
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-03', '--settled-before', '2026-11-04', '--tz', SP, '--no-color'], { env: op.env, tty: true, columns: 140 })
    expect(lines(r.stdout)[0]).toMatch(/CREATED\s+SETTLED$/)
    expect(lines(r.stdout)[1]).toMatch(/03\/11\/2026 22:00\s+03\/11\/2026 22:00$/)
  })
})

describe('charges list --created-after/--created-before --tz', () => {
  it('days in --tz: 3 Nov in São Paulo holds the charges created at 22:00 local, 3 Nov in UTC does not', async () => {
    const sp = await runCommand(ChargesList, ['--created-after', '2026-11-03', '--created-before', '2026-11-04', '--tz', SP, '-q'], { env: op.env })
    // d, e and f were created at 4 Nov 01:00 UTC: 3 Nov, 22:00 in São Paulo.
    expect(lines(sp.stdout)).toEqual([op.ids.f, op.ids.e, op.ids.d, op.ids.c, op.ids.b])
    const utc = await runCommand(ChargesList, ['--created-after', '2026-11-03', '--created-before', '2026-11-04', '--tz', 'UTC', '-q'], { env: op.env })
    expect(lines(utc.stdout)).toEqual([op.ids.c, op.ids.b])
  })
})

describe('charges list --overdue', () => {
  it('piped: the paid charge whose estimate passed 2 h ago (grace 1h), nothing else', async () => {
    const r = await runCommand(ChargesList, ['--overdue', '-q'], { env: op.env })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`${op.ids.e}\n`)
    expect((await runCommand(ChargesList, ['--overdue', '--grace', '3h', '-q'], { env: op.env })).stdout).toBe('')
  })

  it('piped rows: the five generic columns, then estimatedAt and lateMs (newcomer trial)', async () => {
    const r = await runCommand(ChargesList, ['--overdue'], { env: op.env })
    expect(r.exitCode).toBe(0)
    const fields = r.stdout.trimEnd().split('\t')
    const [charge] = (await op.charges()).filter((c) => c.id === op.ids.e)
    expect(fields.slice(0, 6)).toEqual([op.ids.e, 'paid_pending_settlement', '5000', 'order-e', charge!.createdAt, charge!.settlement.estimatedAt])
    // Late by the service's clock (stopped 2 h past the estimate): its Date header plus the few
    // milliseconds this machine took between reading it and judging the charge.
    const lateMs = Number(fields[6])
    expect(lateMs).toBeGreaterThanOrEqual(2 * 3_600_000)
    expect(lateMs).toBeLessThan(2 * 3_600_000 + 1000)
    expect(fields).toHaveLength(7)
  })

  it('on a terminal: a table with how late each is', async () => {
    const r = await runCommand(ChargesList, ['--overdue', '--no-color'], { env: op.env, tty: true, columns: 120 })
    expect(lines(r.stdout)[0]).toMatch(/ID\s+AMOUNT\s+EXTERNAL ID\s+ESTIMATED\s+LATE/)
    expect(r.stdout).toContain(op.ids.e)
    expect(r.stdout).toContain('R$ 50,00')
    expect(r.stdout).toMatch(/2 h\s*$/m)
  })
})

describe('charges list --csv', () => {
  it('RFC 4180: the documented header, CRLF, integer centavos, metadata as JSON, a formula neutralised and quoted', async () => {
    const r = await runCommand(ChargesList, ['--all', '--csv'], { env: op.env })
    expect(r.exitCode).toBe(0)
    const rows = r.stdout.split('\r\n')
    expect(rows[0]).toBe('id,externalId,status,environment,createdAt,paidAt,estimatedAt,settledAt,grossInCents,feeInCents,netInCents,feeBps,feeFixedInCents,blockchainTxId,payerName,description,metadata')
    expect(rows).toHaveLength(6 + 2)
    const d = rows.find((l) => l.startsWith(op.ids.d))!
    expect(d).toMatch(/,order-d,settled,test,2026-11-04T01:00:00(\.000)?Z,/)
    expect(d).toContain(',123456,2507,120949,199,50,')
    expect(d.endsWith(',"{""sku"":""x-1""}"')).toBe(true)
    const a = rows.find((l) => l.startsWith(op.ids.a))!
    expect(a).toContain(`,"'=HYPERLINK(""http://x"",""click"")",`)
  })

  it("--separator ';' for spreadsheets set to Portuguese", async () => {
    const r = await runCommand(ChargesList, ['--all', '--csv', '--separator', ';', '--status', 'expired'], { env: op.env })
    expect(r.stdout.split('\r\n')[0]).toMatch(/^id;externalId;status;/)
    expect(r.stdout.split('\r\n')[1]).toMatch(new RegExp(`^${op.ids.f};order-f;expired;test;`))
  })
})

describe('sandbox account set --hold-settlements', () => {
  it('keeps a paid charge waiting past its estimate; test advance --status settled still settles it', async () => {
    const set = await runCommand(SandboxAccountSet, ['--hold-settlements', '--json'])
    expect(JSON.parse(set.stdout)).toMatchObject({ holdSettlements: true })
    const { charge } = await op.client.createCharge({ amountInCents: 3000, payerTaxNumber: '52998224725' })
    await op.client.advanceCharge(charge.id, 'paid_pending_settlement')
    await op.clock.advance(25 * 3_600_000)
    expect((await op.client.getCharge(charge.id)).status).toBe('paid_pending_settlement')
    expect((await op.client.advanceCharge(charge.id, 'settled')).status).toBe('settled')
  })

  it('--no-hold-settlements settles the held charge at once', async () => {
    const r = await runCommand(SandboxAccountSet, ['--no-hold-settlements'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('holdSettlements\tfalse')
    await new Promise((resolve) => setImmediate(resolve))
    expect((await op.client.getCharge(op.ids.e)).status).toBe('settled')
    expect((await runCommand(ChargesList, ['--overdue', '-q'], { env: op.env })).stdout).toBe('')
  })
})
