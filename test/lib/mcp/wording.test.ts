/**
 * The CLI's sentences in an agent's words: flags become the tools' arguments, commands the tools
 * that do the same, and a hint that would still send an agent to a shell is dropped.
 */
import { describe, expect, it } from 'vitest'
import { argumentName, forAgent, hasCliWords, inToolWords } from '../../../src/lib/mcp/wording.js'

describe('wording for agents', () => {
  it('maps a field to the argument name', () => {
    expect(argumentName('--event-id')).toBe('eventId')
    expect(argumentName('created-after')).toBe('createdAfter')
    // A charges input's path is already the argument's name.
    expect(argumentName('amountInCents')).toBe('amountInCents')
    expect(argumentName('metadata.color')).toBe('metadata.color')
  })

  it('turns commands into tools and flags into arguments', () => {
    expect(inToolWords('see it with `svc sandbox deliveries --event-id evt_1` now')).toBe('see it with list_deliveries with eventId now')
    expect(inToolWords('Set one with `svc sandbox webhook set URL --env live`.')).toBe('Set one with set_webhook with url and env "live".')
    expect(inToolWords('Use --env test.')).toBe('Use env "test".')
    expect(inToolWords('--from must be earlier than --to')).toBe('from must be earlier than to')
    expect(inToolWords('restart svc mcp with --allow-live-writes')).toBe('restart svc mcp with --allow-live-writes')
  })

  it('words a typed next step as the agent’s, and drops a hint that still names the CLI', () => {
    expect(forAgent({ code: 'charge_processing', message: 'processing', next: { do: 'repeat_create_same_key' } }).hint).toMatch(/^The original request.*create_charge.*idempotencyKey/)
    // The typed step wins over a plain hint.
    expect(forAgent({ code: 'x', message: 'm', hint: 'plain', next: { do: 'use_env', env: 'test' } }).hint).toBe('Use env "test".')
    expect(forAgent({ code: 'x', message: 'm', hint: 'run `svc webhooks listen`' }).hint).toBeUndefined()
    expect(forAgent({ code: 'x', message: 'Invalid --tz', details: [{ field: '--tz', message: 'unknown zone' }] })).toEqual({ code: 'x', message: 'Invalid tz', details: [{ field: 'tz', message: 'unknown zone' }] })
    // A flag no tool takes is not turned into a fake argument: the hint falls back to the code's own.
    expect(forAgent({ code: 'network_error', message: 'Timed out.', hint: 'Raise --timeout (e.g. --timeout 60s).' }).hint).toMatch(/^svc mcp could not reach the service/)
    const retry = 'It may have been created: call create_charge again with idempotencyKey "k1" to get it without creating a second one.'
    expect(forAgent({ code: 'network_error', message: 'Connection refused.', hint: retry }).hint).toBe(retry)
    expect(forAgent({ code: 'x', message: 'Invalid --status', hint: 'Give --status as a state.' })).toMatchObject({ message: 'Invalid status', hint: 'Give status as a state.' })
    // A flag the charges' inputs no longer name is no argument of a hint's: the hint is dropped.
    expect(forAgent({ code: 'x', message: 'm', hint: 'Give --amount in centavos.' }).hint).toBeUndefined()
    expect(hasCliWords('svc mcp answers')).toBe(false)
    expect(hasCliWords('run svc sandbox start')).toBe(true)
  })
})
