/**
 * The last net of what svc mcp says to an agent: a typed next step is worded as the tools, a
 * plain hint still naming a CLI flag or command is dropped, and a flag left in a message is named
 * as the argument.
 */
import { describe, expect, it } from 'vitest'
import { argumentName, forAgent, hasCliWords } from '../../../src/lib/mcp/wording.js'

describe('wording for agents', () => {
  it('maps a field to the argument name', () => {
    expect(argumentName('--event-id')).toBe('eventId')
    expect(argumentName('created-after')).toBe('createdAfter')
    // A charges input's path is already the argument's name.
    expect(argumentName('amountInCents')).toBe('amountInCents')
    expect(argumentName('metadata.color')).toBe('metadata.color')
  })

  it('words a typed next step as the agent’s, and drops a plain hint that still names the CLI', () => {
    expect(forAgent({ code: 'charge_processing', message: 'processing', next: { do: 'repeat_create_same_key' } }).hint).toMatch(/^The original request.*create_charge.*idempotencyKey/)
    // The typed step wins over a plain hint.
    expect(forAgent({ code: 'x', message: 'm', hint: 'plain', next: { do: 'use_env', env: 'test' } }).hint).toBe('Use env "test".')
    expect(forAgent({ code: 'network_error', message: 'Timed out.', next: { do: 'check_connection', cause: 'timeout' } }).hint).toMatch(/^The service did not answer in time/)
    // The safety net: a plain hint with a CLI command or flag never reaches the agent, whatever its words.
    for (const hint of ['run `svc webhooks listen`', 'Raise --timeout (e.g. --timeout 60s).', 'Give --amount in centavos.', 'then svc webhooks replay EVENT_ID']) {
      expect(forAgent({ code: 'x', message: 'm', hint }).hint, hint).toBeUndefined()
    }
    // A hint in every door's words passes as it is, --allow-live-writes included.
    const retry = 'It may have been created: call create_charge again with idempotencyKey "k1" to get it without creating a second one.'
    expect(forAgent({ code: 'network_error', message: 'Connection refused.', hint: retry }).hint).toBe(retry)
    const live = 'Use the test environment, or ask the user to restart svc mcp with --allow-live-writes if live is really meant.'
    expect(forAgent({ code: 'live_writes_not_allowed', message: 'm', hint: live }).hint).toBe(live)
    expect(hasCliWords('svc mcp answers')).toBe(false)
    expect(hasCliWords('run svc sandbox start')).toBe(true)
  })

  it('names a flag left in a message or a detail as the argument', () => {
    expect(forAgent({ code: 'x', message: 'Invalid --tz', details: [{ field: '--tz', message: 'unknown zone' }] })).toEqual({ code: 'x', message: 'Invalid tz', details: [{ field: 'tz', message: 'unknown zone' }] })
    expect(forAgent({ code: 'invalid_override', message: '--override x: expected path=value' }).message).toBe('override x: expected path=value')
    expect(forAgent({ code: 'x', message: 'restart svc mcp with --allow-live-writes' }).message).toBe('restart svc mcp with --allow-live-writes')
  })
})
