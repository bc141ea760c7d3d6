/**
 * The frame of `svc charges watch`'s live view as rows of data (text/fit.ts FrameRow): the header,
 * a lane per charge scrolled around the selected one, the legend, the details box when open, what
 * is missing or failing, the status lines and the keys. WatchApp draws these rows with Ink; the
 * first frame is painted from the same rows before Ink has loaded (mount/first-paint.ts).
 */
import { splitOf } from '../../contract/charge-split.js'
import type { Charge, Environment } from '../../contract/schemas.js'
import { formatBRL } from '../../domain/money.js'
import { safeText } from '../../output/safe-text.js'
import { fitColumns, type FrameRow, type Segment } from '../text/fit.js'
import { badgePieces, shortId, viewTime } from '../text/format.js'
import { laneCells, laneEndCells, legendSegment } from '../text/lane-cells.js'
import type { WatchState } from './charge-watcher.js'

/**
 * The details box's rows: times in the views' one format (viewTime, on the service's clock as the
 * lanes are: `now` is the last poll's time), and a split charge's division, share by share.
 */
export function chargeRows(c: Charge, now?: string): Array<[string, string]> {
  const time = (iso: string | undefined) => (iso === undefined ? undefined : viewTime(iso, now))
  const rows: Array<[string, string | undefined]> = [
    ['id', c.id],
    ['status', c.status],
    ['amount', `${formatBRL(c.amount.grossInCents)} (fee ${formatBRL(c.amount.feeInCents)}, net ${formatBRL(c.amount.netInCents)})`],
    ['order id', c.externalId],
    ['expires', time(c.pix.expiresAt)],
    ['paid', time(c.settlement.paidAt)],
    ['settles (est.)', time(c.settlement.estimatedAt)],
    ['settled', time(c.settlement.settledAt)],
    ['blockchain tx', c.settlement.blockchainTxId],
  ]
  const split = splitOf(c)
  if (split) {
    const parts = `${split.destinations.length} destination${split.destinations.length === 1 ? '' : 's'}`
    const when = split.completedAt ? ` at ${time(split.completedAt)}` : ''
    rows.push(['split', `${split.status}${when}, ${parts}${split.failureReason ? ` — ${split.failureReason}` : ''}`])
    for (const d of split.destinations) {
      rows.push([`  ${(d.shareBps / 100).toLocaleString('pt-BR')}%`, `${formatBRL(d.amountInCents)} → ${shortId(d.wallet, 10)}${d.txId ? ` tx ${shortId(d.txId)}` : ''}`])
    }
  }
  rows.push(['updated', time(c.updatedAt)])
  return rows.filter((r): r is [string, string] => r[1] !== undefined)
}

export interface WatchFrameInput {
  state: WatchState
  environment?: Environment
  /** What is watched, for the header: "3 charges" or "the 10 newest charges". */
  scope: string
  intervalMs: number
  columns: number
  height: number
  /** The selected lane's charge id (the first lane when undefined or gone). */
  selected?: string
  details: boolean
  /** The last lines that reached stderr while the view is up. */
  statusLines: readonly string[]
}

export interface WatchFrame {
  rows: FrameRow[]
  /** The selected lane's position among all the lanes. */
  index: number
  /** The selected charge, when the details box is open (its rows: `other` with id `details`). */
  details?: Charge
}

export function watchFrame(f: WatchFrameInput): WatchFrame {
  const { state, columns, height } = f
  const found = state.lanes.findIndex((l) => l.chargeId === f.selected)
  const index = found === -1 ? 0 : found
  const current = state.lanes[index]
  const charge = current ? state.charges[current.chargeId] : undefined
  const statusLines = f.statusLines.slice(-2)
  const open = f.details && charge !== undefined
  const detailRows = open ? chargeRows(charge, state.lastPollAt).length + 2 : 0
  const legend = state.lanes.length > 0 ? 1 : 0
  const fixed = 1 + legend + (state.missing.length > 0 ? 1 : 0) + (state.error ? 1 : 0) + statusLines.length + 1 + detailRows
  // Below the terminal's height (see ListenApp): lanes scroll around the selected one.
  const space = Math.max(1, height - 1 - fixed)
  const gap = space > 4 ? 1 : 0
  const laneRows = Math.max(1, space - gap)
  const start = Math.max(0, Math.min(index - Math.floor(laneRows / 2), state.lanes.length - laneRows))
  const shown = state.lanes.slice(start, start + laneRows)
  const marker = (on: boolean): Segment => ({ forms: [[{ text: on ? '›' : ' ', inverse: on }]], priority: 100 })
  // A lane's end (a split's outcome, out of order) is aligned columns too, weighed against the
  // states and the amount: `split ✓ 2 parts` whole at 120 columns, the amount kept at 60.
  const cells = fitColumns(
    shown.map((l) => [marker(l.chargeId === current?.chargeId), ...laneCells(l, state.lastPollAt), ...laneEndCells(l)]),
    columns,
  )
  const badge = badgePieces(f.environment)
  const poll = state.lastPollAt ? ` at ${viewTime(state.lastPollAt)}` : ''
  const header: Segment[] = [
    ...(badge.length ? [{ forms: [badge], priority: 100 }] : []),
    { forms: [[{ text: 'watching', bold: true }], []], priority: 30 },
    { forms: [[{ text: f.scope }]], priority: 90, cut: true },
    { forms: [[{ text: `· every ${f.intervalMs / 1000} s`, dim: true }], []], priority: 20 },
    {
      forms: [
        [{ text: `· poll #${state.polls}${poll}${state.serviceClock ? ' (service clock)' : ''}`, dim: true }],
        ...(state.serviceClock ? [[{ text: `· #${state.polls}${poll} (service)`, dim: true }]] : []),
        [{ text: `· #${state.polls}${poll}`, dim: true }],
        [],
      ],
      priority: 50,
    },
  ]
  const rows: FrameRow[] = [{ kind: 'fit', segments: header, key: 'header' }]
  if (gap) rows.push({ kind: 'blank', key: 'gap' })
  if (state.lanes.length === 0) rows.push({ kind: 'text', text: state.polls === 0 ? 'loading…' : 'no charges yet', style: { dim: true }, key: 'empty' })
  for (const [i, l] of shown.entries()) rows.push({ kind: 'fit', segments: [{ forms: [cells[i]!], priority: 1000 }], key: `lane:${l.chargeId}` })
  if (legend) rows.push({ kind: 'fit', segments: [{ ...legendSegment(), forms: legendSegment().forms.slice(0, 2) }], key: 'legend' })
  if (open) rows.push({ kind: 'other', id: 'details', height: detailRows, key: 'details' })
  if (state.missing.length > 0) rows.push({ kind: 'text', text: `not found in this environment: ${safeText(state.missing.join(', '))}`, style: { color: 'yellow' }, key: 'missing' })
  if (state.error) rows.push({ kind: 'text', text: `last poll failed: ${safeText(state.error)}`, style: { color: 'red' }, key: 'error' })
  for (const [i, l] of statusLines.entries()) rows.push({ kind: 'text', text: safeText(l), style: { dim: true }, key: `status:${i}` })
  rows.push({ kind: 'text', text: '↑/↓ select · Enter details · q quit', style: { dim: true }, key: 'keys' })
  return { rows, index, ...(open ? { details: charge } : {}) }
}
