import { BaseCommand } from '../../../lib/command-kit/base.js'
import { DEFAULT_RELAY_URL, publicUrlFlag, relayStoreFlags } from '../../../lib/command-kit/relay-flags.js'
import type { IO } from '../../../lib/output/io.js'
import { type ChannelView, checkPublicUrl, listRelayChannels, withRelayStore } from '../../../lib/services/relay-admin.js'

export default class RelayChannelList extends BaseCommand<typeof RelayChannelList, ChannelView[]> {
  static override summary = "List the relay's channels and their ingress URLs (secrets never shown)."
  static override description = 'One row per channel: name, URL, number of secrets, retention and byte cap when set. Piped: tab-separated name and URL.'
  static override examples = ['<%= config.bin %> relay channel list', '<%= config.bin %> relay channel list --json']
  static override flags = { 'public-url': publicUrlFlag, ...relayStoreFlags }

  async run(): Promise<ChannelView[]> {
    const { flags, io } = this
    const publicUrl = checkPublicUrl(flags['public-url'] ?? io.env.SVC_RELAY_PUBLIC_URL ?? DEFAULT_RELAY_URL)
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => listRelayChannels(store, publicUrl))
  }

  protected override render(channels: ChannelView[], io: IO): void {
    if (!io.isStdoutTTY) return io.out(channels.map((c) => `${c.name}\t${c.url}\n`).join(''))
    if (channels.length === 0) return this.note('No channels yet: svc relay channel add NAME --secret whsec_…')
    for (const c of channels) io.out(`${c.name}  ${c.url}  ${c.secrets} secret${c.secrets === 1 ? '' : 's'}${c.retention ? `  retention ${c.retention}` : ''}${c.maxBytes ? `  max ${c.maxBytes} bytes` : ''}\n`)
  }
}
