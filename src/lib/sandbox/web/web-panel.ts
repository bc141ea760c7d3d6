/**
 * The panel on the web (`/panel/…` on the sandbox's own port): the pages of pages.ts, live
 * updates over Server-Sent Events, and the actions behind their forms, through the same engine,
 * worker and admin as the API and `/_sandbox/`. One table of routes; the guard (loopback, Host,
 * session cookie, CSRF, CSP) is guard.ts, and every outside string is escaped (html.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { decodePix } from '../../domain/pix-decode.js'
import { ADVANCE_TARGETS, type AdvanceTarget } from '../../domain/charge-states.js'
import { parseDuration } from '../../domain/time.js'
import { isHttpUrl } from '../../contract/url.js'
import { SandboxApiError } from '../api-error.js'
import { advanceClock } from '../http/panel-routes.js'
import type { SandboxClock } from '../engine/clock.js'
import type { ChargeEngine } from '../engine/engine.js'
import { pathSegment, redirect, send } from '../http/http-io.js'
import { planOf } from '../engine/plan.js'
import { type Route, Router } from '../http/router.js'
import type { SandboxStore } from '../store/store.js'
import type { DeliveryWorker, Env, SandboxAdmin } from '../types.js'
import type { ProductPayment } from '../../contract/product-sales.js'
import type { Withdrawal } from '../../contract/withdrawals.js'
import { FAVICON_SVG, PANEL_CSS, PANEL_JS } from './assets.js'
import { PanelGuard, PanelRefusal } from './guard.js'
import { layout } from './html.js'
import * as pages from './pages.js'
import { productSalesPage, withdrawalsPage } from './resource-pages.js'

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
  withdrawals?: { list(env: Env): Withdrawal[] }
  productSales?: { list(): ProductPayment[] }
}

/** What a page or action is given. */
interface WebCall {
  req: IncomingMessage
  res: ServerResponse
  env: Env
  query: URLSearchParams
  params: Record<string, string>
  /** A POST's form (CSRF already checked); empty for a GET. */
  form: URLSearchParams
  /** Only the page's body, for the live refresh (X-Panel-Fragment: 1). */
  fragment: boolean
}

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
  { method: 'POST', pattern: `/panel/charges/${CHARGE}/advance`, handler: (p, c) => p.advanceCharge(c) },
  { method: 'POST', pattern: `/panel/charges/${CHARGE}/cancel`, handler: (p, c) => p.cancelCharge(c) },
  { method: 'POST', pattern: '/panel/deliveries/:eventId/resend', handler: (p, c) => p.resendDelivery(c) },
  { method: 'POST', pattern: '/panel/webhook', handler: (p, c) => p.setWebhook(c) },
  { method: 'POST', pattern: '/panel/webhook/test', handler: (p, c) => p.testWebhook(c) },
  { method: 'POST', pattern: '/panel/keys', handler: (p, c) => p.createKey(c) },
  { method: 'POST', pattern: '/panel/keys/revoke', handler: (p, c) => p.revokeKey(c) },
  { method: 'POST', pattern: '/panel/account', handler: (p, c) => p.saveAccount(c) },
  { method: 'POST', pattern: '/panel/clock/advance', handler: (p, c) => p.advanceClock(c) },
  { method: 'POST', pattern: '/panel/bank', handler: (p, c) => p.pay(c) },
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
  private readonly streams = new Set<ServerResponse>()
  private pending?: NodeJS.Timeout
  private heartbeat?: NodeJS.Timeout

  constructor(private readonly deps: WebPanelDeps) {
    this.guard = new PanelGuard({ port: deps.port, ownHost: deps.ownHost })
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
    if (this.streams.size === 0 || this.pending) return
    this.pending = setTimeout(() => {
      this.pending = undefined
      for (const s of this.streams) s.write('event: change\ndata: 1\n\n')
    }, 120)
    this.pending.unref()
  }

  close(): void {
    clearTimeout(this.pending)
    clearInterval(this.heartbeat)
    for (const s of this.streams) s.end()
    this.streams.clear()
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
    const env: Env = url.searchParams.get('env') === 'live' ? 'live' : 'test'
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
    this.show(c, 'bank', 'Sandbox bank', pages.bankPage(code ? this.bankView(code) : {}, c.env, this.guard.csrf))
  }

  /** Live updates: an event `change` when something changed, a comment every 15 s. */
  stream({ req, res }: WebCall): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' })
    res.write(': connected\n\n')
    this.streams.add(res)
    this.heartbeat ??= setInterval(() => {
      for (const s of this.streams) s.write(': keep-alive\n\n')
    }, 15_000)
    this.heartbeat.unref()
    req.once('close', () => this.streams.delete(res))
  }

  // ------------------------------------------------------------ actions

  /** Back to a page with a message (after an action): the answer to a form is always a redirect, but for new keys and the bank. */
  private back(c: WebCall, page: string, msg: string, bad = false): void {
    redirect(c.res, `/panel/${page}${page.includes('?') ? '&' : '?'}env=${c.env}&msg=${encodeURIComponent(msg)}${bad ? '&bad=1' : ''}`)
  }

  advanceCharge(c: WebCall): void {
    const id = c.params.id!
    const target = c.form.get('status') as AdvanceTarget
    if (!ADVANCE_TARGETS.includes(target)) return this.back(c, `charges/${id}`, `Unknown state ${target}.`, true)
    try {
      const charge = this.deps.engine.advance(c.env, id, target)
      return this.back(c, `charges/${charge.id}`, `Moved to ${charge.status}.`)
    } catch (err) {
      return this.back(c, `charges/${id}`, (err as Error).message, true)
    }
  }

  cancelCharge(c: WebCall): void {
    const id = c.params.id!
    try {
      this.deps.engine.cancel(c.env, id)
      return this.back(c, `charges/${id}`, "Canceled: remove its QR from the payer's view.")
    } catch (err) {
      return this.back(c, `charges/${id}`, (err as Error).message, true)
    }
  }

  async resendDelivery(c: WebCall): Promise<void> {
    const { deliveries } = this.deps
    const eventId = pathSegment(c.params.eventId!, () => new PanelRefusal(404, 'Not found', `No delivery of ${c.params.eventId} in ${c.env}.`))
    const ok = deliveries.resend(eventId, c.env)
    await deliveries.flush?.()
    return this.back(c, 'deliveries', ok ? `Resent ${eventId}.` : `No delivery of ${eventId} in ${c.env}.`, !ok)
  }

  setWebhook(c: WebCall): void {
    const url = (c.form.get('url') ?? '').trim()
    if (!isHttpUrl(url) || url.length > 2048) return this.back(c, 'webhook', 'The URL must be an absolute http:// or https:// URL.', true)
    const ep = this.deps.deliveries.setEndpoint(c.env, url)
    this.changed()
    return this.back(c, 'webhook', `Saved ${ep.url} as the ${c.env} webhook URL${ep.active ? ' (active)' : ''}.`)
  }

  testWebhook(c: WebCall): void {
    if (!this.deps.deliveries.getEndpoint(c.env)) return this.back(c, 'webhook', `Set a ${c.env} webhook URL first.`, true)
    const event = this.deps.engine.testEvent(c.env)
    return this.back(c, 'webhook', `Sent test event ${event.id}.`)
  }

  createKey(c: WebCall): void {
    const { admin } = this.deps
    const keyEnv: Env = c.form.get('env') === 'live' ? 'live' : 'test'
    const created = admin.createKey(keyEnv)
    // The one page that shows a key in full, once, and is not kept anywhere.
    this.html(c.res, 200, layout({ title: 'Keys', current: 'keys', env: c.env }, pages.keysPage(pages.maskedKeys(admin.listKeys()), c.env, this.guard.csrf, created.key)))
  }

  revokeKey(c: WebCall): void {
    const { admin } = this.deps
    const ref = c.form.get('ref') ?? ''
    const key = admin.listKeys().find((k) => pages.keyRef(k.key) === ref)
    if (!key) return this.back(c, 'keys', 'No such key.', true)
    admin.revokeKey(key.key)
    return this.back(c, 'keys', `Revoked ${pages.maskedKeys([key])[0]!.key}.`)
  }

  saveAccount(c: WebCall): void {
    const body = c.form
    const n = (name: string, max: number) => {
      const v = Number(body.get(name))
      if (!Number.isInteger(v) || v < 0 || v > max) throw new SandboxApiError('invalid_request', `${name} must be an integer from 0 to ${max}.`)
      return v
    }
    try {
      this.deps.admin.updateSettings({
        feeBps: n('feeBps', 10_000),
        feeFixedInCents: n('feeFixedInCents', 100_000),
        settlementDelayHours: n('settlementDelayHours', 24 * 90),
        qrValiditySeconds: Math.max(1, n('qrValiditySeconds', 30 * 24 * 3600)),
        activated: body.get('activated') === '1',
        blocked: body.get('blocked') === '1',
        merchantIdPresent: body.get('merchantIdPresent') === '1',
      })
    } catch (err) {
      return this.back(c, 'account', (err as Error).message, true)
    }
    return this.back(c, 'account', 'Saved.')
  }

  async advanceClock(c: WebCall): Promise<void> {
    const duration = c.form.get('duration') ?? ''
    const ms = parseDuration(duration)
    if (ms === undefined || ms < 1 || ms > 366 * 86_400_000) return this.back(c, 'clock', 'Give a duration such as 90s, 25h or 1h30m (at most a year).', true)
    await advanceClock(this.deps, ms)
    return this.back(c, 'clock', `Moved ${c.form.get('duration')} ahead.`)
  }

  /** The sandbox bank: check a copy-and-paste string, or pay it (→ paid_pending_settlement, as `test advance`). */
  pay({ res, env, form: body }: WebCall): void {
    const code = (body.get('code') ?? '').trim()
    let view = this.bankView(code)
    if (body.get('action') === 'pay' && !view.error && view.charge) {
      const c = view.charge
      const now = this.deps.clock.now()
      if (c.status === 'awaiting_payment' && Date.parse(c.pix.expiresAt) <= now) view = { ...view, error: `This QR expired at ${new Date(c.pix.expiresAt).toISOString()}: the bank refuses it.` }
      else if (c.status === 'expired') view = { ...view, error: 'This QR expired: the bank refuses it.' }
      else if (c.status === 'paid_pending_settlement' || c.status === 'settled' || c.status === 'refunded') view = { ...view, error: `This QR was already paid (the charge is ${c.status}).` }
      else if (c.status === 'failed') view = { ...view, error: 'The provider lost this charge (failed): the bank refuses it.' }
      else {
        // A canceled QR stays payable (spec 4.4): the payment prevails.
        const paid = this.deps.engine.advance(c.environment, c.id, 'paid_pending_settlement')
        view = { ...view, charge: paid, paid: true }
      }
    }
    this.html(res, view.error ? 422 : 200, layout({ title: 'Sandbox bank', current: 'bank', env }, pages.bankPage(view, env, this.guard.csrf)))
  }

  private bankView(code: string): pages.BankView {
    if (!code) return { error: 'Paste a Pix copy-and-paste string.' }
    // The same decoder and verdict as `svc pix decode`: the bank pays no code that command refuses.
    const decoded = decodePix(code)
    if (!decoded.valid) return { code, error: `This string cannot be paid: ${decoded.message}.` }
    const id = /\/qr\/v2\/([0-9a-f]{24})$/.exec(decoded.url ?? '')?.[1]
    const found = id ? this.deps.store.getChargeAnyEnv(id) : undefined
    if (!found) return { code, decoded, error: "No charge of this sandbox has this QR (the bank can only pay this sandbox's charges)." }
    return { code, decoded, charge: found.charge }
  }

  // ------------------------------------------------------------ plumbing

  private html(res: ServerResponse, status: number, text: string): void {
    send(res, { status, raw: { contentType: 'text/html; charset=utf-8', bytes: Buffer.from(text) } })
  }
}
