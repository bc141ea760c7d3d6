/**
 * Seams between the sandbox's parts: the core (server, store, engine) and the webhook delivery
 * worker and panel routes. The sandbox depends on contract/ and domain/, never on the client in
 * api/ that it exists to test.
 */
import type { DatabaseSync } from 'node:sqlite'
import type { ServerTimeouts } from '../net/server-guard.js'
import type { SandboxClock } from './engine/clock.js'

import type { AccountSettings, DeliveryRecord, SandboxKey, WebhookEndpoint } from '../contract/panel.js'

export type { AccountSettings, SandboxKey, WebhookEndpoint }
import type { GroupCommit } from './store/group-commit.js'
import type { SandboxState } from '../contract/sandbox-state.js'
import type { WebhookFaultRates } from './faults/spec.js'
import type { Environment } from '../contract/schemas.js'

/** An event as stored and delivered: `body` is the exact JSON text sent (signed as is). */
export interface StoredEvent {
  id: string
  type: string
  environment: Environment
  createdAt: string
  body: string
  /**
   * The resource the event is about, as `<kind>:<id>` (`charge:…`, `withdrawal:…`); absent for
   * `charge.test`. The first attempts of one resource's events go out in order.
   */
  resourceKey?: string
}

/** Where the engine publishes every event (the delivery worker implements it). */
export interface EventSink {
  publish(event: StoredEvent): void
}

export interface SandboxContext {
  db: DatabaseSync
  clock: SandboxClock
  /** One line to the sandbox's log (stderr of `svc sandbox start`). */
  log: (line: string) => void
  /** The merchant's webhook secret (one per sandbox, both environments). */
  webhookSecret: string
  /** Told when a delivery attempt ended (the web panel's live pages refresh). */
  onActivity?: () => void
  /** The sandbox's group commit, shared so that a turn's creations and delivery rows make one commit (default: the worker's own). */
  writes?: GroupCommit
}

export interface PanelRequest {
  method: string
  /** Path below `/_sandbox`, e.g. `/webhook`, `/deliveries/evt_…/resend`. */
  path: string
  query: URLSearchParams
  body: unknown
  /** Environment of the key that authenticated the request, or `?env=` when given. */
  environment: Environment
}

export interface PanelResponse {
  status: number
  body: unknown
}

export interface SandboxStartOptions {
  port?: number
  host?: string
  /** Directory for sandbox.db and the keys; ignored with inMemory. */
  dataDir?: string
  inMemory?: boolean
  speed?: number
  /** Fault rate in [0, 1]: 500/503, dropped connections, slow answers. */
  chaos?: number
  clock?: SandboxClock
  log?: (line: string) => void
  /** Requests per second per key before 429 (default generous; tests lower it). */
  rateLimitPerSecond?: number
  /** Seed of the chaos fault sequence, so a run can be replayed (default: random). */
  chaosSeed?: number
  /** How long a chaos "slow answer" waits on the wall clock, in ms (default 3000). */
  chaosSlowMs?: number
  /** Builds the delivery worker (default: the one of deliveries.ts); tests may inject a recorder. */
  deliveries?: (ctx: SandboxContext) => DeliveryWorker
  /**
   * Test hook: runs while a charge creation is reserved but not yet saved, so a test can hold
   * it open and send the concurrent duplicate that gets 409 `charge_processing`.
   */
  beforeChargeInsert?: () => Promise<void> | void
  /** Version reported by `GET /_sandbox/info` (default: the package's). */
  version?: string
  /** The nonce of this start (run file), echoed as `instance` by `GET /_sandbox/info`. */
  instance?: string
  /** Deadlines for a request to arrive (slow-loris guard); tests shorten them. */
  serverTimeouts?: Partial<ServerTimeouts>
  /** Webhook faults to inject (faults/); none on: no faults layer at all. */
  webhookFaults?: WebhookFaultRates
  /** Seed of the webhook fault sequence, so a run can be replayed (default: random, reported). */
  webhookFaultsSeed?: number
  /** A state exported by `svc sandbox export` to start from (state/): same ids, keys, secret and clock. */
  state?: SandboxState
}

/**
 * What the core and the panels need from the delivery worker (deliveries/worker.ts): events in,
 * endpoint state and the delivery log out, resends. A test's recorder implements it too.
 */
export interface DeliveryWorker extends EventSink {
  /** The environment's webhook endpoint, or undefined when no URL is configured. */
  getEndpoint(environment: Environment): WebhookEndpoint | undefined
  setEndpoint(environment: Environment, url: string): WebhookEndpoint
  /** False when there was no URL. */
  removeEndpoint(environment: Environment): boolean
  /** The delivery log, newest first. */
  list(filter?: { environment?: Environment; eventId?: string; limit?: number }): DeliveryRecord[]
  /** Sends an event's delivery again, now; undefined when there is no such delivery. */
  resend(eventId: string, environment?: Environment): { eventId: string } | undefined
  /** Waits until the deliveries due now have been attempted. */
  flush?(): Promise<void>
  /** After a (re)start: re-arms the retries kept in the database. */
  restore?(): void
  /** Stops retry timers and waits for deliveries in flight. */
  close(): Promise<void>
  /** Forgets every delivery (the sandbox's data is being emptied). */
  reset?(): Promise<void>
}

export interface RunningSandbox {
  baseUrl: string
  testKey: string
  liveKey: string
  webhookSecret: string
  clock: SandboxClock
  /** The core's panel view (keys, settings), for in-process callers such as tests. */
  admin?: SandboxAdmin
  /** Empties the data (charges, events, deliveries, withdrawals, sales); keys, secret, plan, webhook URLs and clock stay. */
  reset(): Promise<void>
  /** The web panel's URL, with this start's token: for the one who started the sandbox. */
  panelUrl: string
  /** The webhook faults injected, as `duplicate=0.1, delay=2s`, with the seed that replays them. */
  webhookFaults?: { description: string; seed: number }
  close(): Promise<void>
}

/**
 * What the panel routes need from the core (implemented over the store by the core): the
 * merchant's keys and plan settings. Keys come back in full; the panel routes mask them,
 * except in the one answer that creates a key.
 */
export interface SandboxAdmin {
  listKeys(): SandboxKey[]
  createKey(environment: Environment): SandboxKey
  /** Undefined when no such key exists (in that environment, when given). */
  revokeKey(key: string, environment?: Environment): SandboxKey | undefined
  getSettings(): AccountSettings
  updateSettings(patch: Partial<AccountSettings>): AccountSettings
}
