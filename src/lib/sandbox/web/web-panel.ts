/**
 * The panel on the web (`/panel/…` on the sandbox's own port): the pages of pages.ts, live
 * updates over Server-Sent Events, and the actions behind their forms, through the same engine,
 * worker and admin as the API and `/_sandbox/`.
 *
 * Guarded as a local admin page must be: loopback peers only; a Host header naming loopback
 * (against DNS rebinding); a per-start token, taken from the URL `svc sandbox start` prints (or a
 * one-time ticket from `svc sandbox open`) into an HttpOnly SameSite=Strict cookie; a CSRF token
 * and a same-origin check on every POST; a strict Content-Security-Policy with nothing from
 * outside; every outside string escaped (html.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseBrCode } from '../../domain/brcode.js'
import { ADVANCE_TARGETS, type AdvanceTarget } from '../../domain/charge-states.js'
import { parseDuration } from '../../domain/time.js'
import { isHttpUrl } from '../../net/url.js'
import { SandboxApiError } from '../api-error.js'
import { advanceClock } from '../panel-routes.js'
import type { SandboxClock } from '../clock.js'
import type { WebhookDeliveries } from '../deliveries/worker.js'
import type { ChargeEngine } from '../engine.js'
import type { SandboxStore } from '../store.js'
import type { SandboxAdmin } from '../types.js'
import type { ProductPayment } from '../../contract/product-sales.js'
import type { Withdrawal } from '../../contract/withdrawals.js'
import { FAVICON_SVG, PANEL_CSS, PANEL_JS } from './assets.js'
import { productSalesPage, withdrawalsPage } from './resource-pages.js'
import { layout } from './html.js'
import * as pages from './pages.js'

const COOKIE = 'svc_panel'
const MAX_FORM_BYTES = 64 * 1024
const TICKET_TTL_MS = 60_000
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

export interface WebPanelDeps {
  store: SandboxStore
  engine: ChargeEngine
  deliveries: WebhookDeliveries
  admin: SandboxAdmin
  clock: SandboxClock
  planOf: (feeBps: number) => { id: string; name: string }
  /** The port the sandbox listens on (Host must name it). */
  port: () => number
  /** The lists of the Withdrawals and Sales pages. */
  withdrawals?: { list(env: Env): Withdrawal[] }
  productSales?: { list(): ProductPayment[] }
}

type Env = 'test' | 'live'

export class WebPanel {
  /** The per-start token: in the URL printed at start, then in the cookie. */
  readonly token = randomBytes(24).toString('base64url')
  private readonly csrf = createHmac('sha256', this.token).update('csrf').digest('base64url')
  private readonly tickets = new Map<string, number>()
  private readonly streams = new Set<ServerResponse>()
  private pending?: NodeJS.Timeout
  private heartbeat?: NodeJS.Timeout

  constructor(private readonly deps: WebPanelDeps) {}

  /** The URL that opens the panel in a browser (holds the token: shown to the one who started it). */
  entryUrl(baseUrl: string): string {
    return `${baseUrl}/panel?token=${this.token}`
  }

  /** A one-time entry (60 s) for `svc sandbox open`, which holds an API key but not the token. */
  ticketUrl(baseUrl: string): string {
    const ticket = randomBytes(18).toString('base64url')
    this.tickets.set(ticket, Date.now() + TICKET_TTL_MS)
    return `${baseUrl}/panel?ticket=${ticket}`
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
    res.setHeader('content-security-policy', CSP)
    res.setHeader('x-content-type-options', 'nosniff')
    res.setHeader('x-frame-options', 'DENY')
    // same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` on the panel's own POSTs.
    res.setHeader('referrer-policy', 'same-origin')
    res.setHeader('cache-control', 'no-store')
    try {
      await this.route(req, res, url)
    } catch (err) {
      if (res.headersSent) return void res.destroy()
      const message = err instanceof SandboxApiError ? err.message : 'The panel hit an internal error; see the sandbox log.'
      this.page(res, err instanceof SandboxApiError ? err.status : 500, pages.errorPage('Error', message))
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET'
    if (!isLoopbackPeer(req.socket.remoteAddress)) return this.page(res, 403, pages.errorPage('Forbidden', 'The panel answers this machine only.'))
    const host = req.headers.host ?? ''
    if (!this.allowedHost(host)) {
      // A page of another site that resolved its name to 127.0.0.1 (DNS rebinding) ends here.
      return this.page(res, 403, pages.errorPage('Forbidden', 'The panel answers only to 127.0.0.1, localhost or [::1] with its own port.'))
    }
    const path = url.pathname
    if (path === '/panel/assets/panel.js') return this.asset(res, 'text/javascript; charset=utf-8', PANEL_JS)
    if (path === '/panel/assets/panel.css') return this.asset(res, 'text/css; charset=utf-8', PANEL_CSS)
    // No secret in it: served before sign-in (the browser asks for it without the panel's cookie).
    if (path === '/favicon.ico') return this.asset(res, 'image/svg+xml', FAVICON_SVG)

    if (path === '/panel' || path === '/panel/') {
      const token = url.searchParams.get('token')
      const ticket = url.searchParams.get('ticket')
      if ((token && same(token, this.token)) || (ticket && this.useTicket(ticket))) {
        res.setHeader('set-cookie', `${COOKIE}=${this.token}; HttpOnly; SameSite=Strict; Path=/panel`)
        // The token leaves the address bar at once; `next` (from `svc sandbox open PAGE`) only within the panel.
        const next = url.searchParams.get('next')
        return this.redirect(res, next && /^\/panel\/[\w/?=&.-]*$/.test(next) ? next : '/panel/charges?env=test')
      }
    }
    if (!this.authenticated(req)) {
      return this.page(res, 401, pages.errorPage('Sign-in needed', 'Open the panel with the URL that `svc sandbox start` printed, or run `svc sandbox open`.'))
    }
    if (path === '/panel' || path === '/panel/') return this.redirect(res, '/panel/charges?env=test')
    if (path === '/panel/events' && method === 'GET') return this.stream(req, res)

    const env: Env = url.searchParams.get('env') === 'live' ? 'live' : 'test'
    if (method === 'POST') {
      const body = await readForm(req)
      if (!body || !this.sameOrigin(req, host) || !same(body.get('_csrf') ?? '', this.csrf)) {
        return this.page(res, 403, pages.errorPage('Forbidden', 'This form did not come from the panel (missing or wrong CSRF token, or another origin).'))
      }
      return this.post(res, path, env, body)
    }
    if (method !== 'GET' && method !== 'HEAD') return this.page(res, 405, pages.errorPage('Method not allowed', `${method} is not used by the panel.`))
    const fragment = req.headers['x-panel-fragment'] === '1'
    return this.get(res, path, env, url.searchParams, fragment)
  }

  // ------------------------------------------------------------ pages

  private get(res: ServerResponse, path: string, env: Env, q: URLSearchParams, fragment: boolean): void {
    const { store, deliveries, admin, clock } = this.deps
    const msg = q.get('msg') ?? undefined
    const show = (current: string, title: string, body: { value: string }, live = false) =>
      fragment ? this.send(res, 200, 'text/html; charset=utf-8', body.value) : this.page(res, 200, layout({ title, current, env, live }, body as never))
    if (path === '/panel/charges') return show('charges', 'Charges', pages.chargesPage(store.listCharges(env, { limit: 50 }).data, env), true)
    const charge = /^\/panel\/charges\/([0-9a-f]{24})$/.exec(path)
    if (charge) {
      const found = store.getChargeAnyEnv(charge[1]!)
      if (!found) return this.page(res, 404, pages.errorPage('Not found', `No charge ${charge[1]} in this sandbox.`))
      const c = found.charge
      const events = store.eventsOfCharge(c.id)
      const log = events.flatMap((e) => deliveries.list({ eventId: e.id, limit: 1 }))
      return show('charges', `Charge ${c.id}`, pages.chargePage(c, events, log, this.csrf, msg), true)
    }
    if (path === '/panel/deliveries') {
      const filter = pages.deliveryFilter(q)
      // Filtered within the newest 1000, then the 50 newest that match.
      const matching = pages.filterDeliveries(deliveries.list({ environment: env, limit: filter.type || filter.state ? 1000 : 50 }), filter).slice(0, 50)
      const list = matching.map((d) => deliveries.list({ eventId: d.eventId, limit: 1 })[0] ?? d)
      return show('deliveries', 'Deliveries', pages.deliveriesPage(list, env, this.csrf, msg, filter), true)
    }
    if (path === '/panel/withdrawals') return show('withdrawals', 'Withdrawals', withdrawalsPage(this.deps.withdrawals?.list(env) ?? [], env), true)
    if (path === '/panel/sales') return show('sales', 'Product sales', productSalesPage(this.deps.productSales?.list() ?? [], env), true)
    if (path === '/panel/webhook') return show('webhook', 'Webhook', pages.webhookPage(deliveries.getEndpoint(env), env, this.csrf, msg, q.get('bad') === '1'))
    if (path === '/panel/keys') return show('keys', 'Keys', pages.keysPage(pages.maskedKeys(admin.listKeys()), env, this.csrf, undefined, msg))
    if (path === '/panel/account') {
      const s = admin.getSettings()
      return show('account', 'Account', pages.accountPage(s, this.deps.planOf(s.feeBps), env, this.csrf, msg, q.get('bad') === '1'))
    }
    if (path === '/panel/clock') return show('clock', 'Clock', pages.clockPage(clock.nowDate().toISOString(), clock.speed, env, this.csrf, msg, q.get('bad') === '1'))
    if (path === '/panel/bank') {
      const id = q.get('charge')
      const found = id ? store.getChargeAnyEnv(id) : undefined
      const code = found?.charge.pix.qrCode
      return show('bank', 'Sandbox bank', pages.bankPage(code ? this.bankView(code) : {}, env, this.csrf))
    }
    return this.page(res, 404, pages.errorPage('Not found', `No panel page at ${path}.`))
  }

  // ------------------------------------------------------------ actions

  private async post(res: ServerResponse, path: string, env: Env, body: URLSearchParams): Promise<void> {
    const { engine, deliveries, admin, clock } = this.deps
    const back = (page: string, msg: string, bad = false) => this.redirect(res, `/panel/${page}${page.includes('?') ? '&' : '?'}env=${env}&msg=${encodeURIComponent(msg)}${bad ? '&bad=1' : ''}`)
    const advance = /^\/panel\/charges\/([0-9a-f]{24})\/advance$/.exec(path)
    if (advance) {
      const target = body.get('status') as AdvanceTarget
      if (!ADVANCE_TARGETS.includes(target)) return back(`charges/${advance[1]}`, `Unknown state ${target}.`, true)
      try {
        const c = engine.advance(env, advance[1]!, target)
        return back(`charges/${c.id}`, `Moved to ${c.status}.`)
      } catch (err) {
        return back(`charges/${advance[1]}`, (err as Error).message, true)
      }
    }
    const cancel = /^\/panel\/charges\/([0-9a-f]{24})\/cancel$/.exec(path)
    if (cancel) {
      try {
        engine.cancel(env, cancel[1]!)
        return back(`charges/${cancel[1]}`, 'Canceled: remove its QR from the payer\'s view.')
      } catch (err) {
        return back(`charges/${cancel[1]}`, (err as Error).message, true)
      }
    }
    const resend = /^\/panel\/deliveries\/([^/]+)\/resend$/.exec(path)
    if (resend) {
      const eventId = decodeURIComponent(resend[1]!)
      const ok = deliveries.resend(eventId, env)
      await deliveries.flush()
      return back('deliveries', ok ? `Resent ${eventId}.` : `No delivery of ${eventId} in ${env}.`, !ok)
    }
    if (path === '/panel/webhook') {
      const url = (body.get('url') ?? '').trim()
      if (!isHttpUrl(url) || url.length > 2048) return back('webhook', 'The URL must be an absolute http:// or https:// URL.', true)
      const ep = deliveries.setEndpoint(env, url)
      this.changed()
      return back('webhook', `Saved ${ep.url} as the ${env} webhook URL${ep.active ? ' (active)' : ''}.`)
    }
    if (path === '/panel/webhook/test') {
      if (!deliveries.getEndpoint(env)) return back('webhook', `Set a ${env} webhook URL first.`, true)
      const event = engine.testEvent(env)
      return back('webhook', `Sent test event ${event.id}.`)
    }
    if (path === '/panel/keys') {
      const keyEnv: Env = body.get('env') === 'live' ? 'live' : 'test'
      const created = admin.createKey(keyEnv)
      // The one page that shows a key in full, once, and is not kept anywhere.
      return this.page(res, 200, layout({ title: 'Keys', current: 'keys', env }, pages.keysPage(pages.maskedKeys(admin.listKeys()), env, this.csrf, created.key)))
    }
    if (path === '/panel/keys/revoke') {
      const ref = body.get('ref') ?? ''
      const key = admin.listKeys().find((k) => pages.keyRef(k.key) === ref)
      if (!key) return back('keys', 'No such key.', true)
      admin.revokeKey(key.key)
      return back('keys', `Revoked ${pages.maskedKeys([key])[0]!.key}.`)
    }
    if (path === '/panel/account') {
      const n = (name: string, max: number) => {
        const v = Number(body.get(name))
        if (!Number.isInteger(v) || v < 0 || v > max) throw new SandboxApiError('invalid_request', `${name} must be an integer from 0 to ${max}.`)
        return v
      }
      try {
        admin.updateSettings({
          feeBps: n('feeBps', 10_000),
          feeFixedInCents: n('feeFixedInCents', 100_000),
          settlementDelayHours: n('settlementDelayHours', 24 * 90),
          qrValiditySeconds: Math.max(1, n('qrValiditySeconds', 30 * 24 * 3600)),
          activated: body.get('activated') === '1',
          blocked: body.get('blocked') === '1',
          merchantIdPresent: body.get('merchantIdPresent') === '1',
        })
      } catch (err) {
        return back('account', (err as Error).message, true)
      }
      return back('account', 'Saved.')
    }
    if (path === '/panel/clock/advance') {
      const ms = parseDuration(body.get('duration') ?? '')
      if (ms === undefined || ms < 1 || ms > 366 * 86_400_000) return back('clock', 'Give a duration such as 90s, 25h or 1h30m (at most a year).', true)
      await advanceClock({ deliveries, clock }, ms)
      return back('clock', `Moved ${body.get('duration')} ahead.`)
    }
    if (path === '/panel/bank') return this.pay(res, env, body)
    return this.page(res, 404, pages.errorPage('Not found', `No panel action at ${path}.`))
  }

  /** The sandbox bank: check a copy-and-paste string, or pay it (→ paid_pending_settlement, as `test advance`). */
  private pay(res: ServerResponse, env: Env, body: URLSearchParams): void {
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
    this.page(res, view.error ? 422 : 200, layout({ title: 'Sandbox bank', current: 'bank', env }, pages.bankPage(view, env, this.csrf)))
  }

  private bankView(code: string): pages.BankView {
    if (!code) return { error: 'Paste a Pix copy-and-paste string.' }
    const parsed = parseBrCode(code)
    if (!parsed.ok) return { code, error: `This string cannot be paid: ${parsed.reason}.` }
    const id = /\/qr\/v2\/([0-9a-f]{24})$/.exec(parsed.code.location ?? '')?.[1]
    const found = id ? this.deps.store.getChargeAnyEnv(id) : undefined
    if (!found) return { code, decoded: parsed.code, error: 'No charge of this sandbox has this QR (the bank can only pay this sandbox\'s charges).' }
    return { code, decoded: parsed.code, charge: found.charge }
  }

  // ------------------------------------------------------------ plumbing

  private stream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' })
    res.write(': connected\n\n')
    this.streams.add(res)
    this.heartbeat ??= setInterval(() => {
      for (const s of this.streams) s.write(': keep-alive\n\n')
    }, 15_000)
    this.heartbeat.unref()
    req.once('close', () => this.streams.delete(res))
  }

  private allowedHost(host: string): boolean {
    const port = this.deps.port()
    return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase())
  }

  /** A POST from a page of another origin (when the browser says where it came from) is refused. */
  private sameOrigin(req: IncomingMessage, host: string): boolean {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://${host}`) return false
    const site = req.headers['sec-fetch-site']
    return site === undefined || site === 'same-origin' || site === 'none'
  }

  private authenticated(req: IncomingMessage): boolean {
    const cookie = req.headers.cookie ?? ''
    const value = /(?:^|;\s*)svc_panel=([^;]+)/.exec(cookie)?.[1]
    return value !== undefined && same(value, this.token)
  }

  private useTicket(ticket: string): boolean {
    const expires = this.tickets.get(ticket)
    this.tickets.delete(ticket)
    for (const [t, at] of this.tickets) if (at < Date.now()) this.tickets.delete(t)
    return expires !== undefined && expires >= Date.now()
  }

  private asset(res: ServerResponse, type: string, text: string): void {
    res.setHeader('cache-control', 'no-cache')
    this.send(res, 200, type, text)
  }

  private page(res: ServerResponse, status: number, text: string): void {
    this.send(res, status, 'text/html; charset=utf-8', text)
  }

  private send(res: ServerResponse, status: number, type: string, text: string): void {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) })
    res.end(text)
  }

  private redirect(res: ServerResponse, location: string): void {
    res.writeHead(303, { location, 'content-length': 0 })
    res.end()
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = String(req.headers['content-type'] ?? '')
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined
  const chunks: Buffer[] = []
  let size = 0
  for await (const c of req) {
    size += (c as Buffer).length
    if (size > MAX_FORM_BYTES) return undefined
    chunks.push(c as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}
