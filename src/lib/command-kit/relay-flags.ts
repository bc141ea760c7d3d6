/**
 * The flags every `svc relay` admin command shares: where the relay's store is. They open the
 * store on the relay's host (there is no remote admin API), so they run where `serve` runs.
 */
import { Flags } from '@oclif/core'

export const relayStoreFlags = {
  data: Flags.string({ description: "The relay's data dir (SQLite store; default: <config dir>/relay).", helpValue: 'DIR', exclusive: ['store'] }),
  store: Flags.string({ description: 'A PostgreSQL store instead of --data (or SVC_RELAY_STORE).', helpValue: 'URL', exclusive: ['data'] }),
}

export const publicUrlFlag = Flags.string({
  description: 'The URL the service reaches the relay at, for the channel URLs printed (or SVC_RELAY_PUBLIC_URL; default http://127.0.0.1:8080).',
  helpValue: 'URL',
})

export const DEFAULT_RELAY_URL = 'http://127.0.0.1:8080'
