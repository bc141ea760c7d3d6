/**
 * One delivery's row as cells (text/fit.ts): when, what, verification, what the app answered,
 * and the API's verdict. On a narrow terminal the times received (when first), event id, time and
 * subject go first; the type, the verification, the app's answer and the verdict stay.
 * Pure: the live view's frame is built from these before Ink loads (view-models/listen-frame.ts).
 */
import { safeText } from '../../output/safe-text.js'
import type { Piece, Segment } from './fit.js'
import type { FeedDelivery } from '../view-models/listen-feed.js'
import { type InkColor, shortId, subjectShort, subjectText, verdictShort, verdictText, viewTime } from './format.js'

function verification(d: FeedDelivery): { forms: string[]; color: InkColor } {
  if (d.source === 'replay') return { forms: ['↻ replay', '↻'], color: 'cyan' }
  if (d.verification === 'verified') return { forms: ['✔ verified', '✔'], color: 'green' }
  if (d.verification === 'skipped') return { forms: [d.verifyReason ? `⚠ UNVERIFIED (${safeText(d.verifyReason)})` : '⚠ UNVERIFIED', '⚠ UNVERIFIED', '⚠'], color: 'yellow' }
  return { forms: [`✘ ${safeText(d.verifyReason ?? 'rejected')}`, '✘'], color: 'red' }
}

function outcome(d: FeedDelivery): { forms: string[]; color: InkColor } {
  const ms = d.latencyMs !== undefined ? ` ${d.latencyMs}ms` : ''
  switch (d.outcome) {
    case 'forwarded':
      return { forms: [`→ ${d.forwardStatus}${ms}`, `→ ${d.forwardStatus}`], color: 'green' }
    case 'failed': {
      const app = d.forwardStatus ?? (d.answeredStatus === 504 ? 'timeout' : 'down')
      return { forms: [`→ ${app}${ms} (answered ${d.answeredStatus || '—'})`, `→ ${app} (${d.answeredStatus || '—'})`], color: 'red' }
    }
    case 'rejected':
      return { forms: [`answered ${d.answeredStatus}`, `${d.answeredStatus}`], color: 'red' }
    case 'duplicate':
      return { forms: ['duplicate, not forwarded', 'duplicate'], color: 'gray' }
    case 'skipped':
      return { forms: ['filtered out', 'filtered'], color: 'gray' }
  }
}

const one = (text: string, style: Omit<Piece, 'text'> = {}): Piece[] => [{ text, ...style }]

/** The aligned part of a row (see fitColumns): marker, time, type, event id, verification, the app's answer, times received. */
export function deliveryCells(d: FeedDelivery, selected: boolean, now?: string): Segment[] {
  const v = verification(d)
  const o = outcome(d)
  return [
    { forms: [one(selected ? '›' : ' ', { inverse: selected })], priority: 100 },
    { forms: [one(viewTime(d.receivedAt, now), { dim: true }), []], priority: 25 },
    { forms: [one(safeText(d.type ?? '(no type)'), { bold: true })], priority: 100 },
    { forms: [one(shortId(d.eventId), { dim: true }), []], priority: 20 },
    { forms: v.forms.map((t) => one(t, { color: v.color })), priority: 70 },
    { forms: o.forms.map((t) => one(t, { color: o.color })), priority: 75 },
    { forms: [one(`${d.attempt}×`, { dim: true }), []], priority: 35 },
  ]
}

/** The free end of a row, fitted row by row: what it is about, the API's verdict, out of order. */
export function deliveryTail(d: FeedDelivery): Segment[] {
  const verdict = verdictText(d.verdict)
  const subject = subjectText(d.summary)
  const tail: Segment[] = []
  const short = subjectShort(d.summary)
  // A charge's id cut short says nothing: it goes whole or not at all; other subjects may be cut.
  if (subject) tail.push(short !== subject ? { forms: [one(subject), one(short), []], priority: 30 } : { forms: [one(subject), []], priority: 30, cut: true })
  if (verdict)
    tail.push({ forms: [one(verdict.text, { color: verdict.color }), one(verdictShort(d.verdict)!, { color: verdict.color })], priority: 50, cut: d.verdict?.kind === 'mismatch' || d.verdict?.kind === 'unavailable' })
  if (d.outOfOrder) tail.push({ forms: [one('↯ out of order', { color: 'yellow' }), one('↯', { color: 'yellow' })], priority: 50 })
  // With several targets, which app it went to (cut first: the details say it whole).
  if (d.showTarget && d.target) tail.push({ forms: [one(`⇢ ${safeText(d.target)}`, { dim: true }), []], priority: 15, cut: true })
  return tail
}
