/**
 * The CLI's words for a typed next step: the `Hint:` line each error printed before the steps were
 * typed, word for word (the commands' output does not change), naming the commands and flags.
 */
import { describe, expect, it } from 'vitest'
import { cliHintOf, nextStepInCliWords, reactivationInCliWords } from '../../../src/lib/command-kit/next-step-words.js'
import { EVERY_STEP } from '../next-steps.js'

describe('next steps in the CLI’s words', () => {
  it('words each step as the command to type', () => {
    expect(nextStepInCliWords({ do: 'fix_credentials' })).toBe('Check the key: `svc profiles show`, or log in again with `svc login`.')
    expect(nextStepInCliWords({ do: 'use_test_key', by: 'service' })).toBe('This is a sandbox-only operation: use a svc_test_ key (e.g. --profile sandbox).')
    expect(nextStepInCliWords({ do: 'use_test_key', by: 'svc' })).toBe('Use a svc_test_ key: --api-key, SVC_API_KEY, or a test profile (e.g. --profile sandbox).')
    expect(nextStepInCliWords(EVERY_STEP.see_charge)).toBe('A charge reaches settled only from: created, paid_pending_settlement. See its state with `svc charges get 6650a1b2c3d4e5f60718293a`.')
    expect(nextStepInCliWords(EVERY_STEP.set_webhook)).toBe('Set one with `svc sandbox webhook set URL --env live`, or run `svc webhooks listen`.')
    expect(nextStepInCliWords(EVERY_STEP.list_deliveries)).toBe('List the deliveries with `svc sandbox deliveries`; an event of the live environment needs --env live.')
    expect(nextStepInCliWords(EVERY_STEP.use_env)).toBe('Use --env live.')
    expect(nextStepInCliWords(EVERY_STEP.see_order_charge)).toBe(
      "A charge for this externalId already exists (created with a different body): see it with `svc charges list --external-id 'o'\\''brien 1'`; do not create another charge for the same order.",
    )
    expect(nextStepInCliWords(EVERY_STEP.retry_create)).toBe('It may have been created: run again with --idempotency-key 9b2f1c3e-5a47-4d8e-b1f0-6c2d9e8a7b34 to get it without creating a second one.')
    expect(nextStepInCliWords(EVERY_STEP.check_connection)).toBe('Is the sandbox running? Start it with `svc sandbox start`, or check --base-url.')
    expect(nextStepInCliWords({ do: 'check_connection', cause: 'timeout' })).toBe('Raise --timeout (e.g. --timeout 60s), or check the service status.')
    expect(nextStepInCliWords(EVERY_STEP.use_sandbox_key)).toBe('Pass --profile sandbox-live (written by `svc sandbox start`), or SVC_API_KEY with a svc_live_ key.')
    expect(nextStepInCliWords(EVERY_STEP.set_webhook_for_trigger)).toBe(
      'No webhook URL is set for the test environment of the sandbox, so it has nowhere to send the event: run `svc webhooks listen` (it registers itself), or `svc sandbox webhook set URL --env test`. No step had run: nothing was changed in the sandbox.',
    )
    // The URL is quoted for the shell, so the hint can be pasted as is.
    expect(nextStepInCliWords(EVERY_STEP.reactivate_then_test)).toBe(
      "Run `svc sandbox webhook set 'http://127.0.0.1:3000/hooks?a=1&b=2' --env test` (or save it in the sandbox's panel, `svc sandbox open`), then `svc webhooks test` again.",
    )
    expect(nextStepInCliWords({ ...EVERY_STEP.reactivate_then_test, on: 'service' })).toBe('Save it in the panel (API, Webhook), then run `svc webhooks test` again.')
    // status's items: clauses, as `svc status` words them.
    expect(nextStepInCliWords(EVERY_STEP.reactivate_webhook)).toBe('save the URL again to reactivate it: svc sandbox webhook set http://127.0.0.1:3000/hooks')
    expect(nextStepInCliWords({ ...EVERY_STEP.reactivate_webhook, on: 'service' })).toBe("save the URL again in the service's panel (Webhooks) to reactivate it; events sent meanwhile were not retried")
    expect(nextStepInCliWords(EVERY_STEP.replay_failed_forwards)).toBe('your app did not take these: fix it, then svc webhooks replay EVENT_ID')
    for (const step of Object.values(EVERY_STEP)) expect(nextStepInCliWords(step), step.do).toMatch(/svc |--[a-z]|panel/)
  })

  it('words svc account’s inactive endpoint: the panel for the real service, the sandbox command for the sandbox', () => {
    expect(reactivationInCliWords('https://shop.example/hooks', 'live', 'service')).toBe('Save the URL again in the panel (API, Webhook) to reactivate it.')
    expect(reactivationInCliWords('https://shop.example/hooks', 'test', 'sandbox')).toContain('svc sandbox webhook set https://shop.example/hooks --env test')
  })

  it('prefers an error’s typed step to its plain hint', () => {
    expect(cliHintOf({ hint: 'plain', next: { do: 'start_sandbox' } })).toMatch(/^Start one with `svc sandbox start`/)
    expect(cliHintOf({ hint: 'plain' })).toBe('plain')
    expect(cliHintOf({})).toBeUndefined()
  })
})
