import { Args, Flags } from '@oclif/core'
import { FixtureCommand, type FixtureOutcome, overrideFlag, quietFixtureFlag } from '../lib/command-kit/fixture-command.js'
import { parseOverride } from '../lib/scenarios/fixture.js'
import { TRIGGER_TYPES, builtinFixtureText, isTriggerType, unknownTriggerType } from '../lib/scenarios/builtin.js'
import { runTrigger } from '../lib/services/trigger.js'
import type { Environment } from '../lib/contract/schemas.js'

export default class Trigger extends FixtureCommand<typeof Trigger> {
  static override summary = 'Make the sandbox send an event of any of the 14 types, through its real delivery pipeline.'
  static override description =
    'Drives real resources of a local sandbox so that it emits EVENT_TYPE: a charge is created and advanced, a split charge ' +
    'created, settled and divided, a withdrawal started and ended, a product sale simulated. Every event goes out signed, ' +
    'logged and retried like any other, to the webhook URL of its environment (`svc webhooks listen` sets it). Each type is a ' +
    'fixture file shipped with svc (see it with --print-fixture, copy it, run your own with `svc fixtures run`).\n\n' +
    `Types: ${TRIGGER_TYPES.join(', ')}.\n\n` +
    'Environments: the charge advances exist only in test, so charge.paid_pending_settlement, .settled, .expired, .refunded ' +
    "and .split.* are test only; product.paid is always live (spec 6.3). --env live uses the `sandbox-live` profile's key. " +
    'charge.failed moves the sandbox clock one minute (R$ 14,03 fails after one minute unpaid); charge.test needs a webhook URL.\n\n' +
    "--override path=value sets a field of the first request's body: text as typed, or JSON where the fixture holds a number, " +
    'boolean or object (amountInCents=2500 is a number, metadata.order=42 the text "42"); path:=json forces JSON. A field ' +
    'neither the fixture nor the API request has exits 2 naming the nearest; one the request takes (externalId) is added.\n\n' +
    'With no webhook URL set, the events are logged but no delivery goes out: it says so, and how to set one.\n\n' +
    'Output: on a terminal, the resources made and the event ids; piped, one `EVENT_ID<TAB>TYPE` line per event; --json, ' +
    '{"events": [{"id", "type", "environment"}], "resources": [...]}. Sandbox-only: against any other service it exits 2; an ' +
    'unknown type exits 2 listing the known ones.'

  static override examples = [
    '<%= config.bin %> trigger charge.settled',
    '<%= config.bin %> trigger charge.paid_pending_settlement --override amountInCents=2500 --override metadata.order=42',
    "<%= config.bin %> trigger withdrawal.paid --json | jq -r '.resources[0].id'",
    '<%= config.bin %> charges get "$(<%= config.bin %> trigger charge.settled -q)"',
    '<%= config.bin %> trigger charge.split.completed',
    '<%= config.bin %> trigger product.paid --env live',
    '<%= config.bin %> trigger charge.refunded --print-fixture > my-refund.json && <%= config.bin %> fixtures run my-refund.json',
  ]

  static override args = {
    type: Args.string({ description: `Event type (one of the 14 of spec 6.3).`, required: true }),
  }

  static override flags = {
    override: overrideFlag,
    env: Flags.string({ description: "Environment to emit in (default: the type's, else the key's).", options: ['test', 'live'] }),
    'print-fixture': Flags.boolean({ description: 'Print the fixture file behind this type and send nothing.' }),
    quiet: quietFixtureFlag,
  }

  async run(): Promise<FixtureOutcome | undefined> {
    const type = this.args.type
    if (!isTriggerType(type)) throw unknownTriggerType(type)
    const overrides = (this.flags.override ?? []).map(parseOverride)
    if (this.flags['print-fixture']) {
      this.io.out(await builtinFixtureText(type))
      return undefined
    }
    const { environment } = await this.credentials()
    const result = await runTrigger({ type, overrides, env: this.flags.env as Environment | undefined, keyEnv: environment, session: () => this.session('svc trigger') })
    return { result, headline: `Triggered ${type}` }
  }
}
