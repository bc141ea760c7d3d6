import nock from 'nock'
import { describe, expect, it } from 'vitest'
import ChargesList from '../../../src/commands/charges/list.js'
import { commandRunner } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { ANSI, BASE_URL, chargeN, idOf, testEnv, trackUnmatched } from '../../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const page = (ns: number[], hasMore: boolean) => ({ data: ns.map((n) => chargeN(n)), hasMore })

describe('svc charges list', () => {
  it('piped: TSV rows, no header, columns id status amountInCents externalId createdAt, RFC 3339, no ANSI', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ status: 'awaiting_payment', limit: '2' })
      .reply(200, { data: [chargeN(2, { externalId: 'order-2' }), chargeN(1, { status: 'awaiting_payment' })], hasMore: true })
    const r = await runCommand(ChargesList, ['--status', 'awaiting_payment', '--limit', '2'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`${idOf(2)}\tawaiting_payment\t1500\torder-2\t2026-11-20T14:02:00Z\n${idOf(1)}\tawaiting_payment\t1500\t\t2026-11-20T14:01:00Z\n`)
    expect(r.stdout).not.toMatch(ANSI)
    expect(r.stderr).toBe('more charges exist: add --all to get every page\n')
  })

  it('piped, a page with hasMore: the -q | cancel - pipeline is told on stderr that --all gets every page', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ status: 'awaiting_payment' })
      .reply(200, page([3, 2], true))
    const r = await runCommand(ChargesList, ['-q', '--status', 'awaiting_payment'], { env: testEnv })
    expect(r.stdout).toBe(`${idOf(3)}\n${idOf(2)}\n`)
    expect(r.stderr).toBe('more charges exist: add --all to get every page\n')
  })

  it('piped, no note when the page is the last one, with --all, or with --json (the object carries hasMore)', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .reply(200, page([1], false))
    expect((await runCommand(ChargesList, ['-q'], { env: testEnv })).stderr).toBe('')
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, page([2], true))
      .get('/v1/charges')
      .query(true)
      .reply(200, page([1], false))
    expect((await runCommand(ChargesList, ['-q', '--all'], { env: testEnv })).stderr).toBe('')
    nock(BASE_URL)
      .get('/v1/charges')
      .reply(200, page([2], true))
    expect((await runCommand(ChargesList, ['--json'], { env: testEnv })).stderr).toBe('')
  })

  it('on a terminal: a table with coloured status, R$ amounts and times, the badge on stderr and a next-page hint', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .reply(200, { data: [chargeN(2, { status: 'settled', externalId: 'order-2' }), chargeN(1)], hasMore: true })
    const r = await runCommand(ChargesList, [], { env: testEnv, tty: true, columns: 120 })
    expect(r.exitCode).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toMatch(/ID.*STATUS.*AMOUNT.*EXTERNAL ID.*CREATED.*AGE/)
    expect(lines[1]).toContain(idOf(2))
    expect(lines[1]).toContain('\u001B[32msettled')
    expect(lines[1]).toContain('R$ 15,00')
    expect(lines[1]).toContain('order-2')
    expect(lines[1]).toMatch(/\d{2}\/11\/2026 \d{2}:\d{2}/)
    expect(lines[1]).toMatch(/ago|in /)
    expect(r.stderr).toContain('TEST')
    expect(r.stderr).toContain(`--starting-after ${idOf(1)}`)
  })

  it('sends friendly times as RFC 3339', async () => {
    let query: URLSearchParams | undefined
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply((req: Request) => {
        query = new URL(req.url).searchParams
        return [200, { data: [], hasMore: false }]
      })
    const r = await runCommand(ChargesList, ['--created-after', '2026-11-01', '--created-before', '2026-11-20T12:00:00-03:00'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(query?.get('createdAfter')).toBe(new Date('2026-11-01T00:00:00').toISOString())
    expect(query?.get('createdBefore')).toBe('2026-11-20T15:00:00.000Z')
  })

  it('--json prints the ChargeList object of one page', async () => {
    const body = page([3, 2], true)
    nock(BASE_URL).get('/v1/charges').reply(200, body)
    const r = await runCommand(ChargesList, ['--json'], { env: testEnv })
    expect(JSON.parse(r.stdout)).toEqual(body)
  })

  it('--all -q streams every id across pages (cursor = last id of the previous page)', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ limit: '100' })
      .reply(200, page([9, 8, 7], true))
      .get('/v1/charges')
      .query({ limit: '100', startingAfter: idOf(7) })
      .reply(200, page([6, 5, 4], true))
      .get('/v1/charges')
      .query({ limit: '100', startingAfter: idOf(4) })
      .reply(200, page([3], false))
    const r = await runCommand(ChargesList, ['--all', '-q'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe([9, 8, 7, 6, 5, 4, 3].map((n) => `${idOf(n)}\n`).join(''))
  })

  it('--all --ndjson: one Charge per line, exactly as returned', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query({ status: 'settled', limit: '2' })
      .reply(200, page([4, 3], true))
      .get('/v1/charges')
      .query({ status: 'settled', limit: '2', startingAfter: idOf(3) })
      .reply(200, page([2], false))
    const r = await runCommand(ChargesList, ['--all', '--ndjson', '--status', 'settled', '--limit', '2'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(rows).toEqual([chargeN(4), chargeN(3), chargeN(2)])
  })

  it('--all --json streams a JSON array', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, page([2], true))
      .get('/v1/charges')
      .query(true)
      .reply(200, page([1], false))
    const r = await runCommand(ChargesList, ['--all', '--json'], { env: testEnv })
    expect(JSON.parse(r.stdout)).toEqual([chargeN(2), chargeN(1)])
  })

  it('an API failure in the middle of --all leaves the JSON array unclosed and exits non-zero', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .reply(200, page([2], true))
      .get('/v1/charges')
      .query(true)
      .reply(401, { error: { code: 'invalid_api_key', message: 'Chave inválida', requestId: 'req_2' } })
    const r = await runCommand(ChargesList, ['--all', '--json'], { env: testEnv })
    expect(r.exitCode).toBe(3)
    expect(() => JSON.parse(r.stdout)).toThrow()
  })
})

describe('svc charges list: validation (exit 2, nothing sent)', () => {
  const cases: Array<[string, string[], string]> = [
    ['limit 0', ['--limit', '0'], '--limit (limit): must be between 1 and 100'],
    ['limit 101', ['--limit', '101'], '--limit (limit): must be between 1 and 100'],
    ['limit not a number', ['--limit', 'ten'], '--limit'],
    ['unknown status', ['--status', 'paid'], '--status'],
    ['a time that is not one', ['--created-after', 'last tuesday'], '--created-after (createdAfter)'],
    ['a date that does not exist', ['--created-after', '2026-02-30'], '--created-after (createdAfter): "2026-02-30" is not a date and time that exists'],
    ['after not before before', ['--created-after', '2026-11-02', '--created-before', '2026-11-01'], '--created-after (createdAfter): must be earlier'],
    ['external id too long', ['--external-id', 'x'.repeat(129)], '--external-id (externalId)'],
    ['a cursor that is not an id', ['--starting-after', 'abc'], '--starting-after (startingAfter)'],
    ['--json with -q', ['--json', '-q'], 'quiet'],
    ['--ndjson with --json', ['--ndjson', '--json'], 'json'],
    ['--ndjson with -q', ['--ndjson', '-q'], 'quiet'],
  ]
  it.each(cases)('%s', async (_name, argv, expected) => {
    const tracker = trackUnmatched()
    const r = await runCommand(ChargesList, argv, { env: testEnv })
    expect(tracker.sent()).toEqual([])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(expected)
    expect(r.stdout).toBe('')
  })

  describe('fits the terminal width (issue 16 item 8)', () => {
    const wide = (n: number) => chargeN(n, { status: 'paid_pending_settlement', externalId: 'order-with-a-long-name-1042', amount: { ...chargeN(n).amount, grossInCents: 500_000 } })
    for (const columns of [80, 100, 120, 60, 40]) {
      it(`no line is wider than ${columns} columns`, async () => {
        nock(BASE_URL)
          .get('/v1/charges')
          .reply(200, { data: [wide(1), wide(2)], hasMore: false })
        const r = await runCommand(ChargesList, [], { env: { ...testEnv, NO_COLOR: '1' }, tty: true, columns })
        expect(r.exitCode).toBe(0)
        const lines = r.stdout.split('\n').filter(Boolean)
        expect(lines).toHaveLength(3)
        for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(columns)
        expect(r.stdout).toContain('paid_pending_settlement')
      })
    }

    it('at 60 columns the header fits too, when no charge has an external id (issue 29 item 16)', async () => {
      const bare = (n: number) => ({ ...chargeN(n), externalId: undefined })
      nock(BASE_URL)
        .get('/v1/charges')
        .reply(200, { data: [bare(1), bare(2)], hasMore: false })
      const r = await runCommand(ChargesList, [], { env: { ...testEnv, NO_COLOR: '1' }, tty: true, columns: 60 })
      const lines = r.stdout.split('\n').filter(Boolean)
      for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(60)
      expect(lines[0]).toMatch(/^ID\s+STATUS\s+AMOUNT$/)
      expect(lines[1]).toMatch(/^0000000000…0001\s+\S+\s+R\$/)
    })

    it('at 80 columns the ids are cut in the middle and CREATED goes; at 120 everything is whole', async () => {
      nock(BASE_URL)
        .get('/v1/charges')
        .times(2)
        .reply(200, { data: [wide(1)], hasMore: false })
      const at80 = (await runCommand(ChargesList, [], { env: { ...testEnv, NO_COLOR: '1' }, tty: true, columns: 80 })).stdout
      expect(at80).toMatch(/^ID\s+STATUS\s+AMOUNT\s+EXTERNAL ID\s+AGE$/m)
      expect(at80).toContain('0000000000…0001')
      const at120 = (await runCommand(ChargesList, [], { env: { ...testEnv, NO_COLOR: '1' }, tty: true, columns: 120 })).stdout
      expect(at120).toMatch(/^ID\s+STATUS\s+AMOUNT\s+EXTERNAL ID\s+CREATED\s+AGE$/m)
      expect(at120).toContain(idOf(1))
    })

    it('piped output keeps whole ids whatever the width', async () => {
      nock(BASE_URL)
        .get('/v1/charges')
        .reply(200, { data: [wide(1)], hasMore: false })
      const r = await runCommand(ChargesList, [], { env: testEnv, columns: 40 })
      expect(r.stdout.split('\t')[0]).toBe(idOf(1))
    })
  })
})

describe('charges list --settled-*: a charge listed as settled and as refunded (issue 36.1)', () => {
  it('prints it once, in its refunded state', async () => {
    const settledAt = '2026-11-20T15:00:00Z'
    const asSettled = chargeN(7, { status: 'settled', updatedAt: settledAt, settlement: { delayHours: 24, settledAt } })
    const asRefunded = { ...asSettled, status: 'refunded' as const, updatedAt: '2026-11-20T16:00:00Z' }
    const older = chargeN(3, { status: 'settled', updatedAt: settledAt, settlement: { delayHours: 24, settledAt } })
    nock(BASE_URL)
      .get('/v1/charges')
      .query((q) => q.status === 'settled')
      .reply(200, { data: [asSettled, older], hasMore: false })
      .get('/v1/charges')
      .query((q) => q.status === 'refunded')
      .reply(200, { data: [asRefunded], hasMore: false })
    const r = await runCommand(ChargesList, ['--settled-after', '2026-11-20', '--settled-before', '2026-11-21', '--tz', 'UTC', '--ndjson'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; status: string })
    expect(rows.map((c) => [c.id, c.status])).toEqual([
      [asSettled.id, 'refunded'],
      [older.id, 'settled'],
    ])
  })
})
