/**
 * `svc-cli/sandbox`: the local sandbox of the Pix charge service inside your own test suite. The
 * same emulator `svc sandbox start` runs (every endpoint, both environments, signed webhooks with
 * retries), started in your process on a free loopback port, in memory by default.
 *
 * @example
 * ```ts
 * import { startSandbox, type SandboxHandle } from 'svc-cli/sandbox'
 * import { afterAll, beforeAll, expect, it } from 'vitest'
 *
 * let sandbox: SandboxHandle
 * beforeAll(async () => {
 *   sandbox = await startSandbox()
 *   await sandbox.setWebhookUrl(`${myApp.url}/webhooks`)
 * })
 * afterAll(() => sandbox.close())
 *
 * it('releases the order once the charge settles', async () => {
 *   const { resources } = await sandbox.trigger('charge.settled', { externalId: 'order-42' })
 *   await sandbox.waitForDelivery((d) => d.type === 'charge.settled' && d.state === 'succeeded')
 *   expect(myApp.releasedOrders()).toEqual(['order-42'])
 * })
 * ```
 *
 * @packageDocumentation
 */
// First: on an old Node this throws one clear Error before undici or node:sqlite is reached (see node-guard.ts).
import './node-guard.js'
import type { Environment, Charge } from '../lib/contract/schemas.js'
import type { DeliveryRecord } from '../lib/contract/panel.js'
import type { EventType } from '../lib/contract/event-types.js'
import type { AdvanceTarget } from '../lib/domain/charge-states.js'
import { parseDuration } from '../lib/domain/time.js'
import { valueOverride } from '../lib/scenarios/fixture.js'

import { SandboxClock } from '../lib/sandbox/engine/clock.js'
import { checkWebhookFaults, type WebhookFaultsSpec } from '../lib/sandbox/faults/spec.js'
import { runTrigger, triggerSummary } from '../lib/services/trigger.js'
import { createClient as createSvcClient, type SvcClient } from './client.js'

export type { Charge } from '../lib/contract/schemas.js'
export type { DeliveryRecord as Delivery, AttemptRecord as DeliveryAttempt } from '../lib/contract/panel.js'
export type { TriggeredEvent, TriggeredResource } from '../lib/services/trigger.js'
export type { SvcClient } from './client.js'
export type { WebhookFaultsSpec } from '../lib/sandbox/faults/spec.js'

export interface StartSandboxOptions {
  /** Port on 127.0.0.1 (default 0: any free port; read `baseUrl`). */
  port?: number
  /** Keep nothing on disk (default, unless `dataDir` is given). */
  inMemory?: boolean
  /** Directory for the sandbox database, kept across starts (keys, secret, charges). */
  dataDir?: string
  /**
   * The sandbox clock. `manual: true` moves only through `clock.advance()` (deterministic tests:
   * expiries, settlements and webhook retries happen exactly when you advance past them);
   * `start` sets its first instant; `speed` makes it run faster than the wall clock.
   */
  clock?: { manual?: boolean; start?: Date | number | string; speed?: number }
  /** Share of API requests (0 to 1) answered with a fault: 500/503, dropped connections, slow answers. */
  chaos?: number
  /** One line per request and event, e.g. `console.error` (default: silent). */
  log?: (line: string) => void
  /**
   * Webhook faults to inject, each a share from 0 to 1 of the events (`delay`: every first
   * attempt, ms or `'2s'`): `duplicate` delivers an event twice (signed afresh), `reorder` holds
   * one back until the next event of its resource went out, `lose` never sends it, `failFirst`
   * fails its first attempt as a network error so the retry schedule runs. The delivery log marks
   * what was injected (`injected` on a delivery and on its attempts); a lost delivery's `state` is
   * `lost` (never `succeeded`), an event held back is listed as `held` until it goes out. Faults
   * hit the `test` environment only: `live` is delivered untouched.
   */
  webhookFaults?: WebhookFaultsSpec
  /**
   * A number: the seed of the webhook fault sequence (the same seed and the same events give the
   * same faults). A file path or an object: a state exported by `svc sandbox export` to start
   * from (same ids, keys, webhook secret and clock; the clock starts where it stood unless
   * `clock.start` says otherwise).
   */
  seed?: number | string | object
}

export interface DeliveryFilter {
  /** Only this environment's deliveries (default: both). */
  env?: Environment
  /** Only the deliveries of this event. */
  eventId?: string
  /** Only this event type. */
  type?: string
}

export interface TriggerResult {
  /** The events the trigger made the sandbox emit, in order. */
  events: Array<{ id: string; type: string; environment: string }>
  /** The resources it made or moved (charges, withdrawals, product sales), as last seen. */
  resources: Array<{ object: 'charge' | 'withdrawal' | 'product_sale'; id: string; status?: string; environment?: string }>
}

/** A running sandbox. Close it when done (`afterAll(() => sandbox.close())`). */
export interface SandboxHandle {
  /** Where it serves, e.g. `http://127.0.0.1:53124`: your client's base URL. */
  readonly baseUrl: string
  /** A `svc_test_` key. */
  readonly testKey: string
  /** A `svc_live_` key (the sandbox's live environment is as fake as its test one). */
  readonly liveKey: string
  /** The secret every delivery is signed with (both environments): give it to `verifyWebhook`. */
  readonly webhookSecret: string
  /**
   * A `svc-cli/client` client of this sandbox, bound to its `testKey` (default) or `liveKey`: the
   * client your code uses against the real service, pointed here. The sandbox closes it on `close()`.
   *
   * @example
   * ```ts
   * const charge = await sandbox.client().charges.create({ amountInCents: 1500, payerTaxNumber: '12345678909' })
   * ```
   */
  client(env?: Environment): SvcClient
  /** The seed of the webhook fault sequence (when faults are on): pass it as `seed` to replay them. */
  readonly webhookFaultsSeed?: number
  /**
   * The whole state (as `svc sandbox export` writes it), to start another sandbox from with `seed`.
   * Without `includeLiveSecrets` it holds no live key and no webhook secret (that secret signs live
   * deliveries too): a sandbox seeded from it makes new ones. With it, the seeded sandbox is the same one.
   */
  exportState(opts?: { includeLiveSecrets?: boolean }): Promise<object>
  /** Sets (and reactivates) the webhook URL of an environment (default `test`). */
  setWebhookUrl(url: string, env?: Environment): Promise<void>
  /** Moves a test charge (spec 4.7): `paid_pending_settlement`, `settled`, `expired` or `refunded`; one event per state passed. */
  advance(chargeId: string, status: AdvanceTarget): Promise<Charge>
  /**
   * Makes the sandbox emit an event of `type` (any of the 14 of spec 6.3) through its delivery
   * pipeline, as `svc trigger` does. `overrides` set fields of the request body the trigger sends
   * (e.g. `{ amountInCents: 2500, externalId: 'order-42', 'metadata.order': '42' }`).
   */
  trigger(type: EventType, overrides?: Record<string, unknown>, opts?: { env?: Environment }): Promise<TriggerResult>
  /** The sandbox clock. */
  readonly clock: {
    now(): Date
    /** Moves it forward (`'25h'`, `'90s'` or milliseconds); what falls due (expiries, settlements, retries) has run when it resolves. */
    advance(duration: string | number): Promise<Date>
  }
  /** The delivery log (spec 6.4 item 9), newest first. */
  deliveries(filter?: DeliveryFilter): Promise<DeliveryRecord[]>
  /** Resolves with the first delivery matching `predicate` (polling the log), or rejects after `timeoutMs` (default 5000). */
  waitForDelivery(predicate: (d: DeliveryRecord) => boolean, timeoutMs?: number): Promise<DeliveryRecord>
  /** Empties the data (charges, events, deliveries, withdrawals, sales); keys, secret, plan and webhook URLs stay. */
  reset(): Promise<void>
  /** Stops it, letting deliveries in flight finish. */
  close(): Promise<void>
}

/**
 * Starts a sandbox and resolves once it serves. The library's API (its name stays): over the
 * server's `startSandboxServer` (lib/sandbox/sandbox.ts), without the profiles and data dir of the
 * `svc sandbox start` use-case, `runSandboxStart` (lib/services/sandbox-start.ts).
 */
export async function startSandbox(opts: StartSandboxOptions = {}): Promise<SandboxHandle> {
  const c = opts.clock
  const faultsSeed = typeof opts.seed === 'number' ? opts.seed : undefined
  if (faultsSeed !== undefined && !Number.isSafeInteger(faultsSeed)) throw new TypeError(`seed: ${faultsSeed} is not an integer (a number is the webhook faults' seed; a state is a file path or an object)`)
  // Loaded here, not at import: they open node:sqlite, whose absence on an old Node a static import
  // would report at link time, before node-guard.ts runs.
  const state = opts.seed === undefined || typeof opts.seed === 'number' ? undefined : await (await import('../lib/sandbox/state/state.js')).loadState(opts.seed)
  const webhookFaults = opts.webhookFaults === undefined ? undefined : checkWebhookFaults(opts.webhookFaults)
  // Without clock options the sandbox keeps its own (its lead over the wall clock persists in a data dir).
  const start = c?.start !== undefined ? new Date(c.start).getTime() : state ? Date.parse(state.clock.now) : undefined
  const own = c === undefined ? undefined : new SandboxClock({ manual: c.manual, speed: c.speed, start })
  const { startSandboxServer } = await import('../lib/sandbox/sandbox.js')
  const core = await startSandboxServer({
    port: opts.port ?? 0,
    inMemory: opts.inMemory ?? opts.dataDir === undefined,
    dataDir: opts.dataDir,
    clock: own,
    chaos: opts.chaos,
    log: opts.log,
    webhookFaults,
    webhookFaultsSeed: faultsSeed,
    state,
  })
  const clock = core.clock
  // The same clients the CLI uses: the panel's (PanelClient) and the API's (created per call, closed after).
  const { PanelClient } = await import('../lib/sandbox-client/panel-client.js')
  const panel = new PanelClient({ baseUrl: core.baseUrl, apiKey: core.testKey })
  const { createClient } = await import('../lib/api/client.js')
  const withApi = async <T>(apiKey: string, fn: (c: ReturnType<typeof createClient>) => Promise<T>): Promise<T> => {
    const c = createClient({ apiKey, baseUrl: core.baseUrl, userAgent: 'svc-cli/sandbox' })
    try {
      return await fn(c)
    } finally {
      await c.close()
    }
  }
  let closed = false
  const svcClients: SvcClient[] = []

  const handle: SandboxHandle = {
    baseUrl: core.baseUrl,
    testKey: core.testKey,
    liveKey: core.liveKey,
    webhookSecret: core.webhookSecret,
    client(env = 'test') {
      if (env !== 'test' && env !== 'live') throw new TypeError(`client: env must be 'test' or 'live', not ${JSON.stringify(env)}`)
      const c = createSvcClient({ apiKey: env === 'live' ? core.liveKey : core.testKey, baseUrl: core.baseUrl })
      svcClients.push(c)
      return c
    },
    ...(core.webhookFaults ? { webhookFaultsSeed: core.webhookFaults.seed } : {}),
    exportState: (opts) => panel.exportState(opts),
    async setWebhookUrl(url, env = 'test') {
      await panel.setWebhook(url, env)
    },
    advance(chargeId, status) {
      return withApi(core.testKey, (c) => c.advanceCharge(chargeId, status))
    },
    async trigger(type, overrides = {}, o = {}) {
      const clients: Array<{ close(): Promise<void> }> = []
      const session = async () => ({
        keys: { test: core.testKey, live: core.liveKey },
        source: 'the sandbox',
        clientFor: async (apiKey: string) => {
          const client = createClient({ apiKey, baseUrl: core.baseUrl, userAgent: 'svc-cli/sandbox' })
          clients.push(client)
          return client
        },
      })
      try {
        const list = Object.entries(overrides).map(([path, value]) => valueOverride(path, value))
        return triggerSummary(await runTrigger({ type, overrides: list, env: o.env as Environment | undefined, keyEnv: 'test', session }))
      } finally {
        await Promise.all(clients.map((cl) => cl.close()))
      }
    },
    clock: {
      now: () => clock.nowDate(),
      async advance(duration) {
        const ms = typeof duration === 'number' ? duration : parseDuration(duration)
        if (ms === undefined || !Number.isFinite(ms) || ms < 1) throw new TypeError(`clock.advance: ${JSON.stringify(duration)} is not a duration such as '90s', '25h' or a number of milliseconds`)
        const { now } = await panel.advanceClock(Math.round(ms))
        return new Date(now)
      },
    },
    async deliveries(filter = {}) {
      const envs = filter.env ? [filter.env] : (['test', 'live'] as const)
      const lists = await Promise.all(envs.map((env) => panel.listDeliveries({ env, eventId: filter.eventId, limit: 1000 }).then((r) => r.data)))
      return lists
        .flat()
        .filter((d) => filter.type === undefined || d.type === filter.type)
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    },
    async waitForDelivery(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      let seen: DeliveryRecord[] = []
      for (;;) {
        seen = await handle.deliveries()
        const found = seen.find(predicate)
        if (found) return found
        if (Date.now() >= deadline) {
          const summary = seen.slice(0, 10).map((d) => `${d.type} ${d.eventId} ${d.state} (${d.attempts} attempt${d.attempts === 1 ? '' : 's'})`)
          throw new Error(`waitForDelivery: no delivery matched within ${timeoutMs} ms; the log holds ${seen.length}${summary.length ? `:\n  ${summary.join('\n  ')}` : ''}`)
        }
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    reset: () => core.reset(),
    async close() {
      if (closed) return
      closed = true
      await Promise.all(svcClients.map((c) => c.close()))
      await core.close()
      own?.stop()
    },
  }
  return handle
}
