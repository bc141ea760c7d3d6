/**
 * `svc relay migrate --store URL`: creates or upgrades the relay's PostgreSQL schema. The URL
 * comes from the flag or SVC_RELAY_STORE; every message names it with its password masked.
 * `pg` is loaded only here (and by serve on a PostgreSQL store), never at start-up.
 */
import { CliError, EXIT, NetworkError, UsageError } from '../errors.js'
import { RelaySchemaError } from '../relay/store/postgres-schema.js'
import { isPostgresUrl, redactSecretIn, redactStoreUrl } from '../relay/store/postgres-url.js'
import { RelayStoreUnavailable } from '../relay/store/types.js'

export interface RelayMigrateResult {
  /** The store's URL, password masked. */
  store: string
  /** The version found before (null: no schema yet). */
  from: number | null
  to: number
  applied: number[]
}

/** The store URL of `--store` or SVC_RELAY_STORE, checked: a postgres:// URL (exit 2 otherwise). */
export function relayStoreUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const url = flag ?? (env.SVC_RELAY_STORE || undefined)
  if (url === undefined) throw new UsageError('--store is needed: the PostgreSQL URL of the relay store (or SVC_RELAY_STORE).', { field: 'store' })
  if (!isPostgresUrl(url)) throw new UsageError(`--store takes a postgres:// URL (got ${redactStoreUrl(url)}); the SQLite store (--data) needs no migration, serve creates it.`, { field: 'store' })
  return url
}

export async function migrateRelayStore(url: string): Promise<RelayMigrateResult> {
  const [{ connectPostgresForMigrate }, { migrate }] = await Promise.all([import('../relay/store/postgres.js'), import('../relay/store/postgres-schema.js')])
  const shown = redactStoreUrl(url)
  let client: Awaited<ReturnType<typeof connectPostgresForMigrate>>
  try {
    client = await connectPostgresForMigrate(url)
  } catch (err) {
    if (err instanceof RelayStoreUnavailable) throw new NetworkError(`${err.message} (store ${shown})`, { hint: 'Check --store: host, port, database, user; is PostgreSQL running?' })
    throw err
  }
  try {
    const r = await migrate(client)
    return { store: shown, from: r.from ?? null, to: r.to, applied: r.applied }
  } catch (err) {
    if (err instanceof RelaySchemaError) throw new CliError(err.message, { exitCode: EXIT.usage, code: 'schema_version' })
    const message = redactSecretIn(err instanceof Error ? err.message : String(err), url)
    throw new CliError(`Migrating ${shown} failed, nothing was changed: ${message}`, { code: 'migrate_failed', hint: 'The user of --store needs CREATE on the schema (search_path) it migrates.' })
  } finally {
    await client.end().catch(() => {})
  }
}
