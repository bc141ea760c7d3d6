/**
 * CLI.md, Credentials (issue 36.24): `--api-key`, then SVC_API_KEY, then the profile; base URL
 * likewise. The order stands, but when an environment variable beats a `--profile` given on the
 * command line, one line on stderr says so: the user asked for that profile's account.
 */
import nock from 'nock'
import { describe, expect, it } from 'vitest'
import Account from '../../src/commands/account.js'
import { ProfileStore } from '../../src/lib/config/store.js'
import { account, BASE_URL, TEST_KEY } from '../helpers/api-fixtures.js'
import { freshConfigDir, OTHER_TEST_KEY } from '../helpers/config.js'
import { runCommand } from '../helpers/run-command.js'

const PROD_URL = 'https://prod.example.com'

async function configWithProd(): Promise<string> {
  const dir = freshConfigDir()
  const store = await ProfileStore.open({ SVC_CONFIG_DIR: dir })
  store.save('prod', { apiKey: OTHER_TEST_KEY, baseUrl: PROD_URL })
  return dir
}

const warnings = (stderr: string) => stderr.split('\n').filter((l) => /Warning:/.test(l))

describe('an environment variable beats --profile: one warning line', () => {
  it('SVC_API_KEY over --profile prod: the environment key is used, and stderr says so in one line', async () => {
    const dir = await configWithProd()
    nock(PROD_URL, { reqheaders: { authorization: `Bearer ${TEST_KEY}` } })
      .get('/v1/account')
      .reply(200, account())
    const r = await runCommand(Account, ['--profile', 'prod', '--json'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: TEST_KEY, SVC_BASE_URL: undefined } })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(warnings(r.stderr)).toEqual([`Warning: SVC_API_KEY overrides the API key of --profile prod (environment before profile); unset it to use the profile's.`])
    expect(r.stderr).not.toContain(TEST_KEY)
  })

  it('SVC_API_KEY and SVC_BASE_URL over --profile prod: still one line, naming both', async () => {
    const dir = await configWithProd()
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, ['-p', 'prod'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL } })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(warnings(r.stderr)).toEqual(["Warning: SVC_API_KEY and SVC_BASE_URL override the API key and base URL of --profile prod (environment before profile); unset them to use the profile's."])
  })

  it('SVC_BASE_URL alone over --profile prod', async () => {
    const dir = await configWithProd()
    nock(BASE_URL).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, ['--profile', 'prod', '--json'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: undefined, SVC_BASE_URL: BASE_URL } })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(warnings(r.stderr)).toEqual([`Warning: SVC_BASE_URL overrides the base URL of --profile prod (environment before profile); unset it to use the profile's.`])
  })

  it.each([
    ['no --profile on the command line (SVC_PROFILE)', [], { SVC_PROFILE: 'prod', SVC_API_KEY: TEST_KEY, SVC_BASE_URL: BASE_URL }],
    ['the environment holds what the profile holds', ['--profile', 'prod'], { SVC_API_KEY: OTHER_TEST_KEY, SVC_BASE_URL: `${PROD_URL}/` }],
    ['--api-key and --base-url given (flags beat everything, as asked)', ['--profile', 'prod', '--api-key', TEST_KEY, '--base-url', BASE_URL], {}],
  ] as const)('no warning when %s', async (_why, argv, vars) => {
    const dir = await configWithProd()
    const url = 'SVC_BASE_URL' in vars && vars.SVC_BASE_URL === BASE_URL ? BASE_URL : argv.includes(BASE_URL as never) ? BASE_URL : PROD_URL
    nock(url).get('/v1/account').reply(200, account())
    const r = await runCommand(Account, [...argv, '--json'], { env: { SVC_CONFIG_DIR: dir, SVC_API_KEY: undefined, SVC_BASE_URL: undefined, SVC_PROFILE: undefined, ...vars } })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(warnings(r.stderr).filter((l) => /override/.test(l))).toEqual([])
  })
})
