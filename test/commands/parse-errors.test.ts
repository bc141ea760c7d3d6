/**
 * oclif's own parse errors read as one clean line, exit 2, with a hint naming the command's
 * --help. oclif's loader gives each command class its id; here the classes are imported
 * directly, so the test gives them theirs.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import Api from '../../src/commands/api.js'
import ChargesCreate from '../../src/commands/charges/create.js'
import ChargesGet from '../../src/commands/charges/get.js'
import ChargesList from '../../src/commands/charges/list.js'
import ChargesWatch from '../../src/commands/charges/watch.js'
import { runCommand } from '../helpers/run-command.js'
import { testEnv } from '../helpers/charges.js'

beforeAll(() => {
  ChargesGet.id = 'charges:get'
  ChargesList.id = 'charges:list'
  ChargesCreate.id = 'charges:create'
  ChargesWatch.id = 'charges:watch'
  Api.id = 'api'
})

const lines = (text: string) => text.trimEnd().split('\n')

describe('oclif parse errors', () => {
  it('a missing argument names it with its description, and the hint names the command', async () => {
    const r = await runCommand(ChargesGet, [], { env: testEnv })
    expect(r.exitCode).toBe(2)
    expect(lines(r.stderr)).toEqual(['Error [invalid_request]: Missing required argument: id (Charge id (24 hexadecimal characters))', 'Hint: See `svc charges get --help`.'])
  })

  it('several missing arguments, one line', async () => {
    const r = await runCommand(Api, [], { env: testEnv })
    expect(r.exitCode).toBe(2)
    const [error, hint] = lines(r.stderr)
    expect(error).toMatch(/^Error \[invalid_request\]: Missing required arguments: method \(HTTP method: GET, .*\), path \(Path .*\)$/)
    expect(hint).toBe('Hint: See `svc api --help`.')
    expect(r.stderr).not.toContain(';')
  })

  it('arguments swallowed by a flag that takes several values: the hint says to put them first', async () => {
    for (const argv of [
      ['-H', 'X-A: 1', 'GET', '/v1/account'],
      ['--header', 'X-A: 1', 'GET', '/v1/account'],
    ]) {
      const r = await runCommand(Api, argv, { env: testEnv })
      expect(r.exitCode).toBe(2)
      expect(lines(r.stderr)[1]).toBe('Hint: See `svc api --help`. Put the arguments before --header (it takes several values), or after `--`.')
    }
  })

  it.each([
    [ChargesGet, ['65a1f0c2b3d4e5f60718293a', 'x'], 'Unexpected argument: x', 'svc charges get'],
    [ChargesList, ['--status', 'paid'], 'Expected --status=paid to be one of: created, awaiting_payment,', 'svc charges list'],
    [ChargesList, ['--nope'], 'Unknown flag: --nope', 'svc charges list'],
    [ChargesList, ['--limit'], 'Flag --limit expects a value', 'svc charges list'],
    [ChargesWatch, ['--limit', 'x'], '--limit: Expected an integer but received: x', 'svc charges watch'],
    [ChargesCreate, [], 'Missing required flag: --amount (Gross amount in integer centavos: 1500 = R$ 15,00 (1000 to 500000))', 'svc charges create'],
  ] as const)('%o %o → %s', async (cmd, argv, message, usage) => {
    const r = await runCommand(cmd, [...argv], { env: testEnv })
    expect(r.exitCode).toBe(2)
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toContain(`Error [invalid_request]: ${message}`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(error).not.toMatch(/See more help|\t|\u001b/)
    expect(hint).toBe(`Hint: See \`${usage} --help\`.`)
    expect(rest).toEqual([])
  })

  it('--json: the error object with the clean message', async () => {
    const r = await runCommand(ChargesGet, ['--json'], { env: testEnv })
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stderr)).toEqual({ error: { code: 'invalid_request', message: 'Missing required argument: id (Charge id (24 hexadecimal characters))' } })
  })
})
