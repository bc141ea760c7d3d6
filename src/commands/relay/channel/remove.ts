import { Args } from '@oclif/core'
import { BaseCommand } from '../../../lib/command-kit/base.js'
import { relayStoreFlags } from '../../../lib/command-kit/relay-flags.js'
import type { IO } from '../../../lib/output/io.js'
import { checkRelayName, removeRelayChannel, withRelayStore } from '../../../lib/services/relay-admin.js'

export default class RelayChannelRemove extends BaseCommand<typeof RelayChannelRemove, { name: string; removed: true }> {
  static override summary = 'Remove a channel, its stored deliveries and its tokens.'
  static override description =
    'The ingress URL then answers 401 (as any unknown channel), open streams of its tokens are closed (`channel_removed`) within a second, ' + 'and its deliveries are deleted. Exit 4 when there is no such channel.'
  static override examples = ['<%= config.bin %> relay channel remove team-test', '<%= config.bin %> relay channel remove team-test --data /var/lib/svc-relay --json']
  static override args = { name: Args.string({ description: 'Channel name.', required: true }) }
  static override flags = { ...relayStoreFlags }

  async run(): Promise<{ name: string; removed: true }> {
    const { flags, args, io } = this
    const name = checkRelayName(args.name, 'name')
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => removeRelayChannel(store, name))
  }

  protected override render(result: { name: string }, io: IO): void {
    io.out(`${result.name}\n`)
  }
}
