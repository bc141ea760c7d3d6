/**
 * `svc mcp`'s words for a typed next step: the tool to call with its arguments, or what the user
 * has to do; never a CLI flag or command (the same steps the CLI words as commands).
 */
import { describe, expect, it } from 'vitest'
import { nextStepInAgentWords } from '../../../src/lib/mcp/next-step-words.js'
import { hasCliWords } from '../../../src/lib/mcp/wording.js'
import { EVERY_STEP } from '../next-steps.js'

describe('next steps in an agent’s words', () => {
  it('words each step as a tool and its arguments, with no CLI word', () => {
    for (const step of Object.values(EVERY_STEP)) expect(hasCliWords(nextStepInAgentWords(step)), step.do).toBe(false)
    expect(nextStepInAgentWords(EVERY_STEP.see_charge)).toBe('A charge reaches settled only from: created, paid_pending_settlement. See its state with get_charge {"id": "6650a1b2c3d4e5f60718293a"}.')
    expect(nextStepInAgentWords(EVERY_STEP.set_webhook)).toBe('Set one with set_webhook {"url": …, "env": "live"}.')
    expect(nextStepInAgentWords(EVERY_STEP.list_deliveries)).toBe('List the deliveries with list_deliveries; an event of the live environment needs env "live".')
    expect(nextStepInAgentWords(EVERY_STEP.use_env)).toBe('Use env "live".')
    expect(nextStepInAgentWords(EVERY_STEP.reactivate_webhook)).toBe('save the URL again to reactivate it: set_webhook {"url": "http://127.0.0.1:3000/hooks", "env": "test"}')
    expect(nextStepInAgentWords({ ...EVERY_STEP.reactivate_webhook, on: 'service' })).toMatch(/^the user saves the URL again in the service's panel/)
    expect(nextStepInAgentWords(EVERY_STEP.list_overdue)).toMatch(/^list_overdue lists them/)
    expect(nextStepInAgentWords(EVERY_STEP.check_connection)).toMatch(/^svc mcp could not reach the local sandbox: .*the user starts it\. Reading again is safe/)
    expect(nextStepInAgentWords(EVERY_STEP.set_webhook_for_trigger)).toMatch(/set_webhook \{"url": …, "env": "test"\}\. No step had run/)
    // The order id is the caller's data: not echoed into the sentence.
    expect(nextStepInAgentWords(EVERY_STEP.see_order_charge)).not.toContain('brien')
    expect(nextStepInAgentWords(EVERY_STEP.retry_create)).toBe('It may have been created: call create_charge again with idempotencyKey "9b2f1c3e-5a47-4d8e-b1f0-6c2d9e8a7b34" to get it without creating a second one.')
    expect(nextStepInAgentWords({ do: 'repeat_create_same_key' })).toMatch(/create_charge.*idempotencyKey/)
    expect(nextStepInAgentWords({ do: 'find_charge_by_external_id' })).toMatch(/list_charges \{"externalId": …\}/)
  })
})
