/**
 * Server-rendered HTML for the panel: every string from outside (descriptions, metadata, payer
 * names, the app's answers, delivery bodies, URLs) goes through `esc`; the tagged template `html`
 * escapes every interpolation unless it is already `Safe` markup made here.
 */
import { formatBRL } from '../../domain/money.js'
import { formatLocalTime } from '../../domain/time.js'
import type { Environment } from '../../contract/schemas.js'

export class Safe {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

type Part = Safe | string | number | undefined | null | false | readonly Part[]

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return ''
  if (part instanceof Safe) return part.value
  if (Array.isArray(part)) return part.map(render).join('')
  return esc(part)
}

/** `html\`<td>${text}</td>\`` with `text` escaped; arrays are joined, `Safe` parts kept as is. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Safe {
  let out = strings[0]!
  parts.forEach((p, i) => {
    out += render(p) + strings[i + 1]!
  })
  return new Safe(out)
}

export const brl = (cents: number | undefined): string => (cents === undefined ? '' : formatBRL(cents))
export const when = (iso: string | undefined): string => (iso ? formatLocalTime(iso) : '')

const TONES: Record<string, string> = {
  settled: 's-ok',
  succeeded: 's-ok',
  paid: 's-ok',
  completed: 's-ok',
  awaiting_payment: 's-warn',
  paid_pending_settlement: 's-warn',
  pending: 's-warn',
  processing: 's-warn',
  failed: 's-bad',
  expired: 's-dim',
  canceled: 's-dim',
  refunded: 's-dim',
  skipped: 's-dim',
}

export function status(value: string): Safe {
  // A narrow screen may break `awaiting_payment` after its underscore, never elsewhere.
  const breakable = new Safe(value.split('_').map(esc).join('_<wbr>'))
  return html`<span class="status ${TONES[value] ?? ''}">${breakable}</span>`
}

export interface LayoutOptions {
  title: string
  current: string
  env: Environment
  /** The page updates itself when the sandbox changes (charges, deliveries). */
  live?: boolean
}

const NAV: Array<[string, string]> = [
  ['charges', 'Charges'],
  ['deliveries', 'Deliveries'],
  ['withdrawals', 'Withdrawals'],
  ['sales', 'Sales'],
  ['webhook', 'Webhook'],
  ['keys', 'Keys'],
  ['account', 'Account'],
  ['clock', 'Clock'],
  ['bank', 'Sandbox bank'],
]

export function layout(o: LayoutOptions, body: Safe): string {
  const other = o.env === 'test' ? 'live' : 'test'
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · svc sandbox</title><link rel="icon" href="/favicon.ico" type="image/svg+xml"><link rel="stylesheet" href="/panel/assets/panel.css"><script src="/panel/assets/panel.js" defer></script></head>
<body><header><strong>svc sandbox</strong><span class="env ${o.env}">${o.env.toUpperCase()}</span>
<nav aria-label="Panel">${NAV.map(([page, label]) => html`<a href="/panel/${page}?env=${o.env}"${page === o.current ? new Safe(' aria-current="page"') : ''}>${label}</a>`)}</nav>
<a href="/panel/${o.current}?env=${other}">Switch to ${other}</a>${o.live ? html`<span class="muted updates" id="live-status" role="status" title="Whether this page updates itself as the sandbox changes">updates: connecting…</span>` : ''}</header>
<main id="main"${o.live ? new Safe(' data-live') : ''}>${body}</main></body></html>`}`
}

/** A POST form with its CSRF token; `fields` are hidden inputs. */
export function form(action: string, csrf: string, inner: Safe | string, fields: Record<string, string> = {}, cls = ''): Safe {
  return html`<form method="post" action="${action}"${cls ? new Safe(` class="${esc(cls)}"`) : ''}><input type="hidden" name="_csrf" value="${csrf}">${Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}${inner}</form>`
}
