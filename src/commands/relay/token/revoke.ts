import { Args } from '@oclif/core'
import { BaseCommand } from '../../../lib/command-kit/base.js'
import { relayStoreFlags } from '../../../lib/command-kit/relay-flags.js'
import type { IO } from '../../../lib/output/io.js'
import { checkRelayName, revokeRelayToken, withRelayStore } from '../../../lib/services/relay-admin.js'

export default class RelayTokenRevoke extends BaseCommand<typeof RelayTokenRevoke, { name: string; revoked: true }> {
  static override summary = 'Revoke a listener token: its open stream is closed within a second, and it is refused from then on.'
  static override description = 'Idempotent (revoking a revoked token succeeds). Exit 4 when there is no token of that name. Its name stays taken.'
  static override examples = ['<%= config.bin %> relay token revoke alice', '<%= config.bin %> relay token revoke alice --data /var/lib/svc-relay --json']
  static override args = { name: Args.string({ description: 'Token name.', required: true }) }
  static override flags = { ...relayStoreFlags }

  async run(): Promise<{ name: string; revoked: true }> {
    const { flags, args, io } = this
    const name = checkRelayName(args.name, 'name')
    return withRelayStore({ data: flags.data, store: flags.store, env: io.env }, (store) => revokeRelayToken(store, name, this.now()))
  }

  protected override render(result: { name: string }, io: IO): void {
    io.out(`${result.name}\n`)
  }
}
