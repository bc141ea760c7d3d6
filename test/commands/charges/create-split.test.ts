/**
 * `svc charges create --split WALLET=BPS` (CLI.md 0.3): a split charge through POST
 * /v1/split-charges against the sandbox over real HTTP, with everything else as `charges create`;
 * a bad --split is exit 2 naming the flag, and nothing is sent.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ChargesCreate from '../../../src/commands/charges/create.js'
import { createClient } from '../../../src/lib/api/client.js'
import type { ApiClient } from '../../../src/lib/api/types.js'
import { stripAnsi } from '../../../src/lib/output/color.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { RecordingDeliveries } from '../../../src/lib/sandbox/deliveries/null-sink.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'

const CPF = '52998224725'
let sb: RunningSandbox
let client: ApiClient
let env: Record<string, string>
/** A server that records every request it gets: where a refused command must send nothing. */
let trap: Server
let trapped: string[]
let trapEnv: Record<string, string>

beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true }), deliveries: () => new RecordingDeliveries() })
  client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl })
  env = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }
  trapped = []
  trap = createServer((req, res) => {
    trapped.push(`${req.method} ${req.url}`)
    res.writeHead(500).end()
  })
  await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r))
  trapEnv = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: `http://127.0.0.1:${(trap.address() as AddressInfo).port}` }
})
afterAll(async () => {
  await client.close()
  await sb.close()
  await new Promise((r) => trap.close(r))
})

describe('svc charges create --split', () => {
  it('--json: creates a split charge with its destinations, readable with charges get', async () => {
    const r = await runCommand(ChargesCreate, ['--amount', '10000', '--payer-tax-number', CPF, '--split', 'wallet-shop=7000', '--split', 'wallet-partner=3000', '--external-id', 'split-1', '--json'], { env })
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    const charge = JSON.parse(r.stdout) as { id: string; externalId: string; split: { status: string; destinations: Array<{ wallet: string; shareBps: number; amountInCents: number }> } }
    expect(charge.externalId).toBe('split-1')
    expect(charge.split.status).toBe('pending')
    expect(charge.split.destinations.map((d) => [d.wallet, d.shareBps])).toEqual([
      ['wallet-shop', 7000],
      ['wallet-partner', 3000],
    ])
    const read = (await client.getCharge(charge.id)) as unknown as typeof charge
    expect(read.split.destinations).toEqual(charge.split.destinations)
  })

  it('piped -q: prints only the id; on a terminal the view shows the division', async () => {
    const q = await runCommand(ChargesCreate, ['--amount', '2000', '--payer-tax-number', CPF, '--split', 'a=5000', '--split', 'b=2500', '--split', 'c=2500', '-q'], { env })
    expect(q.exitCode).toBe(0)
    expect(q.stdout).toMatch(/^[0-9a-f]{24}\n$/)
    expect(((await client.getCharge(q.stdout.trim())) as { split?: unknown }).split).toBeDefined()

    const tty = await runCommand(ChargesCreate, ['--amount', '2000', '--payer-tax-number', CPF, '--split', 'wallet-x=6000', '--split', 'wallet-y=4000'], { env, tty: true })
    expect(tty.exitCode).toBe(0)
    const out = stripAnsi(tty.stdout)
    expect(out).toContain('Charge created')
    expect(out).toMatch(/[▀▄█]/)
    expect(out).toMatch(/Split\s+pending/)
    expect(out).toContain('wallet-x')
    expect(out).toContain('wallet-y')
  })

  it('--wait works as for any charge', async () => {
    // The sandbox settles nothing by itself on a manual clock: a short --wait for a state the charge is already in.
    const r = await runCommand(ChargesCreate, ['--amount', '2000', '--payer-tax-number', CPF, '--split', 'a=5000', '--split', 'b=5000', '--wait', 'awaiting_payment', '--json'], { env })
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'awaiting_payment', split: { status: 'pending' } })
  })

  const bad: Array<[string, string[], string, RegExp]> = [
    ['one destination', ['--split', 'a=10000'], '--split', /at least 2 destinations/],
    ['eleven destinations', Array.from({ length: 11 }, (_, i) => ['--split', `w${i}=${i === 0 ? 1000 : 900}`]).flat(), '--split', /at most 10 destinations/],
    ['shares not adding up', ['--split', 'a=5000', '--split', 'b=4000'], '--split', /add up to 10000 basis points; these add up to 9000/],
    ['a share that is not an integer', ['--split', 'a=50.5', '--split', 'b=4950'], '--split a=50.5', /integer number of basis points/],
    ['a percentage', ['--split', 'a=50%', '--split', 'b=50%'], '--split a=50%', /integer number of basis points/],
    ['no =', ['--split', 'a', '--split', 'b=10000'], '--split a', /expected WALLET=BPS/],
    ['an empty wallet', ['--split', '=5000', '--split', 'b=5000'], '--split =5000', /wallet is empty/],
    ['the same wallet twice', ['--split', 'a=5000', '--split', 'a=5000'], '--split', /each wallet may appear once; a is given twice/],
    ['a zero share', ['--split', 'a=0', '--split', 'b=10000'], '--split a=0', /^the share must be 1 to 10000 basis points$/],
    ['a share over 10000', ['--split', 'a=10001', '--split', 'b=1'], '--split a=10001', /^the share must be 1 to 10000 basis points$/],
    ['a wallet with = (trial report item 8)', ['--split', 'a=b=5000', '--split', 'c=5000'], '--split a=b=5000', /the wallet "a=b" may not contain "=", whitespace or control characters/],
    ['a wallet with a space', ['--split', 'my wallet=5000', '--split', 'c=5000'], '--split "my wallet=5000"', /may not contain "=", whitespace or control characters/],
    ['a wallet with a control character', ['--split', 'a\u0007=5000', '--split', 'c=5000'], '--split "a\\u0007=5000"', /may not contain/],
    ['a wallet over 128 characters', ['--split', `${'w'.repeat(129)}=5000`, '--split', 'b=5000'], `--split ${'w'.repeat(40)}…`, /at most 128/],
  ]
  for (const [what, args, field, message] of bad) {
    it(`${what}: exit 2 naming --split (once) and the value, nothing sent`, async () => {
      trapped.length = 0
      const r = await runCommand(ChargesCreate, ['--amount', '2000', '--payer-tax-number', CPF, ...args, '--json'], { env: trapEnv })
      expect(r.exitCode).toBe(2)
      expect(r.stdout).toBe('')
      const err = JSON.parse(r.stderr) as { error: { message: string; details: Array<{ field: string; message: string }> } }
      expect(err.error.details[0]!.field).toBe(field)
      expect(err.error.details[0]!.message).toMatch(message)
      expect(r.stderr).not.toContain('(split)')
      expect(trapped).toEqual([])
    })
  }

  it('words a bad share as "--split a=0: the share must be 1 to 10000 basis points"', async () => {
    const r = await runCommand(ChargesCreate, ['--amount', '2000', '--payer-tax-number', CPF, '--split', 'a=0', '--split', 'b=10000'], { env: trapEnv })
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--split a=0: the share must be 1 to 10000 basis points')
  })

  it('is in --help with an example', () => {
    expect(ChargesCreate.flags.split.description).toContain('10000')
    expect(ChargesCreate.flags.split.description).toContain('1 to 10000')
    expect(ChargesCreate.flags.split.description).toContain('no =, whitespace or control characters')
    expect(ChargesCreate.examples).toContainEqual(expect.stringContaining('--split wallet-shop=7000 --split wallet-partner=3000'))
  })
})
