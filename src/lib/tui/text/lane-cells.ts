/**
 * The cells of one charge's lane, pure: the live views draw them with Ink, and their first frames
 * are painted from them before Ink has loaded (mount/first-paint.ts). Every state
 * of the happy path (and any other it reached), the current one bold; ● reached, ◌ passed without
 * its event being received, ↯ arrived out of order, ○ not reached (LANE_LEGEND, shown by both
 * views that draw lanes). `created` has no event, so it is never ◌: reached is all there is to know.
 * Narrower terminals lose the time first (it comes back when a later step leaves room), then get
 * short state names, then the icons alone (with the current state's name); the amount goes after
 * that, the verdict last.
 */
import type { ChargeStatus } from '../../domain/charge-states.js'
import { formatBRL } from '../../domain/money.js'
import type { Piece, Segment } from './fit.js'
import { shortId, statusColor, verdictShort, verdictText, viewTime } from './format.js'
import { type Lane, laneColumns } from '../view-models/lanes.js'

/** The one legend of the lanes, in `webhooks listen` and `charges watch` alike. */
export const LANE_LEGEND = '● reached · ◌ reached, event not received · ↯ out of order · ○ not reached'
/** The legend for narrow terminals (each sign still explained). */
export const LANE_LEGEND_SHORT = '● reached ◌ no event ↯ out of order ○ not reached'

/** The legend as a fitted segment: whole, short, or gone when even that does not fit. */
export function legendSegment(gap = ' '): Segment {
  return { forms: [[{ text: LANE_LEGEND, dim: true }], [{ text: LANE_LEGEND_SHORT, dim: true }], []], priority: 10, gap }
}

const SHORT: Partial<Record<ChargeStatus, string>> = { awaiting_payment: 'awaiting', paid_pending_settlement: 'paid' }

function stepPieces(lane: Lane, form: 'full' | 'short' | 'icons'): Piece[] {
  const reached = new Map(lane.steps.map((s) => [s.status, s]))
  const out: Piece[] = []
  laneColumns(lane).forEach((status, i) => {
    const step = reached.get(status)
    const icon = step?.inferred ? '◌' : step ? (step.outOfOrder ? '↯' : '●') : '○'
    const style: Piece = step?.inferred ? { text: '', color: statusColor(status), dim: true } : step ? { text: '', color: statusColor(status), bold: status === lane.current } : { text: '', dim: true }
    if (form === 'icons') {
      out.push({ ...style, text: icon })
      return
    }
    if (i > 0) out.push({ text: form === 'full' ? ' ─ ' : ' ', dim: true })
    out.push({ ...style, text: form === 'full' ? `${icon} ${status}` : `${icon}${SHORT[status] ?? status}` })
  })
  if (form === 'icons') out.push({ text: ' ' }, { text: lane.current, color: statusColor(lane.current), bold: true })
  return out
}

/**
 * The aligned part of a lane (see fitColumns): id, states, amount, time of the last state (on the
 * service's clock, dated when it is not from `now`'s day; see viewTime).
 */
export function laneCells(lane: Lane, now?: string): Segment[] {
  const last = lane.steps[lane.steps.length - 1]
  return [
    { forms: [[{ text: shortId(lane.chargeId) }]], priority: 100 },
    { forms: [stepPieces(lane, 'full'), stepPieces(lane, 'short'), stepPieces(lane, 'icons')], priority: 60, gap: '  ' },
    // The amount outlives the states' names (short, then icons): it is how a person tells two charges apart.
    { forms: [lane.grossInCents !== undefined ? [{ text: formatBRL(lane.grossInCents) }] : [], []], priority: 65 },
    { forms: [last ? [{ text: viewTime(last.at, now), dim: true }] : [], []], priority: 20 },
  ]
}

/**
 * The end of a lane as aligned columns (charges watch, which has no verdicts): the split's outcome
 * and whether a state arrived out of order, every lane with both columns (empty when it has
 * neither), so fitColumns weighs them against the states and the amount.
 */
export function laneEndCells(lane: Lane): Segment[] {
  const [split, late] = [lane.split ? splitSegment(lane.split) : undefined, lane.steps.some((s) => s.outOfOrder) ? lateSegment() : undefined]
  return [split ?? { forms: [[]], priority: 55 }, late ?? { forms: [[]], priority: 50 }]
}

function splitSegment(split: NonNullable<Lane['split']>): Segment {
  const ok = split.status === 'completed'
  const text = ok ? `split ✓ ${split.parts} part${split.parts === 1 ? '' : 's'}` : 'split ✗ failed, asset held'
  return { forms: [[{ text, color: ok ? 'green' : 'red' }], [{ text: ok ? 'split ✓' : 'split ✗', color: ok ? 'green' : 'red' }]], priority: 55 }
}

function lateSegment(): Segment {
  return { forms: [[{ text: 'out of order', color: 'yellow' }], [{ text: '↯', color: 'yellow' }]], priority: 50 }
}

/** The free end of a lane: the API's verdict and whether a state arrived out of order. */
export function laneTail(lane: Lane, showVerdict = true): Segment[] {
  const verdict = showVerdict ? verdictText(lane.verdict) : undefined
  const tail: Segment[] = []
  if (verdict)
    tail.push({
      forms: [[{ text: verdict.text, color: verdict.color }], [{ text: verdictShort(lane.verdict)!, color: verdict.color }]],
      priority: 50,
      cut: lane.verdict?.kind === 'mismatch' || lane.verdict?.kind === 'unavailable',
    })
  if (lane.split) tail.push(splitSegment(lane.split))
  if (lane.steps.some((s) => s.outOfOrder)) tail.push(lateSegment())
  return tail
}
