import { BaseCommand } from '../../lib/command-kit/base.js'
import { relayStoreFlags } from '../../lib/command-kit/relay-flags.js'
import type { IO } from '../../lib/output/io.js'
import { relayStatus, type RelayStatusView, withRelayStore } from '../../lib/services/relay-admin.js'

export default class RelayStatus extends BaseCommand<typeof RelayStatus, RelayStatusView> {
  static override summary = "The relay's channels and tokens: connected or not, backlog, oldest unacked, ingest in the last hour."
  static override description =
    "Reads the relay's store on its host (serve need not run). A token is connected when a serve process has its stream open " +
    '(serve records a heartbeat every 15 s; one older than 45 s counts as gone). Backlog: deliveries the token has not acked; ' +
    'untoldLost: deliveries pruned before it acked them, told on its next stream.'
  static override examples = ['<%= config.bin %> relay status', '<%= config.bin %> relay status --data ./relay-data --json']
  static override flags = { ...relayStoreFlags }

  async run(): Promise<RelayStatusView> {
    const { flags, io } = this
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => relayStatus(store, this.now()))
  }

  protected override render(s: RelayStatusView, io: IO): void {
    io.out(`Store: ${s.store}. Ingested in the last hour: ${s.ingestedLastHour}.\n`)
    if (s.channels.length === 0) io.out('No channels.\n')
    for (const c of s.channels) io.out(`channel ${c.name}: ${c.deliveries} stored (${c.bytes} bytes)\n`)
    for (const t of s.tokens) {
      const state = t.revoked ? 'revoked' : t.connected ? 'connected' : 'not connected'
      const oldest = t.oldestUnackedAgeSeconds !== undefined ? `, oldest unacked ${t.oldestUnackedAgeSeconds}s ago` : ''
      const lost = t.untoldLost > 0 ? `, ${t.untoldLost} lost to retention (told on next connect)` : ''
      io.out(`token ${t.name} (${t.channel}): ${state}, backlog ${t.backlog}${oldest}${lost}\n`)
    }
  }
}
