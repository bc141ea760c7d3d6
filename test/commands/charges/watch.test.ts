import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ChargesWatch from '../../../src/commands/charges/watch.js'
import { createClient } from '../../../src/lib/api/client.js'
import type { ApiClient } from '../../../src/lib/api/types.js'
import { SandboxClock } from '../../../src/lib/sandbox/engine/clock.js'
import { RecordingDeliveries } from '../../../src/lib/sandbox/deliveries/null-sink.js'
import { startSandboxServer } from '../../../src/lib/sandbox/sandbox.js'
import type { RunningSandbox } from '../../../src/lib/sandbox/types.js'
import { runCommand } from '../../helpers/run-command.js'

let sb: RunningSandbox
let client: ApiClient
let env: Record<string, string>
beforeAll(async () => {
  sb = await startSandboxServer({ port: 0, inMemory: true, clock: new SandboxClock({ manual: true }), deliveries: () => new RecordingDeliveries() })
  client = createClient({ apiKey: sb.testKey, baseUrl: sb.baseUrl })
  env = { SVC_API_KEY: sb.testKey, SVC_BASE_URL: sb.baseUrl }
})
afterAll(async () => {
  await client.close()
  await sb.close()
})

describe('svc charges watch (piped)', () => {
  it('prints a line per charge and ends once every named charge is final', async () => {
    const { charge: a } = await client.createCharge({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    const { charge: b } = await client.createCharge({ amountInCents: 2500, payerTaxNumber: '52998224725' })
    await client.advanceCharge(a.id, 'settled')
    await client.advanceCharge(b.id, 'expired')
    const r = await runCommand(ChargesWatch, [a.id, b.id, '--interval', '1s'], { env })
    expect(r.exitCode).toBe(0)
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    expect(rows.map((c) => [c[1], c[2], c[3]]).sort()).toEqual(
      [
        [a.id, 'settled', '1500'],
        [b.id, 'expired', '2500'],
      ].sort(),
    )
    const json = await runCommand(ChargesWatch, [a.id, '--json'], { env })
    expect(JSON.parse(json.stdout)).toMatchObject({ id: a.id, status: 'settled' })
  })

  it('exits 4 naming a charge that does not exist, and 2 for something that is not an id', async () => {
    const missing = await runCommand(ChargesWatch, ['0123456789abcdef01234567'], { env })
    expect(missing.exitCode).toBe(4)
    expect(missing.stderr).toMatch(/^Error \[charge_not_found\]: Charge 0123456789abcdef01234567 not found in the test environment\. \(requestId \S+\)/)
    expect(missing.stdout).toBe('')
    const { charge: a } = await client.createCharge({ amountInCents: 1500, payerTaxNumber: '52998224725' })
    const some = await runCommand(ChargesWatch, [a.id, 'ffffffffffffffffffffffff', 'eeeeeeeeeeeeeeeeeeeeeeee', '--json'], { env })
    expect(some.exitCode).toBe(4)
    expect(JSON.parse(some.stderr)).toMatchObject({
      error: {
        code: 'charge_not_found',
        details: [
          { field: 'id', message: expect.stringContaining('ffffffffffffffffffffffff') },
          { field: 'id', message: expect.stringContaining('eeeeeeeeeeeeeeeeeeeeeeee') },
        ],
      },
    })
    const bad = await runCommand(ChargesWatch, ['nope'], { env })
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('not a charge id')
  })
})
