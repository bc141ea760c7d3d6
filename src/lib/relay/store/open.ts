/**
 * The one door to a relay store, for `serve` and every admin command: `--data DIR` (node:sqlite,
 * the default) or `--store URL` (PostgreSQL). A new kind of store is one more branch here.
 */
import { join } from 'node:path'
import { type Durability, openSqliteRelayStore } from './sqlite.js'
import type { RelayStore } from './types.js'

export interface OpenRelayStoreOptions {
  /** The SQLite data dir; default `defaultDir`. */
  data?: string
  /** A store URL (`postgres://…`); wins over `data`. */
  store?: string
  /** Where `data` defaults to: `<svc config dir>/relay`, given by the caller (the relay reads no config). */
  defaultDir: string
  durability?: Durability
  /** PostgreSQL: this process's name in pg_stat_activity (default svc-relay). */
  applicationName?: string
}

export class RelayStoreUnsupported extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message)
    this.name = 'RelayStoreUnsupported'
  }
}

export async function openRelayStore(opts: OpenRelayStoreOptions): Promise<RelayStore> {
  if (opts.store !== undefined) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(opts.store)?.[1]?.toLowerCase()
    if (scheme === 'postgres' || scheme === 'postgresql') {
      // Loaded only now: pg and the PostgreSQL store cost the other commands nothing at start-up.
      const { openPostgresRelayStore } = await import('./postgres.js')
      return openPostgresRelayStore(opts.store, opts.applicationName ? { applicationName: opts.applicationName } : {})
    }
    throw new RelayStoreUnsupported(`--store takes a postgres:// URL (got ${scheme ? `${scheme}:` : 'no scheme'})`, 'store')
  }
  return openSqliteRelayStore({ dir: opts.data ?? opts.defaultDir, durability: opts.durability })
}

/** `<config dir>/relay`: where `--data` defaults to. */
export function defaultRelayDir(configDir: string): string {
  return join(configDir, 'relay')
}
