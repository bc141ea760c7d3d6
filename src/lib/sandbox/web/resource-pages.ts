/**
 * The panel's pages of the resources beside charges: withdrawals (started with
 * `svc trigger withdrawal.paid` or `POST /_sandbox/withdrawals`) and product sales (always live,
 * `svc trigger product.paid`). Pure renderers: data in, escaped HTML out.
 */
import type { ProductPayment } from '../../contract/product-sales.js'
import type { Withdrawal } from '../../contract/withdrawals.js'
import { brl, html, type Safe, status, when } from './html.js'
import type { Environment } from '../../contract/schemas.js'

export function withdrawalsPage(list: Withdrawal[], env: Environment): Safe {
  return html`<h1>Withdrawals <span class="muted">(${env}, newest first)</span></h1>
${
  list.length === 0
    ? html`<p class="muted">No withdrawal yet in ${env}. Start one: <code>svc trigger withdrawal.paid${env === 'live' ? ' --env live' : ''}</code></p>`
    : html`<div class="table-wrap"><table><caption class="muted">${list.length} most recent</caption><thead><tr><th scope="col">Withdrawal</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col" class="opt">Pix key</th><th scope="col" class="opt">End-to-end id / reason</th><th scope="col">Updated</th></tr></thead><tbody>
${list.map(
  (w) =>
    html`<tr data-withdrawal="${w.id}"><td class="mono id">${w.id}</td><td>${status(w.status)}</td><td class="nowrap">${brl(w.amountInCents)}</td><td class="mono opt">${w.pix.key}</td><td class="opt">${w.pix.endToEndId ? html`<span class="mono">${w.pix.endToEndId}</span>` : (w.failureReason ?? '')}</td><td class="date">${when(w.updatedAt)}</td></tr>`,
)}</tbody></table></div>`
}`
}

export function productSalesPage(list: ProductPayment[], env: Environment): Safe {
  return html`<h1>Product sales <span class="muted">(always live, newest first)</span></h1>
${env === 'test' ? html`<p class="muted">Sales through the service's checkout happen only in the live environment: this list is the same in both.</p>` : ''}
${
  list.length === 0
    ? html`<p class="muted">No sale yet. Simulate one: <code>svc trigger product.paid</code></p>`
    : html`<div class="table-wrap"><table><caption class="muted">${list.length} most recent</caption><thead><tr><th scope="col">Sale</th><th scope="col">Product</th><th scope="col">Value</th><th scope="col" class="opt">Net</th><th scope="col" class="opt">Buyer</th><th scope="col" class="opt">Paid with</th><th scope="col">Paid</th></tr></thead><tbody>
${list.map(
  (p) =>
    html`<tr data-sale="${p.id}"><td class="mono id">${p.id}</td><td>${p.product.name}</td><td class="nowrap">${brl(p.valueInCents)}</td><td class="nowrap opt">${brl(p.netValueInCents)}</td><td class="opt">${p.buyerEmail}</td><td class="opt">${p.paidWith}</td><td class="date">${when(p.paidAt)}</td></tr>`,
)}</tbody></table></div>`
}`
}
