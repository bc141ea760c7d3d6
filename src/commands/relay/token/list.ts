import { BaseCommand } from '../../../lib/command-kit/base.js'
import { relayStoreFlags } from '../../../lib/command-kit/relay-flags.js'
import type { IO } from '../../../lib/output/io.js'
import { listRelayTokens, type TokenView, withRelayStore } from '../../../lib/services/relay-admin.js'

export default class RelayTokenList extends BaseCommand<typeof RelayTokenList, TokenView[]> {
  static override summary = "List the relay's listener tokens by name (the tokens themselves are never stored)."
  static override description = 'Name, channel, routing (--only, --match) and whether revoked. Piped: tab-separated name, channel, revoked (true/false).'
  static override examples = ['<%= config.bin %> relay token list', '<%= config.bin %> relay token list --json']
  static override flags = { ...relayStoreFlags }

  async run(): Promise<TokenView[]> {
    const { flags, io } = this
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => listRelayTokens(store))
  }

  protected override render(tokens: TokenView[], io: IO): void {
    if (!io.isStdoutTTY) return io.out(tokens.map((t) => `${t.name}\t${t.channel}\t${t.revoked}\n`).join(''))
    if (tokens.length === 0) return this.note('No tokens yet: svc relay token create NAME --channel C')
    for (const t of tokens) {
      const routing = [...t.only.map((o) => `--only ${o}`), ...t.match.map((m) => `--match ${m}`)].join(' ')
      io.out(`${t.name}  ${t.channel}${t.revoked ? '  revoked' : ''}${routing ? `  ${routing}` : ''}\n`)
    }
  }
}
