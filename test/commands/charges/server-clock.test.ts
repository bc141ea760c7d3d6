/**
 * Relative times follow the server's clock: a sandbox advanced by 2 h creates charges 2 h ahead
 * of the local clock, and they must read "3 min ago", not "in 2 h".
 */
import nock from 'nock'
import { describe, expect, it } from 'vitest'
import ChargesGet from '../../../src/commands/charges/get.js'
import ChargesList from '../../../src/commands/charges/list.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { commandRunner } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { BASE_URL, charge, testEnv } from '../../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

const ID = '65a1f0c2b3d4e5f60718293a'
const MIN = 60_000
const serverNow = () => Date.now() + 120 * MIN
const aheadCharge = () => {
  const created = new Date(serverNow() - 3 * MIN)
  return charge({ status: 'canceled', createdAt: created.toISOString(), updatedAt: created.toISOString(), pix: { qrCode: '000201', expiresAt: new Date(serverNow() + 30 * MIN).toISOString() } })
}

describe('relative times on the server clock', () => {
  it('charges get: created 3 min ago on a server clock 2 h ahead reads "3 min ago"', async () => {
    nock(BASE_URL)
      .get(`/v1/charges/${ID}`)
      .reply(200, aheadCharge(), { date: new Date(serverNow()).toUTCString() })
    const r = await runCommand(ChargesGet, [ID], { env: testEnv, tty: true })
    expect(stripAnsi(r.stdout)).toMatch(/Created .*\(3 min ago\)/)
  })

  it('charges list: the AGE column too', async () => {
    nock(BASE_URL)
      .get('/v1/charges')
      .reply(200, { data: [aheadCharge()], hasMore: false }, { date: new Date(serverNow()).toUTCString() })
    const r = await runCommand(ChargesList, [], { env: testEnv, tty: true, columns: 140 })
    expect(stripAnsi(r.stdout)).toContain('3 min ago')
  })

  it('without a usable Date header, a creation ahead of the local clock is "just now", never "in 2 h"', async () => {
    nock(BASE_URL).get(`/v1/charges/${ID}`).reply(200, aheadCharge())
    nock(BASE_URL)
      .get('/v1/charges')
      .reply(200, { data: [aheadCharge()], hasMore: false })
    const get = stripAnsi((await runCommand(ChargesGet, [ID], { env: testEnv, tty: true })).stdout)
    expect(get).toMatch(/Created .*\(just now\)/)
    const list = stripAnsi((await runCommand(ChargesList, [], { env: testEnv, tty: true, columns: 140 })).stdout)
    expect(list).toContain('just now')
    expect(`${get}${list}`).not.toMatch(/in \d+ h/)
  })

  it('charges list --created-after 2h counts back from the server clock, not the local one (issue 16 item 3)', async () => {
    const date = { date: new Date(serverNow()).toUTCString() }
    const queries: string[] = []
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .times(2)
      .reply((req: Request) => {
        queries.push(req.url)
        return [200, { data: [], hasMore: false }, date]
      })
    const r = await runCommand(ChargesList, ['--created-after', '2h', '--json'], { env: testEnv })
    expect(r.exitCode).toBe(0)
    const after = new URL(queries.at(-1)!, BASE_URL).searchParams.get('createdAfter')!
    const expected = serverNow() - 120 * MIN
    expect(Math.abs(Date.parse(after) - expected)).toBeLessThan(5000)
  })

  it('an absolute --created-after sends one request, unchanged', async () => {
    nock(BASE_URL).get('/v1/charges').query({ createdAfter: '2026-11-20T13:00:00.000Z' }).reply(200, { data: [], hasMore: false })
    const r = await runCommand(ChargesList, ['--created-after', '2026-11-20T10:00:00-03:00', '-q'], { env: testEnv })
    expect(r.exitCode).toBe(0)
  })
})

describe('one clock decides the dates and their order (issue 36.2)', () => {
  // A sandbox clock advanced 3 days: its today is 3 days after this machine's.
  const ahead = () => Date.now() + 3 * 86_400_000
  const inTwoDays = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)
  // How many requests: one to read the service's Date header, then the scans.
  const service = (times: number) => {
    const queries: URLSearchParams[] = []
    nock(BASE_URL)
      .get('/v1/charges')
      .query(true)
      .times(times)
      .reply((req: Request) => {
        queries.push(new URL(req.url, BASE_URL).searchParams)
        return [200, { data: [], hasMore: false }, { date: new Date(ahead()).toUTCString() }]
      })
    return queries
  }

  it.each([
    ['report settlements', 3, async () => (await import('../../../src/commands/report/settlements.js')).default],
    ['report charges', 2, async () => (await import('../../../src/commands/report/charges.js')).default],
  ])("%s --from (in 2 days) --to today: in order on the service's clock", async (_, times, command) => {
    const queries = service(times)
    const r = await runCommand(await command(), ['--from', inTwoDays(), '--to', 'today', '--tz', 'UTC', '--json'], { env: testEnv })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).periods).toHaveLength(2)
    expect(queries.length).toBeGreaterThan(1)
  })

  it('charges list --settled-after (in 2 days) --settled-before today', async () => {
    service(3)
    const r = await runCommand(ChargesList, ['--settled-after', inTwoDays(), '--settled-before', 'today', '--tz', 'UTC', '-q'], { env: testEnv })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
  })

  it('charges list --created-after (in 2 days) --created-before now', async () => {
    const queries = service(2)
    const r = await runCommand(ChargesList, ['--created-after', `${inTwoDays()}T00:00:00Z`, '--created-before', 'now', '-q'], { env: testEnv })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(Date.parse(queries.at(-1)!.get('createdBefore')!)).toBeGreaterThan(Date.now() + 2 * 86_400_000)
  })

  it("still refuses an order that is wrong on the service's clock too (exit 2, --from)", async () => {
    service(1)
    const later = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
    const { default: ReportSettlements } = await import('../../../src/commands/report/settlements.js')
    const r = await runCommand(ReportSettlements, ['--from', later, '--to', 'today', '--tz', 'UTC', '--json'], { env: testEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--from')
  })
})
