import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../../lib/command-kit/base.js'
import { relayStoreFlags } from '../../../lib/command-kit/relay-flags.js'
import type { IO } from '../../../lib/output/io.js'
import { checkRelayName, createRelayToken, parseMatch, parseOnly, withRelayStore } from '../../../lib/services/relay-admin.js'

type Created = { name: string; channel: string; token: string }

export default class RelayTokenCreate extends BaseCommand<typeof RelayTokenCreate, Created> {
  static override summary = 'Create a listener token for a channel (shown once; the relay keeps only its hash).'
  static override description =
    'A token names one listener (a developer, a CI job): `svc webhooks listen --relay URL --token T`. It receives the deliveries of ' +
    'its channel that arrive after it was made and that it has not acked, in arrival order, until acked (at-least-once). ' +
    'One stream per token: a second connection replaces the first. --only keeps event types (exact or prefix.*, as --events); ' +
    '--match keeps events whose body field matches a glob (* any run, ? one character), so developers sharing one test account ' +
    "each get their own charges. What a token's routing excludes is skipped for it. Piped, only the token is printed."

  static override examples = [
    '<%= config.bin %> relay token create alice --channel team-test --match data.charge.externalId=alice-*',
    'TOKEN=$(<%= config.bin %> relay token create ci --channel team-test --only charge.*)',
    '<%= config.bin %> relay token create bob --channel team-test --match data.charge.metadata.dev=bob --json',
  ]

  static override args = { name: Args.string({ description: 'Token name (shown in logs, status and metrics; the token itself never is).', required: true }) }

  static override flags = {
    channel: Flags.string({ char: 'c', description: 'The channel it reads.', required: true, helpValue: 'NAME' }),
    only: Flags.string({ description: 'Event types to receive (exact or prefix.*; repeat or comma-separate).', multiple: true, helpValue: 'PATTERN' }),
    match: Flags.string({ description: 'PATH=GLOB on the event body (e.g. data.charge.externalId=alice-*); repeat: all must hold.', multiple: true, helpValue: 'PATH=GLOB' }),
    ...relayStoreFlags,
  }

  async run(): Promise<Created> {
    const { flags, args, io } = this
    const name = checkRelayName(args.name, 'name')
    const channel = checkRelayName(flags.channel, 'channel')
    const only = parseOnly(flags.only)
    const match = parseMatch(flags.match)
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => createRelayToken(store, { name, channel, only, match, now: this.now() }))
  }

  protected override render(result: Created, io: IO): void {
    io.out(`${result.token}\n`)
    if (io.isStdoutTTY) this.note(`Token ${result.name} for channel ${result.channel}. Copy it now: it is not shown again. Use it with svc webhooks listen --relay URL --token … (or SVC_RELAY_TOKEN).`)
  }
}
