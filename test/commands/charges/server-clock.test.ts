/**
 * Relative times follow the server's clock: a sandbox advanced by 2 h creates charges 2 h ahead
 * of the local clock, and they must read "3 min ago", not "in 2 h".
 */
import nock from 'nock'
import { beforeEach, describe, expect, it } from 'vitest'
import ChargesGet from '../../../src/commands/charges/get.js'
import ChargesList from '../../../src/commands/charges/list.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { runCommand } from '../../helpers/run-command.js'
import { instantRetries } from '../../helpers/instant-retries.js'
import { overrideCommandFactory } from '../../../src/lib/command-kit/factory.js'
import { BASE_URL, charge, testEnv } from '../../helpers/charges.js'

const sleeps: number[] = []
beforeEach(() => overrideCommandFactory(instantRetries(sleeps)))

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
