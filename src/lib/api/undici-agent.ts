/**
 * undici's Agent without undici's index: the index also loads fetch, WebSocket, the cache, the
 * mock agent and more (a large share of every API command's start); the Agent alone is a
 * third of that. Requests go through `dispatch` (the Agent's own API; `request` and friends are
 * added by the index). undici has no "exports" map, so the path is reachable; the client's tests
 * load it, so an undici that moves it fails there.
 */
import { createRequire } from 'node:module'
import type { Agent as UndiciAgent, Dispatcher } from 'undici'

/** What the CLI uses of an Agent. */
export type LeanAgent = Pick<Dispatcher, 'dispatch' | 'close' | 'destroy'>

let AgentClass: typeof UndiciAgent | undefined

export function createAgent(opts: UndiciAgent.Options): LeanAgent {
  AgentClass ??= createRequire(import.meta.url)('undici/lib/dispatcher/agent.js') as typeof UndiciAgent
  return new AgentClass(opts)
}
