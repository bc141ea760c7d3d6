/**
 * The web panel's guard, apart from its pages: what a local admin page must check before it
 * answers anything.
 *
 * - loopback peers only, and a Host header naming loopback with this sandbox's port (against DNS
 *   rebinding);
 * - a per-start token (in the URL `svc sandbox start` prints) or a one-time ticket (from
 *   `svc sandbox open`) signs in; it is never the session: each sign-in gets a new random session
 *   held here in memory, in an HttpOnly SameSite=Strict cookie whose NAME carries the port.
 *   Cookies are not scoped by port, so every server on 127.0.0.1 receives `svc_panel_8787`; but
 *   it opens only this sandbox's panel while it runs, and signing in to a second sandbox (another
 *   port, another cookie) no longer signs the first one out;
 * - a CSRF token and a same-origin check on every POST;
 * - a strict Content-Security-Policy with nothing from outside, and no framing, sniffing or caching.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { isLoopbackPeer } from '../../net/loopback.js'
import { isSandboxHost } from '../http/host-check.js'
import { readForm } from '../http/http-io.js'

export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
const TICKET_TTL_MS = 60_000
/** Sign-ins kept at once; the oldest is signed out past this (a browser signs in once per start). */
const MAX_SESSIONS = 64

/** A request the panel refuses: thrown, and answered with this status and an error page titled so (web-panel.ts). */
export class PanelRefusal extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message)
    this.name = 'PanelRefusal'
  }
}

export interface PanelGuardDeps {
  /** The port the sandbox listens on (Host must name it; the cookie's name carries it). */
  port: () => number
  /** The host of the URL the sandbox prints (the address it listens on), also allowed as Host. */
  ownHost?: () => string
  /** Wall-clock milliseconds, for the tickets' 60 s (tests inject it). */
  now?: () => number
}

export class PanelGuard {
  /** The per-start token: in the URL printed at start; it signs in, it is never a session. */
  readonly token = randomBytes(24).toString('base64url')
  readonly csrf = createHmac('sha256', this.token).update('csrf').digest('base64url')
  private readonly tickets = new Map<string, number>()
  private readonly sessions = new Set<string>()
  private readonly now: () => number

  constructor(private readonly deps: PanelGuardDeps) {
    this.now = deps.now ?? Date.now
  }

  /** The URL that opens the panel in a browser (holds the token: shown to the one who started it). */
  entryUrl(baseUrl: string): string {
    return `${baseUrl}/panel?token=${this.token}`
  }

  /** A one-time entry (60 s) for `svc sandbox open`, which holds an API key but not the token. */
  ticketUrl(baseUrl: string): string {
    const ticket = randomBytes(18).toString('base64url')
    this.tickets.set(ticket, this.now() + TICKET_TTL_MS)
    return `${baseUrl}/panel?ticket=${ticket}`
  }

  /** The session cookie's name: one per port, so two sandboxes keep their own sign-ins. */
  cookieName(): string {
    return `svc_panel_${this.deps.port()}`
  }

  /** The headers every panel answer carries. */
  secureHeaders(res: ServerResponse): void {
    res.setHeader('content-security-policy', CSP)
    res.setHeader('x-content-type-options', 'nosniff')
    res.setHeader('x-frame-options', 'DENY')
    // same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` on the panel's own POSTs.
    res.setHeader('referrer-policy', 'same-origin')
    res.setHeader('cache-control', 'no-store')
  }

  /** The peer and the Host: checked before anything else, the assets included. */
  checkPlace(req: IncomingMessage): void {
    if (!isLoopbackPeer(req.socket.remoteAddress)) throw new PanelRefusal(403, 'Forbidden', 'The panel answers this machine only.')
    if (!this.allowedHost(req.headers.host ?? '')) {
      // A page of another site that resolved its name to 127.0.0.1 (DNS rebinding) ends here.
      throw new PanelRefusal(403, 'Forbidden', 'The panel answers only to 127.0.0.1, localhost or [::1] (or the address it listens on) with its own port.')
    }
  }

  /**
   * Signs in (token or ticket in the URL: returns where to go, the cookie set), or checks the
   * session (returns undefined when signed in; throws 401 otherwise).
   */
  admit(req: IncomingMessage, res: ServerResponse, url: URL): { signedIn: string } | undefined {
    const path = url.pathname
    if (path === '/panel' || path === '/panel/') {
      const token = url.searchParams.get('token')
      const ticket = url.searchParams.get('ticket')
      if ((token && same(token, this.token)) || (ticket && this.useTicket(ticket))) {
        res.setHeader('set-cookie', `${this.cookieName()}=${this.newSession()}; HttpOnly; SameSite=Strict; Path=/panel`)
        // The token leaves the address bar at once; `next` (from `svc sandbox open PAGE`) only within the panel.
        const next = url.searchParams.get('next')
        return { signedIn: next && /^\/panel\/[\w/?=&.-]*$/.test(next) ? next : '/panel/charges?env=test' }
      }
    }
    if (!this.signedIn(req)) {
      throw new PanelRefusal(401, 'Sign-in needed', 'Open the panel with the URL that `svc sandbox start` printed, or run `svc sandbox open`.')
    }
    return undefined
  }

  /** A POST's form, when it came from the panel (its CSRF token and its origin are checked; else 403). */
  async form(req: IncomingMessage): Promise<URLSearchParams> {
    const form = await readForm(req)
    if (!form || !this.sameOrigin(req) || !same(form.get('_csrf') ?? '', this.csrf)) {
      throw new PanelRefusal(403, 'Forbidden', 'This form did not come from the panel (missing or wrong CSRF token, or another origin).')
    }
    return form
  }

  private newSession(): string {
    const session = randomBytes(24).toString('base64url')
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.values().next().value!)
    this.sessions.add(session)
    return session
  }

  private signedIn(req: IncomingMessage): boolean {
    const name = this.cookieName()
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const eq = part.indexOf('=')
      if (eq > 0 && part.slice(0, eq).trim() === name && this.sessions.has(part.slice(eq + 1).trim())) return true
    }
    return false
  }

  /** http/host-check.ts: `127.0.0.1`, `localhost`, `[::1]` or the sandbox's own address, with its port. */
  private allowedHost(host: string): boolean {
    return isSandboxHost(host, this.deps.port(), this.deps.ownHost?.())
  }

  /** A POST from a page of another origin (when the browser says where it came from) is refused. */
  private sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin
    if (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`) return false
    const site = req.headers['sec-fetch-site']
    return site === undefined || site === 'same-origin' || site === 'none'
  }

  private useTicket(ticket: string): boolean {
    const now = this.now()
    const expires = this.tickets.get(ticket)
    this.tickets.delete(ticket)
    for (const [t, at] of this.tickets) if (at < now) this.tickets.delete(t)
    return expires !== undefined && expires >= now
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
