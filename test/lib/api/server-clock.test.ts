import nock from 'nock'
import { describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import { account, BASE_URL, TEST_KEY } from '../../helpers/api-fixtures.js'

const HOUR = 3_600_000
const client = createClient({ apiKey: TEST_KEY, baseUrl: BASE_URL })

const answerWithDate = (date: Date | string | undefined) =>
  nock(BASE_URL)
    .get('/v1/account')
    .reply(200, account(), date === undefined ? {} : { date: typeof date === 'string' ? date : date.toUTCString() })

describe('client.serverNow: the server clock, from its Date header', () => {
  it('is the local clock until an answer came', () => {
    expect(Math.abs(createClient({ apiKey: TEST_KEY, baseUrl: BASE_URL }).serverNow().getTime() - Date.now())).toBeLessThan(1000)
  })

  it('follows a server clock 2 h ahead (a sandbox after `clock advance 2h`), and one behind', async () => {
    answerWithDate(new Date(Date.now() + 2 * HOUR))
    await client.getAccount()
    expect(client.serverNow().getTime() - Date.now()).toBeGreaterThan(2 * HOUR - 3000)
    expect(client.serverNow().getTime() - Date.now()).toBeLessThan(2 * HOUR + 1000)
    answerWithDate(new Date(Date.now() - HOUR))
    await client.getAccount()
    expect(client.serverNow().getTime() - Date.now()).toBeLessThan(-HOUR + 1000)
  })

  it('ignores a difference of 5 s or less (the header has a one-second resolution), and a missing or bad header', async () => {
    answerWithDate(new Date(Date.now() + 2 * HOUR))
    await client.getAccount()
    answerWithDate(new Date(Date.now() + 3000))
    await client.getAccount()
    expect(Math.abs(client.serverNow().getTime() - Date.now())).toBeLessThan(1000)
    answerWithDate('not a date')
    await client.getAccount()
    answerWithDate(undefined)
    await client.getAccount()
    expect(Math.abs(client.serverNow().getTime() - Date.now())).toBeLessThan(1000)
  })
})
