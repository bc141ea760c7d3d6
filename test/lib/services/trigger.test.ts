/** The trigger use-case below the command: a built-in fixture run on the sandbox over real HTTP, the events it made read back. */
import { describe, expect, it } from 'vitest'
import { createClient } from '../../../src/lib/api/client.js'
import { loadBuiltinFixture } from '../../../src/lib/scenarios/builtin.js'
import { parseOverride } from '../../../src/lib/scenarios/fixture.js'
import { chooseEnv, type FixtureSession, requireSandbox, runOnSandbox, triggerOverrides } from '../../../src/lib/services/trigger.js'
import { useSandboxClient } from '../../helpers/sandbox-client.js'

const ctx = useSandboxClient()

function session(keys: FixtureSession['keys']): FixtureSession {
  return { keys, source: 'the test', clientFor: async (apiKey) => createClient({ apiKey, baseUrl: ctx.sandbox.baseUrl, sleep: async () => {} }) }
}

describe('runOnSandbox', () => {
  it('charge.settled: creates and advances a real charge, and returns exactly the events it made', async () => {
    const fixture = await loadBuiltinFixture('charge.settled')
    const result = await runOnSandbox(fixture, new Map(), 'test', 'trigger charge.settled', session({ test: ctx.sandbox.testKey }))
    const [charge] = result.resources
    expect(charge).toMatchObject({ object: 'charge', status: 'settled' })
    expect(result.events.map((e) => e.type)).toEqual(['charge.awaiting_payment', 'charge.paid_pending_settlement', 'charge.settled'])
    expect(result.events.at(-1)).toMatchObject({ type: 'charge.settled', environment: 'test', resource: `charge:${charge!.id}` })
    expect((await ctx.client.getCharge(charge!.id)).status).toBe('settled')
  })

  it("an override reaches the request body of the fixture's main step", async () => {
    const fixture = await loadBuiltinFixture('charge.awaiting_payment')
    const overrides = triggerOverrides(fixture, [parseOverride('amountInCents=2500')])
    const result = await runOnSandbox(fixture, overrides, 'test', 'trigger', session({ test: ctx.sandbox.testKey }))
    // Only this run's events: not the previous test's charge.
    expect(result.events.every((e) => e.resource === `charge:${result.resources[0]!.id}`)).toBe(true)
    expect((await ctx.client.getCharge(result.resources[0]!.id)).amount.grossInCents).toBe(2500)
  })

  it('product.paid is live only: chooseEnv refuses test naming --env live; without a live key the run says which profile has one', async () => {
    const fixture = await loadBuiltinFixture('product.paid')
    expect(() => chooseEnv(fixture, 'test', 'test', 'product.paid')).toThrow(/cannot run in the test environment/)
    const env = chooseEnv(fixture, undefined, 'test', 'product.paid')
    expect(env).toBe('live')
    await expect(runOnSandbox(fixture, new Map(), env, 'trigger', session({ test: ctx.sandbox.testKey }))).rejects.toMatchObject({ exitCode: 2, next: { do: 'use_sandbox_key', env: 'live', profile: 'sandbox-live' } })
  })

  it('requireSandbox: a service that is not a sandbox is refused with exit 2 and not_a_sandbox', async () => {
    await expect(requireSandbox('http://127.0.0.1:9', 'svc trigger')).rejects.toMatchObject({ exitCode: 2, code: 'not_a_sandbox' })
    await expect(requireSandbox(ctx.sandbox.baseUrl, 'svc trigger')).resolves.toBeUndefined()
  })
})
