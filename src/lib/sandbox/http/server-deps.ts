/**
 * What the sandbox's HTTP face is given (the assembly, sandbox.ts, builds it): the core, the
 * clock, the chaos and rate limits, and the panel surfaces. Its own module so that server.ts and
 * the route tables it serves (api-routes.ts) both read it without importing each other.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ServerTimeouts } from '../../net/server-guard.js'
import type { SandboxClock } from '../engine/clock.js'
import type { ChargeEngine } from '../engine/engine.js'
import type { Withdrawals } from '../engine/withdrawals.js'
import type { Merchant, SandboxStore } from '../store/store.js'
import type { DeliveryWorker, PanelRequest, PanelResponse } from '../types.js'
import type { Chaos } from './chaos.js'
import type { RateLimiter } from './rate-limit.js'

export interface SandboxServerDeps {
  store: SandboxStore
  engine: ChargeEngine
  withdrawals: Withdrawals
  deliveries: DeliveryWorker
  clock: SandboxClock
  merchant: Merchant
  rateLimiter: RateLimiter
  chaos: Chaos
  chaosSlowMs: number
  version: string
  /** The nonce of this start, echoed by `/_sandbox/info` so `svc sandbox stop` proves whose pid it signals. */
  instance?: string
  log: (line: string) => void
  baseUrl: () => string
  /** The web panel under `/panel/` (its own guard: loopback, Host, session cookie, CSRF). */
  web?: { handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> }
  /** The panel routes under `/_sandbox/` (authenticated by any valid key of this sandbox). */
  panel?: (req: PanelRequest) => Promise<PanelResponse>
  /** Deadlines for a request to arrive (default: net/server-guard's; tests shorten them). */
  timeouts?: Partial<ServerTimeouts>
}
