/**
 * `startSandboxServer`: the emulator composed — database, store, clock, charge engine, delivery
 * worker, panel routes and the HTTP server. On the first start it creates the merchant, a
 * `svc_test_` and a `svc_live_` key and the webhook secret, kept in the database and reused
 * on every restart, with the sandbox clock's lead over the wall clock.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { safeText } from '../output/safe-text.js'
import { packageVersion } from '../config/package.js'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { createAdmin } from './engine/admin.js'
import { Chaos } from './http/chaos.js'
import { SandboxClock } from './engine/clock.js'
import { Checkpointer } from './store/checkpointer.js'
import { DB_FILE, openDatabase } from './store/db.js'
import { GroupCommit } from './store/group-commit.js'
import { WebhookDeliveries } from './deliveries/worker.js'
import { ChargeEngine } from './engine/engine.js'
import { handlePanelRequest } from './http/panel-routes.js'
import { ProductSales } from './engine/product-sales.js'
import { Withdrawals } from './engine/withdrawals.js'
import { WebPanel } from './web/web-panel.js'
import type { EventSink, StoredEvent } from './types.js'
import { RateLimiter } from './http/rate-limit.js'
import { createSandboxServer } from './http/server.js'
import { SandboxStore } from './store/store.js'
import type { DatabaseSync } from 'node:sqlite'
import { describeWebhookFaults, faultsOn } from './faults/spec.js'
import { randomSeed, WebhookFaults } from './faults/webhook-faults.js'
import { exportState, hasState, type SandboxState, SandboxStateError, seedState, unseedState } from './state/state.js'
import type { DeliveryWorker, RunningSandbox, SandboxContext, SandboxStartOptions } from './types.js'

export const DEFAULT_PORT = 8787
export const DEFAULT_RATE_LIMIT_PER_SECOND = 100
const CLOCK_LEAD_META = 'clock_lead_ms'

/** The longest line the sandbox logs; a longer one (a value from outside) is cut, saying how much. */
export const MAX_LOG_LINE = 2000

/** What a failed start must undo: the database it opened, whether it wrote a seed into it. */
interface StartHooks {
  db?: DatabaseSync
  seeded?: boolean
}

/**
 * The server layer's start: composes and listens, nothing else. One of three "start a sandbox":
 * the use-case `runSandboxStart` (services/sandbox-start.ts, `svc sandbox start`: profiles, data
 * dir, state file) and the library's `startSandbox` (public/sandbox.ts) both call this one.
 *
 * Seeding is all or nothing: a start from a state that fails anywhere (a refused state, a busy
 * port, a restore that throws) leaves the data dir as it was — a dir it made is removed, database
 * files it made are removed, and a database that was there (empty) is emptied of the seed again.
 */
export async function startSandboxServer(opts: SandboxStartOptions = {}): Promise<RunningSandbox> {
  const log = safeLog(opts.log)
  const undo = opts.state && opts.dataDir && !opts.inMemory ? dataDirUndo(opts.dataDir) : undefined
  const hooks: StartHooks = {}
  try {
    return await compose(opts, log, hooks)
  } catch (err) {
    if (undo) {
      try {
        hooks.db?.close()
      } catch {
        // closed already by the step that failed
      }
      undo(hooks.seeded === true)
    }
    throw err
  }
}

/** Every line through safe-text (escapes shown, never obeyed) and cut at MAX_LOG_LINE. */
export function safeLog(sink: ((line: string) => void) | undefined): (line: string) => void {
  if (!sink) return () => {}
  return (line) => {
    const text = line.length > MAX_LOG_LINE ? `${line.slice(0, MAX_LOG_LINE)}… (${line.length - MAX_LOG_LINE} more characters)` : line
    sink(safeText(text))
  }
}

/** Notes what the data dir holds now; the function it returns puts it back so. */
function dataDirUndo(dir: string): (seeded: boolean) => void {
  const existed = existsSync(dir)
  const before = new Set(existed ? readdirSync(dir) : [])
  return (seeded) => {
    if (!existed) {
      rmSync(dir, { recursive: true, force: true })
      return
    }
    for (const name of readdirSync(dir)) if (!before.has(name) && name.startsWith(DB_FILE)) rmSync(join(dir, name), { force: true })
    if (seeded && before.has(DB_FILE)) {
      const db = openDatabase({ dataDir: dir })
      try {
        unseedState(db)
      } finally {
        db.close()
      }
    }
  }
}

async function compose(opts: SandboxStartOptions, log: (line: string) => void, hooks: StartHooks): Promise<RunningSandbox> {
  const db = openDatabase({ dataDir: opts.dataDir, inMemory: opts.inMemory })
  hooks.db = db
  if (opts.state) {
    seedInto(db, opts.state, opts.dataDir)
    hooks.seeded = true
  }
  const writes = new GroupCommit(db)
  const store = new SandboxStore(db, writes)
  const checkpointer = opts.inMemory || !opts.dataDir ? undefined : new Checkpointer(db, join(opts.dataDir, DB_FILE), writes, log)
  const ownsClock = opts.clock === undefined
  // A clock moved ahead (`clock advance 25h`) stays ahead after a restart, a kill -9 included:
  // its lead is saved at every advance, before the work the advance makes due, and the clock
  // never starts before the latest instant already stored (a fast clock's lead is not saved).
  const wallStart = Date.now()
  const lead = Math.max(0, Number(store.getMeta(CLOCK_LEAD_META) ?? '0'), (store.latestInstant() ?? 0) - wallStart)
  // Seeded: the clock starts where the exported one stood.
  const start = opts.state ? Date.parse(opts.state.clock.now) : wallStart + lead
  const clock = opts.clock ?? new SandboxClock({ speed: opts.speed, start })
  if (ownsClock) clock.onAdvance = (now) => store.setMeta(CLOCK_LEAD_META, String(now - Date.now()))
  const { merchant, testKey, liveKey } = store.ensureMerchant(clock.nowDate().toISOString())
  store.clearUnfinishedIdempotency()

  // Live pages of the web panel refresh when an event is published or a delivery attempt ends.
  let web: WebPanel | undefined
  const ctx: SandboxContext = { db, clock, log, webhookSecret: merchant.webhookSecret, writes, onActivity: () => web?.changed() }
  // Webhook faults are a layer around the worker, installed only when some fault is on.
  const faults = opts.webhookFaults && faultsOn(opts.webhookFaults) ? new WebhookFaults(opts.webhookFaults, opts.webhookFaultsSeed ?? randomSeed(), clock, log) : undefined
  const deliveries: DeliveryWorker = opts.deliveries ? opts.deliveries(ctx) : new WebhookDeliveries(ctx, faults ? { wrapSend: (send) => faults.sender(send) } : {})
  const toWorker: EventSink = faults ? faults.sink(deliveries) : deliveries
  // What the panels list: with faults, the events they hold back show as `held`.
  const shown: DeliveryWorker = faults ? faults.showHeld(deliveries) : deliveries
  const sink: EventSink = {
    publish(event: StoredEvent) {
      toWorker.publish(event)
      web?.changed()
    },
  }
  let baseUrl = ''
  const engine = new ChargeEngine({ store, clock, sink, log, baseUrl: () => baseUrl, beforeChargeInsert: opts.beforeChargeInsert })
  const withdrawals = new Withdrawals({ store, clock, sink })
  const productSales = new ProductSales({ store, clock, sink })
  const admin = createAdmin(store, clock, () => {
    engine.restoreTimers()
    void clock.tick()
  })
  web = new WebPanel({ store, engine, deliveries: shown, admin, clock, port: () => Number(new URL(baseUrl).port), ownHost: () => new URL(baseUrl).hostname, withdrawals, productSales })
  const reset = async (): Promise<void> => {
    engine.reset()
    withdrawals.reset()
    faults?.reset()
    await deliveries.reset?.()
    writes.flush()
    store.reset()
    log('sandbox data reset: charges, events, deliveries, withdrawals and sales emptied; keys, secret, plan and webhook URLs kept')
  }
  const panelDeps = {
    deliveries: shown,
    admin,
    clock,
    reset,
    panelLink: () => web!.ticketUrl(baseUrl),
    exportState: async () => {
      await deliveries.flush?.()
      writes.flush()
      return exportState(db, clock.now())
    },
    resources: { store, engine, withdrawals, productSales },
  }

  const server = createSandboxServer({
    store,
    engine,
    withdrawals,
    deliveries: shown,
    clock,
    merchant,
    rateLimiter: new RateLimiter(opts.rateLimitPerSecond ?? DEFAULT_RATE_LIMIT_PER_SECOND),
    chaos: new Chaos({ rate: opts.chaos ?? 0, seed: opts.chaosSeed }),
    chaosSlowMs: opts.chaosSlowMs ?? 3000,
    version: opts.version ?? packageVersion(),
    instance: opts.instance,
    log,
    baseUrl: () => baseUrl,
    panel: (req) => handlePanelRequest(req, panelDeps),
    web,
    timeouts: opts.serverTimeouts,
  })
  try {
    const address = await listen(server, opts.port ?? DEFAULT_PORT, opts.host ?? '127.0.0.1')
    baseUrl = urlOf(address)
  } catch (err) {
    await deliveries.close().catch(() => {})
    writes.flush()
    await checkpointer?.stop()
    db.close()
    throw err
  }

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= (async () => {
      engine.stop()
      withdrawals.stop()
      web?.close()
      await closeServer(server)
      await deliveries.close()
      store.setMeta(CLOCK_LEAD_META, String(clock.now() - Date.now()))
      if (ownsClock) clock.stop()
      writes.flush()
      await checkpointer?.stop()
      db.close()
    })()
    return closing
  }

  try {
    // Expiries and settlements that fell due while the sandbox was stopped run now.
    engine.restoreTimers()
    withdrawals.restoreTimers()
    deliveries.restore?.()
    await clock.tick()
  } catch (err) {
    await close().catch(() => {})
    throw err
  }
  log(`sandbox listening on ${baseUrl}`)
  if (opts.state) log(`sandbox seeded from a state exported at ${opts.state.exportedAt}; its clock starts at ${opts.state.clock.now}`)
  if (faults) log(`webhook faults on: ${describeWebhookFaults(faults.rates)} (seed ${faults.seed}; --seed ${faults.seed} replays them)`)

  const webhookFaults = faults ? { description: describeWebhookFaults(faults.rates), seed: faults.seed } : undefined
  return { baseUrl, testKey, liveKey, webhookSecret: merchant.webhookSecret, clock, admin, reset, panelUrl: web.entryUrl(baseUrl), close, ...(webhookFaults ? { webhookFaults } : {}) }
}

/** Writes an exported state into a database that holds no sandbox yet (closed on refusal). */
function seedInto(db: DatabaseSync, state: SandboxState, dataDir: string | undefined): void {
  try {
    if (hasState(db)) {
      throw new SandboxStateError(`the data dir ${dataDir} already holds a sandbox: seeding would mix two states. Seed into an empty data dir (--data NEW_DIR) or --in-memory, or move ${dataDir} away first.`, 'seed')
    }
    seedState(db, state)
  } catch (err) {
    db.close()
    throw err
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve(server.address() as AddressInfo)
    })
  })
}

function urlOf(address: AddressInfo): string {
  const wildcard = address.address === '0.0.0.0' || address.address === '::'
  const host = wildcard ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

/** Stops accepting, lets answers in progress finish (briefly), then cuts what is left. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  const cutoff = setTimeout(() => server.closeAllConnections(), 1000)
  await closed
  clearTimeout(cutoff)
}

/** Empties the data of a sandbox that is not running (as `reset()` does for a running one). */
export function resetDataDir(dataDir: string): void {
  const db = openDatabase({ dataDir })
  try {
    new SandboxStore(db).reset()
  } finally {
    db.close()
  }
}
