import { describe, expect, it } from 'vitest'
import { EVENT_TYPES } from '../../../src/lib/contract/event-types.js'
import { UsageError } from '../../../src/lib/errors.js'
import { builtinFixtureText, isTriggerType, loadBuiltinFixture, unknownTriggerType } from '../../../src/lib/scenarios/builtin.js'

describe('the built-in triggers', () => {
  it('ship one fixture per event type of the spec, each one that loads', async () => {
    for (const type of EVENT_TYPES) {
      expect(isTriggerType(type)).toBe(true)
      await expect(loadBuiltinFixture(type), type).resolves.toBeDefined()
    }
  })

  it('refuse an unknown type (exit 2), listing the known ones and where to read about them', async () => {
    expect(isTriggerType('charge.payed')).toBe(false)
    const err = await builtinFixtureText('charge.payed').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UsageError)
    expect((err as UsageError).exitCode).toBe(2)
    expect((err as UsageError).code).toBe('unknown_event_type')
    expect((err as UsageError).message).toContain('charge.paid_pending_settlement')
    expect(unknownTriggerType('x').hint).toContain('svc trigger --help')
  })
})
