/** A bearer key sent over plain http to another machine can be read on the way: say so, once. */
import nock from 'nock'
import { describe, expect, it } from 'vitest'
import Account from '../../src/commands/account.js'
import ChargesCancel from '../../src/commands/charges/cancel.js'
import { plainHttpWarning } from '../../src/lib/command-kit/api.js'
import { account, TEST_KEY } from '../helpers/api-fixtures.js'
import { instantRetries } from '../helpers/instant-retries.js'
import { commandRunner } from '../helpers/run-command.js'
import { chargeN, idOf } from '../helpers/charges.js'

const sleeps: number[] = []
const runCommand = commandRunner(instantRetries(sleeps))

describe('plain-http --base-url', () => {
  it.each([['http://api.example.com'], ['http://10.0.0.5:8787/base'], ['http://[2001:db8::1]:80']])('%s: warns', (url) => {
    expect(plainHttpWarning(url)).toBe(`the API key is sent unencrypted to ${new URL(url).origin}; use https`)
  })

  it.each([['https://api.example.com'], ['http://127.0.0.1:8787'], ['http://127.8.9.10'], ['http://localhost:3000'], ['http://LOCALHOST'], ['http://[::1]:8787']])('%s: no warning', (url) => {
    expect(plainHttpWarning(url)).toBeUndefined()
  })

  it('a command warns once on stderr, whatever the number of requests; stdout stays clean', async () => {
    const base = 'http://api.example.com'
    nock(base)
      .post(`/v1/charges/${idOf(1)}/cancel`)
      .reply(200, chargeN(1, { status: 'canceled' }))
      .post(`/v1/charges/${idOf(2)}/cancel`)
      .reply(200, chargeN(2, { status: 'canceled' }))
    const r = await runCommand(ChargesCancel, [idOf(1), idOf(2), '--base-url', base], { env: { SVC_API_KEY: TEST_KEY } })
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe(`${idOf(1)}\tcanceled\n${idOf(2)}\tcanceled\n`)
    expect(r.stderr).toBe('Warning: the API key is sent unencrypted to http://api.example.com; use https\n')
  })

  it('the sandbox on loopback draws no warning', async () => {
    const base = 'http://127.0.0.1:8787'
    nock(base).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, [], { env: { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: base } })
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toBe('')
  })
})
