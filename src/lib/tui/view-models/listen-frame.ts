/**
 * The frame of `svc webhooks listen`'s live view as rows of data (text/fit.ts FrameRow): the
 * header (where it listens and forwards, the registration, --skip-verify, the counts), each
 * charge's lane and the other activity, the deliveries scrolled around the selected one (or the
 * selected one's details box), the notices, the status lines and the keys. ListenApp draws these
 * rows with Ink (its start notes, printed once above the frame, stay Ink's `<Static>`); the first
 * frame is painted from the same rows before Ink has loaded (mount/first-paint.ts).
 */
import type { Environment } from '../../contract/schemas.js'
import { safeText } from '../../output/safe-text.js'
import { fitColumns, type FrameRow, leastWidth, type Piece, type Segment } from '../text/fit.js'
import { badgePieces } from '../text/format.js'
import { laneCells, laneTail, legendSegment } from '../text/lane-cells.js'
import { activityCells, activityTail } from '../text/activity-cells.js'
import { deliveryCells, deliveryTail } from '../text/delivery-cells.js'
import type { FeedDelivery, FeedState } from './listen-feed.js'

export const FILTERS = ['all', 'charges', 'problems'] as const
export type FilterMode = (typeof FILTERS)[number]

export function applyFilter(deliveries: FeedDelivery[], mode: FilterMode): FeedDelivery[] {
  if (mode === 'charges') return deliveries.filter((d) => d.type?.startsWith('charge.'))
  if (mode === 'problems') {
    return deliveries.filter((d) => d.outcome === 'failed' || d.outcome === 'rejected' || d.verdict?.kind === 'mismatch' || d.verdict?.kind === 'stale' || d.outOfOrder || d.verification === 'skipped')
  }
  return deliveries
}

/** `127.0.0.1:4242/` for `http://127.0.0.1:4242/` (each target's, with routes): the header's narrow form. */
function noScheme(url: string): string {
  return url.replace(/http:\/\//g, '')
}

/** A fitted line's segment: one text, and what it may shrink to (`[]`: gone). */
function seg(forms: Array<string | null>, priority: number, style: Omit<Piece, 'text'> = {}, gap?: string): Segment {
  return { forms: forms.map((t) => (t === null ? [] : [{ text: t, ...style }])), priority, ...(gap !== undefined ? { gap } : {}) }
}

/** The same segments, every piece dim. */
function dimmed(segments: Segment[]): Segment[] {
  return segments.map((s) => ({ ...s, forms: s.forms.map((f) => f.map((p) => ({ ...p, dim: true }))) }))
}

/** What the deliveries came to, the counts that are 0 going first on a narrow terminal. */
export function countsLine(c: FeedState['counts'], filter: FilterMode): Segment[] {
  const count = (n: number, long: string, short: string, important = false) => seg([`${n} ${long}`, `${n} ${short}`, null], n === 0 ? 10 : important ? 80 : 40, {}, ' · ')
  return [
    seg([`${c.total} deliveries`], 100),
    count(c.forwarded, 'forwarded', 'fwd'),
    count(c.failed, 'failed', 'failed', true),
    count(c.rejected, 'rejected', 'rejected', true),
    count(c.duplicate, 'duplicates', 'dup'),
    count(c.skipped, 'filtered', 'filtered'),
    ...(c.replays ? [count(c.replays, 'replayed', 'replayed')] : []),
    seg([`view: ${filter}`, null], filter === 'all' ? 20 : 90, {}, ' · '),
  ]
}

/** The keys, `q quit` last to go. */
export function keyLine(filter: FilterMode): Segment[] {
  return [
    seg(['↑/↓ select', '↑/↓', null], 30),
    seg(['Enter details', 'Enter', null], 40, {}, ' · '),
    seg(['r replay', 'r', null], 50, {}, ' · '),
    seg([`f filter (${filter})`, 'f filter', 'f', null], 45, {}, ' · '),
    seg(['q quit'], 100, {}, ' · '),
  ]
}

/** How the terminal's rows are shared: lanes and delivery rows (or the details box) get what the fixed lines leave. */
export function listenLayout(o: { height: number; fixed: number; lanes: number; maxLanes: number; deliveries: number; maxRows?: number; details: boolean }) {
  // The frame stays below the terminal's height: a frame that fills it is redrawn from the top
  // on every change, and leaves the shell prompt on its last line.
  const space = Math.max(4, o.height - 1 - o.fixed)
  const gap = space >= 16 ? 1 : 0
  const body = space - 2 - 2 * gap
  if (o.details) {
    const rows = Math.min(3, Math.max(1, o.deliveries))
    return { gap, laneRows: 0, rows, detailsLines: Math.max(3, body + 1 + gap - rows) }
  }
  const laneRows = o.lanes === 0 ? 1 : Math.max(1, Math.min(o.lanes, o.maxLanes, Math.floor(body / 3)))
  return { gap, laneRows, rows: Math.max(1, Math.min(o.maxRows ?? Number.POSITIVE_INFINITY, body - laneRows)), detailsLines: 0 }
}

export interface ListenFrameInput {
  state: FeedState
  listening: string
  forward: string
  environment?: Environment
  skipVerify: boolean
  /** Where deliveries come from, in one line; else the feed's. */
  registration?: string
  columns: number
  height: number
  filter: FilterMode
  /** The selected delivery's seq (the first shown when undefined or gone). */
  selected?: number
  details: boolean
  /** The last lines that reached stderr while the view is up. */
  statusLines: readonly string[]
  /** At most this many delivery rows / lanes (default: as many as the terminal holds; 6 lanes). */
  rows?: number
  lanes?: number
}

export interface ListenFrame {
  rows: FrameRow[]
  /** The deliveries the filter lets through, and the selected one's position among them. */
  visible: FeedDelivery[]
  index: number
  /** The selected delivery, when the details box is open (its rows: `other` with id `details`, `height` its lines at most). */
  details?: FeedDelivery
}

export function listenFrame(f: ListenFrameInput): ListenFrame {
  const { state, columns, height } = f
  const visible = applyFilter(state.deliveries, f.filter)
  const found = visible.findIndex((d) => d.seq === f.selected)
  const index = found === -1 ? 0 : found
  const selected = visible[index]
  const registration = f.registration ?? state.registration
  const statusLines = f.statusLines.slice(-2)
  const fixed = 2 + (registration ? 1 : 0) + (f.skipVerify ? 1 : 0) + state.notices.length + statusLines.length + 1
  const open = f.details && selected !== undefined
  const activityCount = state.activity?.length ?? 0
  const layout = listenLayout({ height, fixed, lanes: state.lanes.length + activityCount, maxLanes: f.lanes ?? 6, deliveries: visible.length, maxRows: f.rows, details: open })
  const start = Math.max(0, Math.min(index - Math.floor(layout.rows / 2), visible.length - layout.rows))
  // Charges first; withdrawals and sales take the lane rows the charges leave (at least one when any).
  const activityRows = activityCount === 0 ? 0 : Math.max(1, layout.laneRows - state.lanes.length)
  const lanes = state.lanes.slice(0, Math.max(activityCount ? Math.min(state.lanes.length, layout.laneRows - 1) : layout.laneRows, 0))
  const activity = (state.activity ?? []).slice(0, activityRows)
  const shown = visible.slice(start, start + layout.rows)
  // The aligned columns leave room for the shortest form of every row's end (its verdict).
  const aligned = <T>(items: T[], cells: (item: T) => Segment[], tail: (item: T) => Segment[]) => {
    const fitted = fitColumns(items.map(cells), columns - Math.max(0, ...items.map((i) => leastWidth(tail(i)))))
    return items.map((item, i): FrameRow => ({ kind: 'fit', segments: [{ forms: [fitted[i]!], priority: 1000 }, ...tail(item)] }))
  }

  const badge = badgePieces(f.environment)
  const rows: FrameRow[] = [
    {
      kind: 'fit',
      key: 'header',
      segments: [
        ...(badge.length ? [{ forms: [badge], priority: 100 }] : []),
        seg(['listening', null], 20, { bold: true }),
        seg([f.listening, noScheme(f.listening)], 80),
        seg(['→'], 100, { dim: true }),
        seg(['forwarding', null], 20, { bold: true }),
        { ...seg([f.forward, noScheme(f.forward)], 70), cut: true },
      ],
    },
  ]
  if (registration) rows.push({ kind: 'text', text: registration, style: { dim: true }, key: 'registration' })
  if (f.skipVerify) {
    const warning = [' ⚠ --skip-verify: SIGNATURES ARE NOT CHECKED — anything sent here reaches your app ', ' ⚠ --skip-verify: SIGNATURES NOT CHECKED ', ' ⚠ NOT CHECKED ']
    rows.push({ kind: 'fit', key: 'skip-verify', segments: [seg(warning, 100, { inverse: true, bold: true, color: 'red' })] })
  }
  rows.push({ kind: 'fit', key: 'counts', segments: dimmed(countsLine(state.counts, f.filter)) })
  if (!open) {
    if (layout.gap) rows.push({ kind: 'blank', key: 'gap:charges' })
    rows.push({ kind: 'fit', key: 'charges', segments: [seg(['Charges'], 100, { bold: true }), ...(lanes.length > 0 ? [legendSegment('  ')] : [])] })
    if (lanes.length === 0 && activity.length === 0) rows.push({ kind: 'text', text: ' no charge events yet', style: { dim: true }, key: 'no-charges' })
    else {
      for (const [i, row] of aligned(
        lanes,
        (l) => laneCells(l, state.serviceNow),
        (l) => laneTail(l),
      ).entries())
        rows.push({ ...row, key: `lane:${lanes[i]!.chargeId}` })
      for (const [i, row] of aligned(activity, (a) => activityCells(a, state.serviceNow), activityTail).entries()) rows.push({ ...row, key: `activity:${activity[i]!.kind}:${activity[i]!.id}` })
    }
  }
  if (layout.gap) rows.push({ kind: 'blank', key: 'gap:deliveries' })
  rows.push({ kind: 'text', text: 'Deliveries', style: { bold: true }, key: 'deliveries' })
  if (visible.length === 0) rows.push({ kind: 'text', text: ' waiting for deliveries…', style: { dim: true }, key: 'no-deliveries' })
  else for (const [i, row] of aligned(shown, (d) => deliveryCells(d, d.seq === selected?.seq, state.localNow), deliveryTail).entries()) rows.push({ ...row, key: `delivery:${shown[i]!.seq}` })
  if (open) rows.push({ kind: 'other', id: 'details', height: layout.detailsLines, key: 'details' })
  for (const [i, n] of state.notices.entries()) rows.push({ kind: 'text', text: safeText(n), style: { color: 'cyan' }, key: `notice:${i}` })
  for (const [i, l] of statusLines.entries()) rows.push({ kind: 'text', text: safeText(l), style: { dim: true }, key: `status:${i}` })
  rows.push({ kind: 'fit', key: 'keys', segments: dimmed(keyLine(f.filter)) })
  return { rows, visible, index, ...(open ? { details: selected } : {}) }
}
