/**
 * What a command gets from outside instead of reaching for a module global (gh's Factory): the
 * terminal it writes to, the clock its waits and timestamps run on, and how it makes its API and
 * panel clients. One factory per run: the binary's run gets the system's (`systemFactory()`), a
 * test hands its own parts to that one run (`runCommand(Cmd, argv, { factory })`, through
 * `BaseCommand.runWith`) instead of mocking modules or overriding a global: a clock that moves
 * only when a wait sleeps, a client whose retry back-off is recorded instead of slept.
 */
import type { ApiClient, ClientOptions } from '../api/types.js'
import type { WaitClock } from '../charges/wait.js'
import { getIO, type IO } from '../output/io.js'
import type { PanelClient, PanelTarget } from '../sandbox-client/panel-client.js'

export interface CommandFactory {
  /** The terminal: stdout, stderr, stdin, env, TTY-ness and colours. */
  io: IO
  /** The clock of `--wait` and other polls, and of every "now" a command needs. */
  clock: WaitClock
  /** An API client (loaded lazily: undici only when a command makes a request). */
  newApiClient: (opts: ClientOptions) => Promise<ApiClient>
  /** A client of the sandbox's panel API. */
  newPanelClient: (target: PanelTarget) => Promise<PanelClient>
}

export const systemClock: WaitClock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }

/** The process's factory, with what a caller (a test) handed in for this run on top. */
export function systemFactory(parts: Partial<CommandFactory> = {}): CommandFactory {
  return {
    io: parts.io ?? getIO(),
    clock: systemClock,
    newApiClient: async (opts) => (await import('../api/client.js')).createClient(opts),
    newPanelClient: async (target) => new (await import('../sandbox-client/panel-client.js')).PanelClient(target),
    ...parts,
  }
}
