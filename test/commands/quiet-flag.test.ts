/**
 * Every command that prints the id of what it made, moved or read takes `-q` (issue 29 item 23:
 * `svc test advance` and `svc trigger` refused it while `charges create` and `charges list` took it),
 * and with it prints only ids, one per line. Each command's own test shows its -q output.
 */
import { describe, expect, it } from 'vitest'
import ChargesCancel from '../../src/commands/charges/cancel.js'
import ChargesCreate from '../../src/commands/charges/create.js'
import ChargesGet from '../../src/commands/charges/get.js'
import ChargesList from '../../src/commands/charges/list.js'
import FixturesRun from '../../src/commands/fixtures/run.js'
import SandboxDeliveries from '../../src/commands/sandbox/deliveries/index.js'
import SandboxDeliveriesResend from '../../src/commands/sandbox/deliveries/resend.js'
import TestAdvance from '../../src/commands/test/advance.js'
import Trigger from '../../src/commands/trigger.js'
import WebhooksEvents from '../../src/commands/webhooks/events.js'
import WebhooksTest from '../../src/commands/webhooks/test.js'
import WithdrawalsGet from '../../src/commands/withdrawals/get.js'

const PRINTING_IDS = {
  'charges create': ChargesCreate,
  'charges list': ChargesList,
  'charges get': ChargesGet,
  'charges cancel': ChargesCancel,
  'test advance': TestAdvance,
  trigger: Trigger,
  'fixtures run': FixturesRun,
  'withdrawals get': WithdrawalsGet,
  'webhooks test': WebhooksTest,
  'webhooks events': WebhooksEvents,
  'sandbox deliveries': SandboxDeliveries,
  'sandbox deliveries resend': SandboxDeliveriesResend,
}

describe('-q on every command that prints an id', () => {
  it.each(Object.entries(PRINTING_IDS))('svc %s takes -q, --quiet, not with --json', (_name, command) => {
    const quiet = (command.flags as Record<string, { char?: string; exclusive?: string[]; description?: string }>).quiet
    expect(quiet?.char).toBe('q')
    expect(quiet?.exclusive).toContain('json')
    expect(quiet?.description).toMatch(/^Print only /)
  })
})
