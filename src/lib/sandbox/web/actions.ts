/**
 * The web panel's actions (POST, from the pages' forms), through the same engine, worker and admin
 * as the API and `/_sandbox/`: each answers with a redirect back to its page and a message, but
 * for a new key (shown once) and the sandbox bank (its page with the verdict).
 */
import { isHttpUrl } from '../../contract/url.js'
import { ADVANCE_TARGETS, type AdvanceTarget } from '../../domain/charge-states.js'
import { decodePix } from '../../domain/pix-decode.js'
import { parseDuration } from '../../domain/time.js'
import { SandboxApiError } from '../api-error.js'
import { pathSegment, redirect } from '../http/http-io.js'
import { advanceClock as advanceSandboxClock } from '../http/panel-routes.js'

import type { PanelContext, WebCall } from './context.js'
import { PanelRefusal } from './guard.js'
import { layout } from './html.js'
import * as pages from './pages.js'
import type { Environment } from '../../contract/schemas.js'

/** Back to a page with a message (after an action): the answer to a form is always a redirect, but for new keys and the bank. */
function back(c: WebCall, page: string, msg: string, bad = false): void {
  redirect(c.res, `/panel/${page}${page.includes('?') ? '&' : '?'}env=${c.env}&msg=${encodeURIComponent(msg)}${bad ? '&bad=1' : ''}`)
}

export function advanceCharge(p: PanelContext, c: WebCall): void {
  const id = c.params.id!
  const target = c.form.get('status') as AdvanceTarget
  if (!ADVANCE_TARGETS.includes(target)) return back(c, `charges/${id}`, `Unknown state ${target}.`, true)
  try {
    const charge = p.deps.engine.advance(c.env, id, target)
    return back(c, `charges/${charge.id}`, `Moved to ${charge.status}.`)
  } catch (err) {
    return back(c, `charges/${id}`, (err as Error).message, true)
  }
}

export function cancelCharge(p: PanelContext, c: WebCall): void {
  const id = c.params.id!
  try {
    p.deps.engine.cancel(c.env, id)
    return back(c, `charges/${id}`, "Canceled: remove its QR from the payer's view.")
  } catch (err) {
    return back(c, `charges/${id}`, (err as Error).message, true)
  }
}

export async function resendDelivery(p: PanelContext, c: WebCall): Promise<void> {
  const { deliveries } = p.deps
  const eventId = pathSegment(c.params.eventId!, () => new PanelRefusal(404, 'Not found', `No delivery of ${c.params.eventId} in ${c.env}.`))
  const ok = deliveries.resend(eventId, c.env)
  await deliveries.flush?.()
  return back(c, 'deliveries', ok ? `Resent ${eventId}.` : `No delivery of ${eventId} in ${c.env}.`, !ok)
}

export function setWebhook(p: PanelContext, c: WebCall): void {
  const url = (c.form.get('url') ?? '').trim()
  if (!isHttpUrl(url) || url.length > 2048) return back(c, 'webhook', 'The URL must be an absolute http:// or https:// URL.', true)
  const ep = p.deps.deliveries.setEndpoint(c.env, url)
  p.changed()
  return back(c, 'webhook', `Saved ${ep.url} as the ${c.env} webhook URL${ep.active ? ' (active)' : ''}.`)
}

export function testWebhook(p: PanelContext, c: WebCall): void {
  if (!p.deps.deliveries.getEndpoint(c.env)) return back(c, 'webhook', `Set a ${c.env} webhook URL first.`, true)
  const event = p.deps.engine.testEvent(c.env)
  return back(c, 'webhook', `Sent test event ${event.id}.`)
}

export function createKey(p: PanelContext, c: WebCall): void {
  const { admin } = p.deps
  const keyEnv: Environment = c.form.get('env') === 'live' ? 'live' : 'test'
  const created = admin.createKey(keyEnv)
  // The one page that shows a key in full, once, and is not kept anywhere.
  p.html(c.res, 200, layout({ title: 'Keys', current: 'keys', env: c.env }, pages.keysPage(pages.maskedKeys(admin.listKeys()), c.env, p.csrf, created.key)))
}

export function revokeKey(p: PanelContext, c: WebCall): void {
  const { admin } = p.deps
  const ref = c.form.get('ref') ?? ''
  const key = admin.listKeys().find((k) => pages.keyRef(k.key) === ref)
  if (!key) return back(c, 'keys', 'No such key.', true)
  admin.revokeKey(key.key)
  return back(c, 'keys', `Revoked ${pages.maskedKeys([key])[0]!.key}.`)
}

export function saveAccount(p: PanelContext, c: WebCall): void {
  const body = c.form
  const n = (name: string, max: number) => {
    const v = Number(body.get(name))
    if (!Number.isInteger(v) || v < 0 || v > max) throw new SandboxApiError('invalid_request', `${name} must be an integer from 0 to ${max}.`)
    return v
  }
  try {
    p.deps.admin.updateSettings({
      feeBps: n('feeBps', 10_000),
      feeFixedInCents: n('feeFixedInCents', 100_000),
      settlementDelayHours: n('settlementDelayHours', 24 * 90),
      qrValiditySeconds: Math.max(1, n('qrValiditySeconds', 30 * 24 * 3600)),
      activated: body.get('activated') === '1',
      blocked: body.get('blocked') === '1',
      merchantIdPresent: body.get('merchantIdPresent') === '1',
    })
  } catch (err) {
    return back(c, 'account', (err as Error).message, true)
  }
  return back(c, 'account', 'Saved.')
}

export async function advanceClock(p: PanelContext, c: WebCall): Promise<void> {
  const duration = c.form.get('duration') ?? ''
  const ms = parseDuration(duration)
  if (ms === undefined || ms < 1 || ms > 366 * 86_400_000) return back(c, 'clock', 'Give a duration such as 90s, 25h or 1h30m (at most a year).', true)
  await advanceSandboxClock(p.deps, ms)
  return back(c, 'clock', `Moved ${c.form.get('duration')} ahead.`)
}

/** The sandbox bank: check a copy-and-paste string, or pay it (→ paid_pending_settlement, as `test advance`). */
export function pay(p: PanelContext, { res, env, form: body }: WebCall): void {
  const code = (body.get('code') ?? '').trim()
  let view = bankView(p, code)
  if (body.get('action') === 'pay' && !view.error && view.charge) {
    const c = view.charge
    const now = p.deps.clock.now()
    if (c.status === 'awaiting_payment' && Date.parse(c.pix.expiresAt) <= now) view = { ...view, error: `This QR expired at ${new Date(c.pix.expiresAt).toISOString()}: the bank refuses it.` }
    else if (c.status === 'expired') view = { ...view, error: 'This QR expired: the bank refuses it.' }
    else if (c.status === 'paid_pending_settlement' || c.status === 'settled' || c.status === 'refunded') view = { ...view, error: `This QR was already paid (the charge is ${c.status}).` }
    else if (c.status === 'failed') view = { ...view, error: 'The provider lost this charge (failed): the bank refuses it.' }
    else {
      // A canceled QR stays payable (spec 4.4): the payment prevails.
      const paid = p.deps.engine.advance(c.environment, c.id, 'paid_pending_settlement')
      view = { ...view, charge: paid, paid: true }
    }
  }
  p.html(res, view.error ? 422 : 200, layout({ title: 'Sandbox bank', current: 'bank', env }, pages.bankPage(view, env, p.csrf)))
}

/** What the bank makes of a copy-and-paste string (the bank page shows it, before and after paying). */
export function bankView(p: PanelContext, code: string): pages.BankView {
  if (!code) return { error: 'Paste a Pix copy-and-paste string.' }
  // The same decoder and verdict as `svc pix decode`: the bank pays no code that command refuses.
  const decoded = decodePix(code)
  if (!decoded.valid) return { code, error: `This string cannot be paid: ${decoded.message}.` }
  const id = /\/qr\/v2\/([0-9a-f]{24})$/.exec(decoded.url ?? '')?.[1]
  const found = id ? p.deps.store.getChargeAnyEnv(id) : undefined
  if (!found) return { code, decoded, error: "No charge of this sandbox has this QR (the bank can only pay this sandbox's charges)." }
  return { code, decoded, charge: found.charge }
}
