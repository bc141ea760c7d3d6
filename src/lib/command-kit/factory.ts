/**
 * What a command gets from outside instead of reaching for a module global (gh's Factory): the
 * terminal it writes to, the clock its waits and timestamps run on, its credentials and stored
 * profiles (config), the webhook event log, and how it makes its API and panel clients. One factory per run: the binary's run gets the system's (`systemFactory()`), a
 * test hands its own parts to that one run (`runCommand(Cmd, argv, { factory })`, through
 * `BaseCommand.runWith`) instead of mocking modules or overriding a global: a clock that moves
 * only when a wait sleeps, a client whose retry back-off is recorded instead of slept.
 */
import type { ApiClient, ClientOptions } from '../api/types.js'
import type { WaitClock } from '../charges/wait.js'
import type { CredentialFlags, Credentials } from '../config/resolve.js'
import { type OpenProfiles, ProfileStore } from '../config/store.js'
import { getIO, type IO } from '../output/io.js'
import type { PanelClient, PanelTarget } from '../sandbox-client/panel-client.js'
import type { EventStore } from '../webhooks/event-store.js'

export interface CommandFactory {
  /** The terminal: stdout, stderr, stdin, env, TTY-ness and colours. */
  io: IO
  /** The clock of `--wait` and other polls, and of every "now" a command needs. */
  clock: WaitClock
  /** An API client (loaded lazily: undici only when a command makes a request). */
  newApiClient: (opts: ClientOptions) => Promise<ApiClient>
  /** A client of the sandbox's panel API. */
  newPanelClient: (target: PanelTarget) => Promise<PanelClient>
  /** The API key and base URL from the flags, the terminal's environment and the profiles (config/resolve.ts). */
  resolveCredentials: (flags: CredentialFlags) => Promise<Credentials>
  /**
   * The stored profiles to read and write (config/store.ts's `ProfileStore.open`: the 0600 file,
   * the 0700 dir, no foreign symbolic link), opened when first asked for and then the same store
   * for the rest of the run; `tolerate` (profiles remove) opens its own once.
   */
  openProfiles: OpenProfiles
  /** The stored profiles for reading only: nothing is created (`ProfileStore.read`). */
  readProfiles: () => ProfileStore
  /** The webhook event log `webhooks listen` writes, where the terminal's environment puts it (webhooks/event-store.ts). */
  openEventStore: () => Promise<EventStore>
}

export const systemClock: WaitClock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }

/** The process's factory, with what a caller (a test) handed in for this run on top. */
export function systemFactory(parts: Partial<CommandFactory> = {}): CommandFactory {
  const io = parts.io ?? getIO()
  const opened = new Map<string, Promise<ProfileStore>>()
  return {
    io,
    clock: systemClock,
    newApiClient: async (opts) => (await import('../api/client.js')).createClient(opts),
    newPanelClient: async (target) => new (await import('../sandbox-client/panel-client.js')).PanelClient(target),
    resolveCredentials: async (flags) => (await import('../config/resolve.js')).resolveCredentials(flags, io.env),
    openProfiles: (opts = {}) => {
      const key = opts.tolerate ?? ''
      let store = opened.get(key)
      if (!store) {
        store = ProfileStore.open(io.env, opts)
        opened.set(key, store)
      }
      return store
    },
    readProfiles: () => ProfileStore.read(io.env),
    // node:sqlite loads only for the commands that read the log.
    openEventStore: async () => (await import('../webhooks/event-store.js')).EventStore.open({ env: io.env }),
    ...parts,
  }
}
