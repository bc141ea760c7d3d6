import { Flags } from '@oclif/core'
import { BaseCommand } from '../../lib/command-kit/base.js'
import type { IO } from '../../lib/output/io.js'
import { migrateRelayStore, type RelayMigrateResult, relayStoreUrl } from '../../lib/services/relay-migrate.js'

export default class RelayMigrate extends BaseCommand<typeof RelayMigrate, RelayMigrateResult> {
  static override summary = "Create or upgrade the relay's PostgreSQL schema (several relay instances share one store)."
  static override description =
    'Applies, in one transaction, every schema version this svc knows and the database lacks, and records each in ' +
    'svc_relay_schema_version; a second run changes nothing. Run it once before the first `svc relay serve --store URL`, and ' +
    'again after upgrading svc (serve refuses a schema older or newer than it knows, exit 2). Two migrations at once wait ' +
    'for each other. A schema newer than this svc is never downgraded (exit 2). Tables go in the first schema of the ' +
    "connection's search_path (public by default; another with ?options=-c%20search_path%3Drelay in the URL). The URL's " +
    'password is never printed. Exit 7 when PostgreSQL cannot be reached.'

  static override examples = ['<%= config.bin %> relay migrate --store postgres://relay@db.internal:5432/relay', 'SVC_RELAY_STORE=postgres://relay:$PGPASSWORD@db/relay <%= config.bin %> relay migrate --json']

  static override flags = {
    store: Flags.string({ description: 'The PostgreSQL URL of the relay store (or SVC_RELAY_STORE).', helpValue: 'URL' }),
  }

  async run(): Promise<RelayMigrateResult> {
    return migrateRelayStore(relayStoreUrl(this.flags.store, this.io.env))
  }

  protected override render(r: RelayMigrateResult, io: IO): void {
    if (r.applied.length === 0) io.out(`The relay schema of ${r.store} is at version ${r.to}: nothing to do.\n`)
    else io.out(`The relay schema of ${r.store} is at version ${r.to} (was ${r.from ?? 'none'}; applied ${r.applied.join(', ')}).\n`)
  }
}
