/**
 * The live view of `svc webhooks listen`: where it listens and forwards, each charge's lane,
 * the deliveries as they arrive, and the selected one's details. Keys: ↑/↓ select, Enter
 * details, r replay to the app, f filter, q quit.
 */
import { Box, Static, Text, useApp, useInput, useWindowSize } from 'ink'
import { useState } from 'react'
import { safeText } from '../../output/safe-text.js'
import { ChargeLane, laneCells, laneTail, legendSegment } from './ChargeLane.js'
import { ActivityRow, activityCells, activityTail } from './ActivityLane.js'
import { DeliveryDetails } from './DeliveryDetails.js'
import { DeliveryRow, deliveryCells, deliveryTail } from './DeliveryRow.js'
import { fitColumns, leastWidth, type Piece, type Segment } from '../text/fit.js'
import { FitText } from './FitText.js'
import type { FeedDelivery, FeedState, ListenFeed } from '../view-models/listen-feed.js'
import { StatusLog } from '../view-models/status-log.js'
import { useFeed } from '../hooks/use-feed.js'
import { badgePieces } from './EnvironmentBadge.js'
import type { Environment } from '../../contract/schemas.js'

export const FILTERS = ['all', 'charges', 'problems'] as const
export type FilterMode = (typeof FILTERS)[number]

export function applyFilter(deliveries: FeedDelivery[], mode: FilterMode): FeedDelivery[] {
  if (mode === 'charges') return deliveries.filter((d) => d.type?.startsWith('charge.'))
  if (mode === 'problems') {
    return deliveries.filter((d) => d.outcome === 'failed' || d.outcome === 'rejected' || d.verdict?.kind === 'mismatch' || d.verdict?.kind === 'stale' || d.outOfOrder || d.verification === 'skipped')
  }
  return deliveries
}

export interface ListenAppProps {
  feed: ListenFeed
  listening: string
  forward: string
  environment?: Environment
  skipVerify: boolean
  /** Where deliveries come from, in one line (e.g. "registered as the sandbox's test webhook URL"); else the feed's. */
  registration?: string
  /** Resends the event to the app; resolves to a line for the notices. */
  onReplay: (eventId: string) => Promise<string>
  onQuit: () => void
  /** What reached stderr while the view is up. */
  status?: StatusLog
  /** At most this many delivery rows / lanes (default: as many as the terminal holds; 6 lanes). */
  rows?: number
  lanes?: number
}

function registrationOf(props: ListenAppProps, state: FeedState): string | undefined {
  return props.registration ?? state.registration
}

/** `127.0.0.1:4242/` for `http://127.0.0.1:4242/` (each target's, with routes): the header's narrow form. */
function noScheme(url: string): string {
  return url.replace(/http:\/\//g, '')
}

/** A fitted line's segment: one text, and what it may shrink to (`[]`: gone). */
function seg(forms: Array<string | null>, priority: number, style: Omit<Piece, 'text'> = {}, gap?: string): Segment {
  return { forms: forms.map((t) => (t === null ? [] : [{ text: t, ...style }])), priority, ...(gap !== undefined ? { gap } : {}) }
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

function Header({ props, state, filter, width }: { props: ListenAppProps; state: FeedState; filter: FilterMode; width: number }) {
  const badge = badgePieces(props.environment)
  return (
    <Box flexDirection="column">
      <FitText
        width={width}
        segments={[
          ...(badge.length ? [{ forms: [badge], priority: 100 }] : []),
          seg(['listening', null], 20, { bold: true }),
          seg([props.listening, noScheme(props.listening)], 80),
          seg(['→'], 100, { dim: true }),
          seg(['forwarding', null], 20, { bold: true }),
          { ...seg([props.forward, noScheme(props.forward)], 70), cut: true },
        ]}
      />
      {registrationOf(props, state) ? (
        <Text dimColor wrap="truncate-end">
          {registrationOf(props, state)}
        </Text>
      ) : null}
      {props.skipVerify ? (
        <FitText
          width={width}
          segments={[
            seg([' ⚠ --skip-verify: SIGNATURES ARE NOT CHECKED — anything sent here reaches your app ', ' ⚠ --skip-verify: SIGNATURES NOT CHECKED ', ' ⚠ NOT CHECKED '], 100, {
              inverse: true,
              bold: true,
              color: 'red',
            }),
          ]}
        />
      ) : null}
      <FitText width={width} segments={countsLine(state.counts, filter).map((s) => ({ ...s, forms: s.forms.map((f) => f.map((p) => ({ ...p, dim: true }))) }))} />
    </Box>
  )
}

const NO_STATUS = new StatusLog()

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

export function ListenApp(props: ListenAppProps) {
  const state = useFeed(props.feed)
  const status = useFeed(props.status ?? NO_STATUS)
  const { columns, rows: height } = useWindowSize()
  const { exit } = useApp()
  const [filter, setFilter] = useState<FilterMode>('all')
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>(undefined)
  const [details, setDetails] = useState(false)
  const visible = applyFilter(state.deliveries, filter)
  const found = visible.findIndex((d) => d.seq === selectedSeq)
  const index = found === -1 ? 0 : found
  const selected = visible[index]

  useInput((input, key) => {
    if (key.upArrow) setSelectedSeq(visible[Math.max(0, index - 1)]?.seq)
    else if (key.downArrow) setSelectedSeq(visible[Math.min(visible.length - 1, index + 1)]?.seq)
    else if (key.return) setDetails((d) => !d)
    else if (key.escape) setDetails(false)
    else if (input === 'f') setFilter((f) => FILTERS[(FILTERS.indexOf(f) + 1) % FILTERS.length]!)
    else if (input === 'r' && selected?.eventId) {
      const id = selected.eventId
      props.feed.notice(`replaying ${id}…`)
      props.onReplay(id).then(
        (line) => props.feed.notice(line),
        (err: Error) => props.feed.notice(`replay of ${id} failed: ${err.message}`),
      )
    } else if (input === 'q') {
      props.onQuit()
      exit()
    }
  })

  const statusLines = status.slice(-2)
  const fixed = 2 + (registrationOf(props, state) ? 1 : 0) + (props.skipVerify ? 1 : 0) + state.notices.length + statusLines.length + 1
  const open = details && selected !== undefined
  const activityCount = state.activity?.length ?? 0
  const layout = listenLayout({ height, fixed, lanes: state.lanes.length + activityCount, maxLanes: props.lanes ?? 6, deliveries: visible.length, maxRows: props.rows, details: open })
  const rows = layout.rows
  const start = Math.max(0, Math.min(index - Math.floor(rows / 2), visible.length - rows))
  // Charges first; withdrawals and sales take the lane rows the charges leave (at least one when any).
  const activityRows = activityCount === 0 ? 0 : Math.max(1, layout.laneRows - state.lanes.length)
  const lanes = state.lanes.slice(0, Math.max(activityCount ? Math.min(state.lanes.length, layout.laneRows - 1) : layout.laneRows, 0))
  const activity = (state.activity ?? []).slice(0, activityRows)
  const activityLines = fitColumns(
    activity.map((a) => activityCells(a, state.serviceNow)),
    columns - Math.max(0, ...activity.map((a) => leastWidth(activityTail(a)))),
  )
  // The aligned columns leave room for the shortest form of every row's end (its verdict).
  const laneRows = fitColumns(
    lanes.map((l) => laneCells(l, state.serviceNow)),
    columns - Math.max(0, ...lanes.map((l) => leastWidth(laneTail(l)))),
  )
  const shown = visible.slice(start, start + rows)
  const rowCells = fitColumns(
    shown.map((d) => deliveryCells(d, d.seq === selected?.seq, state.localNow)),
    columns - Math.max(0, ...shown.map((d) => leastWidth(deliveryTail(d)))),
  )
  return (
    <Box flexDirection="column" width={columns} maxHeight={Math.max(1, height - 1)} overflow="hidden">
      {/* Printed once above the frame and left there, as if written before the view. */}
      <Static items={state.startNotes}>{(note, i) => <Text key={i}>{note}</Text>}</Static>
      <Header props={props} state={state} filter={filter} width={columns} />
      {open ? null : (
        <Box flexDirection="column" marginTop={layout.gap}>
          <FitText width={columns} segments={[seg(['Charges'], 100, { bold: true }), ...(lanes.length > 0 ? [legendSegment('  ')] : [])]} />
          {lanes.length === 0 && activity.length === 0 ? <Text dimColor> no charge events yet</Text> : lanes.map((l, i) => <ChargeLane key={l.chargeId} lane={l} cells={laneRows[i]!} width={columns} />)}
          {activity.map((a, i) => (
            <ActivityRow key={`${a.kind}:${a.id}`} lane={a} cells={activityLines[i]!} width={columns} />
          ))}
        </Box>
      )}
      <Box flexDirection="column" marginTop={layout.gap}>
        <Text bold>Deliveries</Text>
        {visible.length === 0 ? <Text dimColor> waiting for deliveries…</Text> : shown.map((d, i) => <DeliveryRow key={d.seq} delivery={d} cells={rowCells[i]!} width={columns} />)}
      </Box>
      {open ? <DeliveryDetails delivery={selected} maxLines={layout.detailsLines} now={state.localNow} /> : null}
      {state.notices.map((n, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: notices are a short rolling list
        <Text key={i} color="cyan" wrap="truncate-end">
          {safeText(n)}
        </Text>
      ))}
      {statusLines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a short rolling list
        <Text key={`s${i}`} dimColor wrap="truncate-end">
          {safeText(l)}
        </Text>
      ))}
      <FitText width={columns} segments={keyLine(filter).map((k) => ({ ...k, forms: k.forms.map((f) => f.map((p) => ({ ...p, dim: true }))) }))} />
    </Box>
  )
}
