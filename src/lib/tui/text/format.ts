/**
 * Short texts shared by the live views (pure, so the wording is tested without rendering). Ids,
 * types, names and messages come from deliveries and the API: they pass through safeText, so a
 * control character in them is shown, never obeyed by the terminal.
 */
import { TEST_EVENT_TYPE } from '../../contract/event-types.js'
import { type ChargeStatus, STATUS_TONE } from '../../domain/charge-states.js'
import { formatBRL } from '../../domain/money.js'
import { badgeOf, TONE_STYLE } from '../../output/color.js'
import { safeText } from '../../output/safe-text.js'
import type { Verdict } from '../../webhooks/confirm.js'
import type { EventSummary } from '../../webhooks/event-summary.js'
import type { Piece } from './fit.js'

export type InkColor = 'green' | 'red' | 'yellow' | 'cyan' | 'gray' | 'blue' | 'magenta' | 'white'

/** The colour of a charge status, from the domain's tones. */
export function statusColor(status: ChargeStatus): InkColor {
  return TONE_STYLE[STATUS_TONE[status]] as InkColor
}

/** `14:05:09` in local time. */
export function clockTime(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toTimeString().slice(0, 8)
}

const pad2 = (n: number) => String(n).padStart(2, '0')

/**
 * The one date format of the live views (lanes, rows, headers, details boxes), in local time:
 * `14:05:09` on `now`'s day, `21/11 14:05` on another day of its year, `21/11/2025 14:05` before.
 * `now` is on the same clock as `iso` (the service's for the lanes); none: the time of day.
 */
export function viewTime(iso: string, now?: string | Date): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return safeText(iso)
  const ref = now === undefined ? undefined : new Date(now)
  if (!ref || Number.isNaN(ref.getTime()) || d.toDateString() === ref.toDateString()) return clockTime(iso)
  const day = `${pad2(d.getDate())}/${pad2(d.getMonth() + 1)}`
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}`
  return d.getFullYear() === ref.getFullYear() ? `${day} ${time}` : `${day}/${d.getFullYear()} ${time}`
}

/** `a1b2c3…e5f6` for long ids, as is for short ones. */
export function shortId(id: string | undefined, keep = 6): string {
  if (!id) return '—'
  const chars = [...safeText(id)]
  return chars.length <= keep * 2 + 1 ? chars.join('') : `${chars.slice(0, keep).join('')}…${chars.slice(-4).join('')}`
}

export function verdictText(v: Verdict | undefined): { text: string; color: InkColor } | undefined {
  if (!v) return undefined
  switch (v.kind) {
    case 'pending':
      return { text: '… confirming', color: 'gray' }
    case 'confirmed':
      return { text: v.movedOn ? `✔ confirmed (now ${v.api})` : '✔ confirmed', color: 'green' }
    case 'mismatch':
      return { text: `✘ mismatch: ${safeText(v.reason)}`, color: 'red' }
    case 'unavailable':
      return { text: `? not confirmed: ${safeText(v.reason)}`, color: 'yellow' }
    case 'stale':
      return { text: `⚠ stale: says ${v.announced}, the charge is now ${v.api}`, color: 'yellow' }
    case 'test':
      return { text: '✔ test event (no real charge to confirm)', color: 'green' }
  }
}

/** The verdict in a few columns, for narrow terminals. */
export function verdictShort(v: Verdict | undefined): string | undefined {
  if (!v) return undefined
  switch (v.kind) {
    case 'pending':
      return '…'
    case 'confirmed':
      return v.movedOn ? `✔ now ${v.api}` : '✔'
    case 'mismatch':
      return '✘ mismatch'
    case 'unavailable':
      return '? not confirmed'
    case 'stale':
      return `⚠ stale (now ${v.api})`
    case 'test':
      return '✔ test'
  }
}

/** What the event is about, in a few words: a charge, a split, a withdrawal or a product sale. */
export function subjectText(s: EventSummary): string {
  return safeText(rawSubject(s))
}

/** The subject without amounts and details: for a charge, its id alone. */
export function subjectShort(s: EventSummary): string {
  if (s.type === TEST_EVENT_TYPE) return subjectText(s)
  return s.charge && !s.productPayment && !s.withdrawal ? `charge ${shortId(s.charge.id)}` : subjectText(s)
}

function rawSubject(s: EventSummary): string {
  // The service's test event carries a sample charge, not one of the account's.
  if (s.type === TEST_EVENT_TYPE) return 'test event'
  if (s.productPayment) {
    const p = s.productPayment
    const value = p.valueInCents !== undefined ? formatBRL(p.valueInCents) : ''
    const net = p.netValueInCents !== undefined ? ` (net ${formatBRL(p.netValueInCents)})` : ''
    return ['product', p.product ?? '', value + net, p.buyerEmail ?? ''].filter(Boolean).join(' ')
  }
  if (s.withdrawal) {
    const w = s.withdrawal
    return ['withdrawal', shortId(w.id), w.status ?? '', w.endToEndId ? `e2e ${w.endToEndId}` : ''].filter(Boolean).join(' ')
  }
  if (s.charge) {
    const amount = s.charge.grossInCents !== undefined ? ` ${formatBRL(s.charge.grossInCents)}` : ''
    const split = s.split ? ` split: ${s.split.length} destination${s.split.length === 1 ? '' : 's'}${s.split[0]?.txId ? ` tx ${shortId(s.split[0].txId)}` : ''}` : ''
    return `charge ${shortId(s.charge.id)}${amount}${split}`
  }
  return s.json ? '' : 'not JSON'
}

/** The TEST / LIVE badge as pieces of a fitted line (output/color's label and colour, bold, inverse). */
export function badgePieces(environment?: string): Piece[] {
  if (!environment) return []
  const { label, color } = badgeOf(environment)
  return [{ text: label, color, bold: true, inverse: true }]
}
