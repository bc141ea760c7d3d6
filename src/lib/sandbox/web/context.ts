/**
 * What the web panel's pages and actions work with: the sandbox's parts (WebPanelDeps), the
 * request at hand (WebCall), and the panel's own few services (PanelContext), so the actions
 * (actions.ts) and the panel (web-panel.ts) share them without importing each other.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ProductPayment } from '../../contract/product-sales.js'
import type { Withdrawal } from '../../contract/withdrawals.js'
import type { SandboxClock } from '../engine/clock.js'
import type { ChargeEngine } from '../engine/engine.js'
import type { SandboxStore } from '../store/store.js'
import type { DeliveryWorker, SandboxAdmin } from '../types.js'
import type { Environment } from '../../contract/schemas.js'

export interface WebPanelDeps {
  store: SandboxStore
  engine: ChargeEngine
  deliveries: DeliveryWorker
  admin: SandboxAdmin
  clock: SandboxClock
  /** The port the sandbox listens on (Host must name it; the session cookie's name carries it). */
  port: () => number
  /** The host of the URL the sandbox prints, also allowed as Host (http/host-check.ts). */
  ownHost?: () => string
  /** The lists of the Withdrawals and Sales pages. */
  withdrawals?: { list(env: Environment): Withdrawal[] }
  productSales?: { list(): ProductPayment[] }
}

/** What a page or action is given. */
export interface WebCall {
  req: IncomingMessage
  res: ServerResponse
  env: Environment
  query: URLSearchParams
  params: Record<string, string>
  /** A POST's form (CSRF already checked); empty for a GET. */
  form: URLSearchParams
  /** Only the page's body, for the live refresh (X-Panel-Fragment: 1). */
  fragment: boolean
}

/** What an action is given besides its call: the sandbox's parts and the panel's services. */
export interface PanelContext {
  readonly deps: WebPanelDeps
  /** The CSRF token the pages' forms carry. */
  readonly csrf: string
  /** Answers an HTML page. */
  html(res: ServerResponse, status: number, text: string): void
  /** Something changed: live pages refresh. */
  changed(): void
}
