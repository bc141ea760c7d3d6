/**
 * A withdrawal's lane (● processing ─ ● paid, or ✗ failed, with the end-to-end id that proves
 * the payment) or a product sale (● paid, the product and buyer) as cells (text/fit.ts). Pure:
 * the live view's frame is built from these before Ink loads (view-models/listen-frame.ts).
 */
import { formatBRL } from '../../domain/money.js'
import { safeText } from '../../output/safe-text.js'
import type { ActivityLane } from '../view-models/activity.js'
import { withdrawalColumns } from '../view-models/activity.js'
import type { Piece, Segment } from './fit.js'
import { shortId, viewTime } from './format.js'

const COLOR: Record<string, Piece['color']> = { processing: 'yellow', paid: 'green', failed: 'red' }

function stepPieces(lane: ActivityLane, form: 'full' | 'icons'): Piece[] {
  const seen = new Set(lane.steps.map((s) => s.status))
  const columns = lane.kind === 'withdrawal' ? withdrawalColumns(lane) : ['paid']
  const out: Piece[] = []
  columns.forEach((status, i) => {
    const reached = seen.has(status)
    const icon = reached ? (status === 'failed' ? '✗' : '●') : '○'
    const style: Piece = reached ? { text: '', color: COLOR[status], bold: status === lane.current } : { text: '', dim: true }
    if (form === 'icons') out.push({ ...style, text: icon })
    else {
      if (i > 0) out.push({ text: ' ─ ', dim: true })
      out.push({ ...style, text: `${icon} ${status}` })
    }
  })
  return out
}

export function activityCells(lane: ActivityLane, now?: string): Segment[] {
  const last = lane.steps.at(-1)
  const label = lane.kind === 'withdrawal' ? `withdrawal ${shortId(lane.id)}` : 'product sale'
  return [
    { forms: [[{ text: label }], [{ text: lane.kind === 'withdrawal' ? shortId(lane.id) : 'sale' }]], priority: 100 },
    { forms: [stepPieces(lane, 'full'), stepPieces(lane, 'icons')], priority: 60, gap: '  ' },
    { forms: [lane.amountInCents !== undefined ? [{ text: formatBRL(lane.amountInCents) }] : [], []], priority: 30 },
    { forms: [last ? [{ text: viewTime(last.at, now), dim: true }] : [], []], priority: 20 },
  ]
}

export function activityTail(lane: ActivityLane): Segment[] {
  if (!lane.detail) return []
  const text = lane.kind === 'withdrawal' ? `e2e ${safeText(lane.detail)}` : safeText(lane.detail)
  return [{ forms: [[{ text, dim: true }], []], priority: 40, cut: true }]
}
