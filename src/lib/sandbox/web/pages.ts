/**
 * The panel's pages (spec 4.6, 6.4): charges, a charge with its timeline and deliveries, the
 * delivery log, the webhook URL, keys, account, clock, and the sandbox bank. Pure renderers: data
 * in, escaped HTML out.
 */
import { createHash } from 'node:crypto'
import { maskSecret } from '../../config/mask.js'
import type { AccountSettings, DeliveryRecord, SandboxKey, WebhookEndpoint } from '../../contract/panel.js'
import type { Environment, Charge } from '../../contract/schemas.js'
import type { Split } from '../../contract/split-charges.js'
import { ADVANCE_TARGETS, advancePath, transitionFor } from '../../domain/charge-states.js'
import type { DecodedPix } from '../../domain/pix-decode.js'
import { EVENT_TYPES } from '../../contract/event-types.js'
import { brl, form, html, Safe, status, when } from './html.js'
import { DELIVERY_VIEW_STATES, type DeliveryViewState } from '../../contract/panel.js'

export function notice(message: string | undefined, bad = false): Safe | string {
  if (!message) return ''
  return html`<p class="notice${bad ? ' bad' : ''}" role="status">${message}</p>`
}

/**
 * The command that creates a charge in `env`, as it works there: the `sandbox` profile (test)
 * takes a sample payer on its own; live needs the payer's tax number and the `sandbox-live` key.
 */
export function createChargeCommand(env: Environment): string {
  return env === 'test' ? 'svc charges create --amount 1500' : 'svc charges create --amount 1500 --payer-tax-number 529.982.247-25 --profile sandbox-live'
}

export function chargesPage(charges: Charge[], env: Environment): Safe {
  return html`<h1>Charges <span class="muted">(${env}, newest first)</span></h1>
${
  charges.length === 0
    ? html`<p class="muted">No charge yet in ${env}. Create one: <code>${createChargeCommand(env)}</code></p>`
    : html`<div class="table-wrap"><table><caption class="muted">${charges.length} most recent</caption><thead><tr><th scope="col">Charge</th><th scope="col">Status</th><th scope="col">Gross</th><th scope="col" class="opt">Payer</th><th scope="col" class="opt">Description</th><th scope="col">Created</th></tr></thead><tbody>
${charges.map(
  (c) =>
    html`<tr data-charge="${c.id}"><td class="mono id"><a href="/panel/charges/${c.id}?env=${env}">${c.id}</a></td><td>${status(c.status)}</td><td class="nowrap">${brl(c.amount.grossInCents)}</td><td class="opt">${c.payer.name ?? ''} <span class="mono muted">${c.payer.taxNumber}</span></td><td class="opt">${c.description ?? ''}</td><td class="date">${when(c.createdAt)}</td></tr>`,
)}</tbody></table></div>`
}`
}

/** Why a charge's QR is not offered: it can no longer be paid. */
function noQrReason(c: Charge): string {
  switch (c.status) {
    case 'paid_pending_settlement':
    case 'settled':
      return 'it was paid'
    case 'refunded':
      return 'it was paid, then refunded'
    case 'expired':
      return 'it expired unpaid'
    case 'failed':
      return 'the provider could not issue or keep it'
    default:
      return `the charge is ${c.status}`
  }
}

export interface TimelineEvent {
  id: string
  type: string
  createdAt: string
}

export function chargePage(c: Charge, events: TimelineEvent[], deliveries: DeliveryRecord[], csrf: string, message?: string): Safe {
  const env = c.environment
  const split = (c as Charge & { split?: Split }).split
  const targets = env === 'test' ? ADVANCE_TARGETS.filter((t) => advancePath(c.status, t)) : []
  const cancelable = transitionFor(c.status, 'cancel') !== undefined
  const payable = c.status === 'awaiting_payment' || c.status === 'canceled'
  return html`<h1>Charge <span class="mono">${c.id}</span> ${status(c.status)}</h1>${notice(message)}
<div class="row"><div class="card">
${
  // The QR and its copy-and-paste string go together: both while it can be paid, neither after.
  payable
    ? html`<img class="qr" src="/qr/${c.id}.png" alt="QR code of the charge (Pix copy-and-paste string below)">
<h2 id="brcode-label">Pix copy-and-paste</h2><pre id="brcode" aria-labelledby="brcode-label">${c.pix.qrCode}</pre>
<button type="button" class="secondary" data-copy="brcode">Copy</button> <a href="/panel/bank?env=${env}&amp;charge=${c.id}">Pay it in the sandbox bank</a>`
    : html`<p class="muted" data-no-qr>No QR or copy-and-paste string: ${noQrReason(c)}, so it can no longer be paid.</p>`
}
</div><div class="card"><dl>
<dt>Gross</dt><dd class="nowrap">${brl(c.amount.grossInCents)}</dd><dt>Fee</dt><dd class="nowrap">${brl(c.amount.feeInCents)}</dd><dt>Net</dt><dd class="nowrap"><strong>${brl(c.amount.netInCents)}</strong></dd>
<dt>Payer</dt><dd>${c.payer.name ?? ''} <span class="mono">${c.payer.taxNumber}</span></dd>
${c.externalId ? html`<dt>External ID</dt><dd>${c.externalId}</dd>` : ''}${c.description ? html`<dt>Description</dt><dd>${c.description}</dd>` : ''}
${Object.entries(c.metadata ?? {}).map(([k, v]) => html`<dt>metadata.${k}</dt><dd>${v}</dd>`)}
<dt>QR expires</dt><dd>${when(c.pix.expiresAt)}</dd>${c.settlement.paidAt ? html`<dt>Paid</dt><dd>${when(c.settlement.paidAt)}</dd>` : ''}
${c.settlement.estimatedAt && !c.settlement.settledAt ? html`<dt>Settles</dt><dd>${when(c.settlement.estimatedAt)} (after a ${c.settlement.delayHours} h hold)</dd>` : ''}
${c.settlement.settledAt ? html`<dt>Settled</dt><dd>${when(c.settlement.settledAt)}</dd><dt>Blockchain tx</dt><dd class="mono">${c.settlement.blockchainTxId ?? ''}</dd>` : ''}
${split ? html`<dt>Split</dt><dd>${status(split.status)} ${split.failureReason ?? ''}<ul>${split.destinations.map((d) => html`<li>${(d.shareBps / 100).toLocaleString('pt-BR')}% · ${brl(d.amountInCents)} → <span class="mono">${d.wallet}</span>${d.txId ? html` <span class="mono muted">${d.txId}</span>` : ''}</li>`)}</ul></dd>` : ''}
<dt>Created</dt><dd>${when(c.createdAt)}</dd></dl>
${
  targets.length || cancelable
    ? html`<h2>Move it</h2><div class="row">${targets.map((t) => form(`/panel/charges/${c.id}/advance?env=${env}`, csrf, html`<button>Advance to ${t}</button>`, { status: t }, 'inline'))}${cancelable ? form(`/panel/charges/${c.id}/cancel?env=${env}`, csrf, html`<button class="secondary">Cancel</button>`, {}, 'inline') : ''}</div>`
    : ''
}
</div></div>
<h2>Timeline</h2><ol>${events.map((e) => html`<li><span class="mono date">${when(e.createdAt)}</span> ${e.type} <span class="mono muted id">${e.id}</span></li>`)}</ol>
<h2>Deliveries</h2>${deliveryTable(deliveries, env, csrf)}`
}

export function deliveryTable(deliveries: DeliveryRecord[], env: Environment, csrf: string): Safe {
  if (deliveries.length === 0) return html`<p class="muted">No delivery: set a webhook URL for ${env} (Webhook page, or <code>svc webhooks listen</code>).</p>`
  return html`${deliveries.map(
    (
      d,
    ) => html`<details class="card" data-event="${d.eventId}"><summary><time class="date" datetime="${d.createdAt}">${when(d.createdAt)}</time> ${d.injected?.includes('lose') ? html`<span class="status s-warn">lost (injected)</span>` : status(d.state)}${d.injected?.length && !d.injected.includes('lose') ? html` <span class="muted">injected: ${d.injected.join(', ')}</span>` : ''} <strong>${d.type}</strong> <span class="mono id">${d.eventId}</span> · ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.lastStatus !== undefined ? html` · last answer ${d.lastStatus}` : ''}${d.nextRetryAt ? html` · next retry ${when(d.nextRetryAt)}` : ''}</summary>
<dl><dt>URL</dt><dd class="mono">${d.url}</dd><dt>Created</dt><dd>${when(d.createdAt)}</dd>${d.lastError ? html`<dt>Last error</dt><dd>${d.lastError}</dd>` : ''}</dl>
<h3>Body sent</h3><pre>${pretty(d.body)}</pre>
<h3>Response received</h3><pre>${d.lastResponse ?? '(none)'}</pre>
${d.attemptLog?.length ? html`<h3>Attempts</h3><div class="table-wrap"><table><thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Answer</th><th scope="col">Time</th></tr></thead><tbody>${d.attemptLog.map((a) => html`<tr><td>${a.attempt}${a.manual ? ' (resend)' : ''}${a.injected?.length ? ` (injected: ${a.injected.join(', ')})` : ''}</td><td class="date">${when(a.at)}</td><td>${a.status ?? a.error ?? ''}</td><td class="nowrap">${a.durationMs} ms</td></tr>`)}</tbody></table></div>` : ''}
${form(`/panel/deliveries/${encodeURIComponent(d.eventId)}/resend?env=${env}`, csrf, html`<button>Resend</button>`, {}, 'inline')}</details>`,
  )}`
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/** The delivery log's filter, from the query string (`?type=charge.settled&state=failed`); unknown values are ignored. */
export interface DeliveryViewFilter {
  type?: string
  state?: DeliveryViewState
}

export function deliveryFilter(q: URLSearchParams): DeliveryViewFilter {
  const type = q.get('type') ?? ''
  const state = q.get('state') ?? ''
  return {
    ...((EVENT_TYPES as readonly string[]).includes(type) ? { type } : {}),
    ...((DELIVERY_VIEW_STATES as readonly string[]).includes(state) ? { state: state as DeliveryViewFilter['state'] } : {}),
  }
}

export function filterDeliveries(deliveries: DeliveryRecord[], f: DeliveryViewFilter): DeliveryRecord[] {
  return deliveries.filter((d) => (!f.type || d.type === f.type) && (!f.state || d.state === f.state))
}

export function deliveriesPage(deliveries: DeliveryRecord[], env: Environment, csrf: string, message?: string, filter: DeliveryViewFilter = {}): Safe {
  const option = (value: string, selected: boolean) => html`<option value="${value}"${selected ? new Safe(' selected') : ''}>${value || 'any'}</option>`
  const filtered = filter.type !== undefined || filter.state !== undefined
  return html`<h1>Delivery log <span class="muted">(${env})</span></h1>${notice(message)}<p class="muted">Every event sent to your webhook URL: the body, your app's answer, each attempt. Resend sends the same event id with a fresh signature.</p>
<form method="get" action="/panel/deliveries" class="filter"><input type="hidden" name="env" value="${env}"><div><label for="f-type">Event type</label><select id="f-type" name="type">${option('', !filter.type)}${EVENT_TYPES.map((t) => option(t, filter.type === t))}</select></div><div><label for="f-state">State</label><select id="f-state" name="state">${option('', !filter.state)}${DELIVERY_VIEW_STATES.map((t) => option(t, filter.state === t))}</select></div><button class="secondary">Filter</button>${filtered ? html` <a href="/panel/deliveries?env=${env}">Show all</a>` : ''}</form>
${filtered && deliveries.length === 0 ? html`<p class="muted">No delivery matches this filter.</p>` : deliveryTable(deliveries, env, csrf)}`
}

export function webhookPage(endpoint: (WebhookEndpoint & { lastSuccessAt?: string }) | undefined, env: Environment, csrf: string, message?: string, bad = false): Safe {
  return html`<h1>Webhook URL <span class="muted">(${env})</span></h1>${notice(message, bad)}
${endpoint ? html`<dl><dt>URL</dt><dd class="mono">${endpoint.url}</dd><dt>State</dt><dd>${endpoint.active ? html`<span class="status s-ok">active</span>` : html`<span class="status s-bad">deactivated</span> ${when(endpoint.deactivatedAt)} — save the URL again to reactivate it`}</dd>${endpoint.lastSuccessAt ? html`<dt>Last success</dt><dd>${when(endpoint.lastSuccessAt)}</dd>` : ''}</dl>` : html`<p class="muted">No URL set for ${env}.</p>`}
${form(`/panel/webhook?env=${env}`, csrf, html`<label for="url">URL</label><input id="url" name="url" type="url" required size="50" value="${endpoint?.url ?? ''}" placeholder="http://127.0.0.1:3000/webhooks"> <button>Save</button>`)}
<h2>Test event</h2><p class="muted">Sends a <code>charge.test</code> event to the URL above (spec 4.6).</p>${form(`/panel/webhook/test?env=${env}`, csrf, html`<button class="secondary">Send a test event</button>`)}`
}

/** A key's reference in a form: enough to find it, never the key itself in the page. */
export function keyRef(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 20)
}

export function keysPage(keys: Array<SandboxKey & { ref: string }>, env: Environment, csrf: string, created?: string, message?: string): Safe {
  return html`<h1>API keys</h1>${notice(message)}
${created ? html`<div class="notice" role="status"><p>New key — copy it now, it is shown only this once:</p><pre id="newkey">${created}</pre><button type="button" class="secondary" data-copy="newkey">Copy</button></div>` : ''}
<div class="table-wrap"><table><thead><tr><th scope="col">Key</th><th scope="col" class="opt">Environment</th><th scope="col">State</th><th scope="col">Created</th><th scope="col"><span class="muted">Action</span></th></tr></thead><tbody>
${keys.map((k) => html`<tr><td class="mono id">${k.key}</td><td class="opt">${k.environment}</td><td>${k.revoked ? html`<span class="status s-bad">revoked</span>` : html`<span class="status s-ok">active</span>`}</td><td class="date">${when(k.createdAt)}</td><td>${k.revoked ? '' : form(`/panel/keys/revoke?env=${env}`, csrf, html`<button class="secondary" aria-label="Revoke ${k.key}">Revoke</button>`, { ref: k.ref }, 'inline')}</td></tr>`)}</tbody></table></div>
${form(`/panel/keys?env=${env}`, csrf, html`<label for="key-env">Environment of the new key</label><select id="key-env" name="env"><option value="test"${env === 'test' ? ' selected' : ''}>test</option><option value="live"${env === 'live' ? ' selected' : ''}>live</option></select> <button>Create a key</button>`)}`
}

export function maskedKeys(keys: SandboxKey[]): Array<SandboxKey & { ref: string }> {
  return keys.map((k) => ({ ...k, key: maskSecret(k.key), ref: keyRef(k.key) }))
}

export function accountPage(s: AccountSettings, plan: { id: string; name: string }, env: Environment, csrf: string, message?: string, bad = false): Safe {
  const num = (id: string, label: string, value: number, hint: string) =>
    html`<label for="${id}">${label}</label><input id="${id}" name="${id}" type="number" min="0" value="${value}" aria-describedby="${id}-hint"> <span id="${id}-hint" class="muted">${hint}</span>`
  const flag = (id: string, label: string, on: boolean) => html`<label><input type="checkbox" name="${id}" value="1"${on ? ' checked' : ''}> ${label}</label>`
  return html`<h1>Account</h1>${notice(message, bad)}<dl><dt>Plan</dt><dd>${plan.name} <span class="mono muted">${plan.id}</span></dd></dl>
${form(
  `/panel/account?env=${env}`,
  csrf,
  html`${num('feeBps', 'Fee (basis points)', s.feeBps, '199 = 1,99% of the gross')}${num('feeFixedInCents', 'Fixed fee (centavos)', s.feeFixedInCents, 'per charge')}${num('settlementDelayHours', 'Settlement hold (hours)', s.settlementDelayHours, 'paid → settled')}${num('qrValiditySeconds', 'QR validity (seconds)', s.qrValiditySeconds, 'awaiting_payment → expired')}
<fieldset><legend>Account state</legend>${flag('activated', 'Activated (may receive charges)', s.activated)}${flag('blocked', 'Charge creation blocked', s.blocked)}${flag('merchantIdPresent', 'Has a merchant id at the provider', s.merchantIdPresent)}</fieldset><p><button>Save</button></p>`,
)}`
}

export function clockPage(now: string, speed: number, env: Environment, csrf: string, message?: string, bad = false): Safe {
  return html`<h1>Clock</h1>${notice(message, bad)}<dl><dt>Sandbox time</dt><dd>${when(now)}</dd><dt>Speed</dt><dd>${speed}× wall time</dd></dl>
${form(`/panel/clock/advance?env=${env}`, csrf, html`<label for="duration">Move forward by</label><input id="duration" name="duration" required placeholder="25h, 90s, 1h30m"> <button>Advance</button>`)}
<p class="muted">Expiries, settlements and webhook retries that fall due run at once.</p>`
}

export interface BankView {
  code?: string
  decoded?: DecodedPix
  charge?: Charge
  error?: string
  paid?: boolean
}

export function bankPage(v: BankView, env: Environment, csrf: string): Safe {
  const c = v.charge
  return html`<h1>Sandbox bank</h1><p class="muted">Pays a charge as the payer's bank app would: paste its Pix copy-and-paste string.</p>
${v.error ? notice(v.error, true) : ''}${v.paid && c ? notice(`Paid ${brl(c.amount.grossInCents)} to ${v.decoded?.merchantName ?? 'the merchant'}: the charge is now ${c.status}.`) : ''}
${form(`/panel/bank?env=${env}`, csrf, html`<label for="code">Pix copy-and-paste</label><textarea id="code" name="code" required spellcheck="false">${v.code ?? ''}</textarea><p><button name="action" value="check" class="secondary">Check</button> <button name="action" value="pay">Pay</button></p>`)}
${
  v.decoded
    ? html`<div class="card"><h2>Payment</h2><dl><dt>To</dt><dd>${v.decoded.merchantName}, ${v.decoded.merchantCity}</dd>${v.decoded.url ? html`<dt>Location</dt><dd class="mono">${v.decoded.url}</dd>` : ''}${v.decoded.key ? html`<dt>Pix key</dt><dd class="mono">${v.decoded.key}</dd>` : ''}
${c ? html`<dt>Amount</dt><dd><strong>${brl(c.amount.grossInCents)}</strong></dd><dt>Expires</dt><dd>${when(c.pix.expiresAt)}</dd><dt>Charge</dt><dd><a href="/panel/charges/${c.id}?env=${c.environment}">${c.id}</a> ${status(c.status)} (${c.environment})</dd>` : v.decoded.amountInCents !== undefined ? html`<dt>Amount</dt><dd>${brl(v.decoded.amountInCents)}</dd>` : ''}</dl></div>`
    : ''
}`
}

export function errorPage(title: string, message: string): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><title>${title} · svc sandbox</title><link rel="stylesheet" href="/panel/assets/panel.css"></head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`}`
}
