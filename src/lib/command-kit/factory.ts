/**
 * What a command gets from outside instead of reaching for a module global (gh's Factory): the
 * clock its waits run on and how it makes its API and panel clients. The base command takes the
 * factory once, at init; a test hands in parts of another (`overrideCommandFactory`, undone after
 * every test by test/setup.ts) instead of mocking modules: a clock that moves only when a wait
 * sleeps, a client whose retry back-off is recorded instead of slept.
 * The terminal is the other seam (output/io.ts, `setIO`).
 */
import type { ApiClient, ClientOptions } from '../api/types.js'
import type { WaitClock } from '../charges/wait.js'
import type { PanelClient, PanelTarget } from '../sandbox-client/panel-client.js'

export interface CommandFactory {
  /** The clock of `--wait` and other polls. */
  clock: WaitClock
  /** An API client (loaded lazily: undici only when a command makes a request). */
  newApiClient: (opts: ClientOptions) => Promise<ApiClient>
  /** A client of the sandbox's panel API. */
  newPanelClient: (target: PanelTarget) => Promise<PanelClient>
}

export const systemFactory: CommandFactory = {
  clock: { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) },
  newApiClient: async (opts) => (await import('../api/client.js')).createClient(opts),
  newPanelClient: async (target) => new (await import('../sandbox-client/panel-client.js')).PanelClient(target),
}

let override: Partial<CommandFactory> | undefined

/** The factory a command starts with: the system's, with what a test handed in on top. */
export function commandFactory(): CommandFactory {
  return override ? { ...systemFactory, ...override } : systemFactory
}

/** For tests: replace parts of the factory until `resetCommandFactory()` (merged with earlier overrides). */
export function overrideCommandFactory(parts: Partial<CommandFactory>): void {
  override = { ...override, ...parts }
}

export function resetCommandFactory(): void {
  override = undefined
}
