/**
 * The panel on the web (`/panel/…` on the sandbox's own port): the pages of pages.ts, live
 * updates over Server-Sent Events (live-stream.ts), and the actions behind their forms
 * (actions.ts), through the same engine, worker and admin as the API and `/_sandbox/`. One table
 * of routes; the guard (loopback, Host, session cookie, CSRF, CSP) is guard.ts, and every outside
 * string is escaped (html.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { SandboxApiError } from '../api-error.js'
import { planOf } from '../engine/plan.js'
import { redirect, send } from '../http/http-io.js'
import { type Route, Router } from '../http/router.js'

import * as actions from './actions.js'
import { FAVICON_SVG, PANEL_CSS, PANEL_JS } from './assets.js'
import type { PanelContext, WebCall, WebPanelDeps } from './context.js'
import { PanelGuard, PanelRefusal } from './guard.js'
import { layout } from './html.js'
import { LiveStream } from './live-stream.js'
import * as pages from './pages.js'
import { productSalesPage, withdrawalsPage } from './resource-pages.js'
import type { Environment } from '../../contract/schemas.js'

type WebHandler = (panel: WebPanel, call: WebCall) => void | Promise<void>

const CHARGE = ':id([0-9a-f]{24})'

/** Pages (GET) and actions (POST, from the pages' forms); adding one is a line here. */
const WEB_ROUTES: Route<WebHandler>[] = [
  { method: 'GET', pattern: '/panel/charges', handler: (p, c) => p.chargesPage(c) },
  { method: 'GET', pattern: `/panel/charges/${CHARGE}`, handler: (p, c) => p.chargePage(c) },
  { method: 'GET', pattern: '/panel/deliveries', handler: (p, c) => p.deliveriesPage(c) },
  { method: 'GET', pattern: '/panel/withdrawals', handler: (p, c) => p.withdrawalsPage(c) },
  { method: 'GET', pattern: '/panel/sales', handler: (p, c) => p.salesPage(c) },
  { method: 'GET', pattern: '/panel/webhook', handler: (p, c) => p.webhookPage(c) },
  { method: 'GET', pattern: '/panel/keys', handler: (p, c) => p.keysPage(c) },
  { method: 'GET', pattern: '/panel/account', handler: (p, c) => p.accountPage(c) },
  { method: 'GET', pattern: '/panel/clock', handler: (p, c) => p.clockPage(c) },
  { method: 'GET', pattern: '/panel/bank', handler: (p, c) => p.bankPage(c) },
  { method: 'GET', pattern: '/panel/events', handler: (p, c) => p.stream(c) },
  { method: 'POST', pattern: `/panel/charges/${CHARGE}/advance`, handler: (p, c) => actions.advanceCharge(p.context, c) },
  { method: 'POST', pattern: `/panel/charges/${CHARGE}/cancel`, handler: (p, c) => actions.cancelCharge(p.context, c) },
  { method: 'POST', pattern: '/panel/deliveries/:eventId/resend', handler: (p, c) => actions.resendDelivery(p.context, c) },
  { method: 'POST', pattern: '/panel/webhook', handler: (p, c) => actions.setWebhook(p.context, c) },
  { method: 'POST', pattern: '/panel/webhook/test', handler: (p, c) => actions.testWebhook(p.context, c) },
  { method: 'POST', pattern: '/panel/keys', handler: (p, c) => actions.createKey(p.context, c) },
  { method: 'POST', pattern: '/panel/keys/revoke', handler: (p, c) => actions.revokeKey(p.context, c) },
  { method: 'POST', pattern: '/panel/account', handler: (p, c) => actions.saveAccount(p.context, c) },
  { method: 'POST', pattern: '/panel/clock/advance', handler: (p, c) => actions.advanceClock(p.context, c) },
  { method: 'POST', pattern: '/panel/bank', handler: (p, c) => actions.pay(p.context, c) },
]
const router = new Router(WEB_ROUTES)

/** Served before sign-in (the error pages use them too). */
const ASSETS: Record<string, { type: string; text: string }> = {
  '/panel/assets/panel.js': { type: 'text/javascript; charset=utf-8', text: PANEL_JS },
  '/panel/assets/panel.css': { type: 'text/css; charset=utf-8', text: PANEL_CSS },
  // No secret in it: the browser asks for it without the panel's cookie.
  '/favicon.ico': { type: 'image/svg+xml', text: FAVICON_SVG },
}

export class WebPanel {
  private readonly guard: PanelGuard
  private readonly live = new LiveStream()
  /** What the actions are given. */
  readonly context: PanelContext

  constructor(private readonly deps: WebPanelDeps) {
    this.guard = new PanelGuard({ port: deps.port, ownHost: deps.ownHost })
    this.context = { deps, csrf: this.guard.csrf, html: (res, status, text) => this.html(res, status, text), changed: () => this.changed() }
  }

  /** The URL that opens the panel in a browser (holds the token: shown to the one who started it). */
  entryUrl(baseUrl: string): string {
    return this.guard.entryUrl(baseUrl)
  }

  /** A one-time entry (60 s) for `svc sandbox open`, which holds an API key but not the token. */
  ticketUrl(baseUrl: string): string {
    return this.guard.ticketUrl(baseUrl)
  }

  /** Something changed (an event, a delivery, a setting): live pages refresh, at most ~8 times a second. */
  changed(): void {
    this.live.changed()
  }

  close(): void {
    this.live.close()
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    this.guard.secureHeaders(res)
    try {
      await this.route(req, res, url)
    } catch (err) {
      // Every error of the panel is thrown and shaped here, once, as an HTML page.
      if (res.headersSent) return void res.destroy()
      if (err instanceof PanelRefusal) return this.html(res, err.status, pages.errorPage(err.title, err.message))
      const message = err instanceof SandboxApiError ? err.message : 'The panel hit an internal error; see the sandbox log.'
      this.html(res, err instanceof SandboxApiError ? err.status : 500, pages.errorPage('Error', message))
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET'
    this.guard.checkPlace(req)
    const path = url.pathname
    const asset = ASSETS[path]
    if (asset) return send(res, { status: 200, raw: { contentType: asset.type, bytes: Buffer.from(asset.text) }, headers: { 'cache-control': 'no-cache' } })

    const admission = this.guard.admit(req, res, url)
    if (admission) return redirect(res, admission.signedIn)
    if (path === '/panel' || path === '/panel/') return redirect(res, '/panel/charges?env=test')

    let form = new URLSearchParams()
    if (method === 'POST') form = await this.guard.form(req)
    else if (method !== 'GET' && method !== 'HEAD') throw new PanelRefusal(405, 'Method not allowed', `${method} is not used by the panel.`)
    const match = router.match(method, path)
    if (!match || !('route' in match)) throw new PanelRefusal(404, 'Not found', method === 'POST' ? `No panel action at ${path}.` : `No panel page at ${path}.`)
    const env: Environment = url.searchParams.get('env') === 'live' ? 'live' : 'test'
    const fragment = req.headers['x-panel-fragment'] === '1'
    return match.route.handler(this, { req, res, env, query: url.searchParams, params: match.params, form, fragment })
  }

  // ------------------------------------------------------------ pages

  /** A page, or only its body for a live refresh. */
  private show(c: WebCall, current: string, title: string, body: { value: string }, live = false): void {
    if (c.fragment) this.html(c.res, 200, body.value)
    else this.html(c.res, 200, layout({ title, current, env: c.env, live }, body as never))
  }

  private message(c: WebCall): string | undefined {
    return c.query.get('msg') ?? undefined
  }

  chargesPage(c: WebCall): void {
    this.show(c, 'charges', 'Charges', pages.chargesPage(this.deps.store.listCharges(c.env, { limit: 50 }).data, c.env), true)
  }

  chargePage(c: WebCall): void {
    const { store, deliveries } = this.deps
    const found = store.getChargeAnyEnv(c.params.id!)
    if (!found) throw new PanelRefusal(404, 'Not found', `No charge ${c.params.id} in this sandbox.`)
    const charge = found.charge
    const events = store.eventsOfCharge(charge.id)
    const log = events.flatMap((e) => deliveries.list({ eventId: e.id, limit: 1 }))
    this.show(c, 'charges', `Charge ${charge.id}`, pages.chargePage(charge, events, log, this.guard.csrf, this.message(c)), true)
  }

  deliveriesPage(c: WebCall): void {
    const { deliveries } = this.deps
    const filter = pages.deliveryFilter(c.query)
    // Filtered within the newest 1000, then the 50 newest that match.
    const matching = pages.filterDeliveries(deliveries.list({ environment: c.env, limit: filter.type || filter.state ? 1000 : 50 }), filter).slice(0, 50)
    const list = matching.map((d) => deliveries.list({ eventId: d.eventId, limit: 1 })[0] ?? d)
    this.show(c, 'deliveries', 'Deliveries', pages.deliveriesPage(list, c.env, this.guard.csrf, this.message(c), filter), true)
  }

  withdrawalsPage(c: WebCall): void {
    this.show(c, 'withdrawals', 'Withdrawals', withdrawalsPage(this.deps.withdrawals?.list(c.env) ?? [], c.env), true)
  }

  salesPage(c: WebCall): void {
    this.show(c, 'sales', 'Product sales', productSalesPage(this.deps.productSales?.list() ?? [], c.env), true)
  }

  webhookPage(c: WebCall): void {
    this.show(c, 'webhook', 'Webhook', pages.webhookPage(this.deps.deliveries.getEndpoint(c.env), c.env, this.guard.csrf, this.message(c), c.query.get('bad') === '1'))
  }

  keysPage(c: WebCall): void {
    this.show(c, 'keys', 'Keys', pages.keysPage(pages.maskedKeys(this.deps.admin.listKeys()), c.env, this.guard.csrf, undefined, this.message(c)))
  }

  accountPage(c: WebCall): void {
    const s = this.deps.admin.getSettings()
    this.show(c, 'account', 'Account', pages.accountPage(s, planOf(s.feeBps), c.env, this.guard.csrf, this.message(c), c.query.get('bad') === '1'))
  }

  clockPage(c: WebCall): void {
    const { clock } = this.deps
    this.show(c, 'clock', 'Clock', pages.clockPage(clock.nowDate().toISOString(), clock.speed, c.env, this.guard.csrf, this.message(c), c.query.get('bad') === '1'))
  }

  bankPage(c: WebCall): void {
    const id = c.query.get('charge')
    const found = id ? this.deps.store.getChargeAnyEnv(id) : undefined
    const code = found?.charge.pix.qrCode
    this.show(c, 'bank', 'Sandbox bank', pages.bankPage(code ? actions.bankView(this.context, code) : {}, c.env, this.guard.csrf))
  }

  /** Live updates: an event `change` when something changed, a comment every 15 s. */
  stream({ req, res }: WebCall): void {
    this.live.open(req, res)
  }

  // ------------------------------------------------------------ plumbing

  private html(res: ServerResponse, status: number, text: string): void {
    send(res, { status, raw: { contentType: 'text/html; charset=utf-8', bytes: Buffer.from(text) } })
  }
}
