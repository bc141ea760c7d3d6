/** One of each typed next step (next-step.ts), for the tests that word them at each door. */
import type { NextStep, NextStepName } from '../../src/lib/next-step.js'

export const EVERY_STEP: { readonly [K in NextStepName]: Extract<NextStep, { do: K }> } = {
  fix_credentials: { do: 'fix_credentials' },
  replace_revoked_key: { do: 'replace_revoked_key' },
  use_test_key: { do: 'use_test_key', by: 'svc' },
  repeat_create_same_key: { do: 'repeat_create_same_key' },
  find_charge_by_external_id: { do: 'find_charge_by_external_id' },
  see_order_charge: { do: 'see_order_charge', externalId: "o'brien 1" },
  retry_create: { do: 'retry_create', idempotencyKey: '9b2f1c3e-5a47-4d8e-b1f0-6c2d9e8a7b34' },
  see_charge: { do: 'see_charge', id: '6650a1b2c3d4e5f60718293a', status: 'settled', from: ['created', 'paid_pending_settlement'] },
  start_sandbox: { do: 'start_sandbox' },
  point_at_sandbox: { do: 'point_at_sandbox', baseUrl: 'https://api.example' },
  set_webhook: { do: 'set_webhook', env: 'live' },
  list_deliveries: { do: 'list_deliveries', env: 'test' },
  use_env: { do: 'use_env', env: 'live' },
  check_connection: { do: 'check_connection', cause: 'sandbox' },
  report_bad_answer: { do: 'report_bad_answer' },
  use_sandbox_key: { do: 'use_sandbox_key', env: 'live', profile: 'sandbox-live' },
  set_webhook_for_trigger: { do: 'set_webhook_for_trigger', env: 'test', done: 'No step had run: nothing was changed in the sandbox.' },
  reactivate_then_test: { do: 'reactivate_then_test', url: 'http://127.0.0.1:3000/hooks?a=1&b=2', env: 'test', on: 'sandbox' },
  list_overdue: { do: 'list_overdue' },
  reactivate_webhook: { do: 'reactivate_webhook', url: 'http://127.0.0.1:3000/hooks', env: 'test', on: 'sandbox' },
  resend_failed_deliveries: { do: 'resend_failed_deliveries' },
  replay_failed_forwards: { do: 'replay_failed_forwards' },
}
