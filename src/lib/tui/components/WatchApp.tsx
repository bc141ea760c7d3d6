/** The live view of `svc charges watch`: a lane per charge, polled from the API. Keys: ↑/↓, Enter, q. */
import { Box, Text, useApp, useInput, useWindowSize } from 'ink'
import { useState } from 'react'
import type { Environment, Charge } from '../../contract/schemas.js'
import { formatBRL } from '../../domain/money.js'
import { safeText } from '../../output/safe-text.js'
import { ChargeLane, laneCells, laneEndCells, legendSegment } from './ChargeLane.js'
import { FitText } from './FitText.js'
import type { ChargeWatcher } from '../view-models/charge-watcher.js'
import { fitColumns, type Segment } from '../text/fit.js'
import { shortId, viewTime } from '../text/format.js'
import { splitOf } from '../../contract/charge-split.js'
import { StatusLog } from '../view-models/status-log.js'
import { useFeed } from '../hooks/use-feed.js'
import { badgePieces } from './EnvironmentBadge.js'

export interface WatchAppProps {
  watcher: ChargeWatcher
  environment?: Environment
  /** What is watched, for the header: "3 charges" or "the 10 newest charges". */
  scope: string
  intervalMs: number
  onQuit: () => void
  /** What reached stderr while the view is up. */
  status?: StatusLog
}

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

function ChargeDetails({ charge, now }: { charge: Charge; now?: string }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      {chargeRows(charge, now).map(([k, v]) => (
        <Text key={k} wrap="truncate-end">
          <Text dimColor>{k.padEnd(14)}</Text> {safeText(v)}
        </Text>
      ))}
    </Box>
  )
}

const NO_STATUS = new StatusLog()

export function WatchApp(props: WatchAppProps) {
  const state = useFeed(props.watcher)
  const status = useFeed(props.status ?? NO_STATUS)
  const { columns, rows: height } = useWindowSize()
  const { exit } = useApp()
  const [selected, setSelected] = useState<string | undefined>(undefined)
  const [details, setDetails] = useState(false)
  const found = state.lanes.findIndex((l) => l.chargeId === selected)
  const index = found === -1 ? 0 : found
  const current = state.lanes[index]

  useInput((input, key) => {
    if (key.upArrow) setSelected(state.lanes[Math.max(0, index - 1)]?.chargeId)
    else if (key.downArrow) setSelected(state.lanes[Math.min(state.lanes.length - 1, index + 1)]?.chargeId)
    else if (key.return) setDetails((d) => !d)
    else if (key.escape) setDetails(false)
    else if (input === 'q') {
      props.onQuit()
      exit()
    }
  })

  const charge = current ? state.charges[current.chargeId] : undefined
  const statusLines = status.slice(-2)
  const detailRows = details && charge ? chargeRows(charge, state.lastPollAt).length + 2 : 0
  const legend = state.lanes.length > 0 ? 1 : 0
  const fixed = 1 + legend + (state.missing.length > 0 ? 1 : 0) + (state.error ? 1 : 0) + statusLines.length + 1 + detailRows
  // Below the terminal's height (see ListenApp): lanes scroll around the selected one.
  const space = Math.max(1, height - 1 - fixed)
  const gap = space > 4 ? 1 : 0
  const rows = Math.max(1, space - gap)
  const start = Math.max(0, Math.min(index - Math.floor(rows / 2), state.lanes.length - rows))
  const shown = state.lanes.slice(start, start + rows)
  const marker = (on: boolean): Segment => ({ forms: [[{ text: on ? '›' : ' ', inverse: on }]], priority: 100 })
  // A lane's end (a split's outcome, out of order) is aligned columns too, weighed against the
  // states and the amount: `split ✓ 2 parts` whole at 120 columns, the amount kept at 60.
  const cells = fitColumns(
    shown.map((l) => [marker(l.chargeId === current?.chargeId), ...laneCells(l, state.lastPollAt), ...laneEndCells(l)]),
    columns,
  )
  const badge = badgePieces(props.environment)
  const poll = state.lastPollAt ? ` at ${viewTime(state.lastPollAt)}` : ''
  const header: Segment[] = [
    ...(badge.length ? [{ forms: [badge], priority: 100 }] : []),
    { forms: [[{ text: 'watching', bold: true }], []], priority: 30 },
    { forms: [[{ text: props.scope }]], priority: 90, cut: true },
    { forms: [[{ text: `· every ${props.intervalMs / 1000} s`, dim: true }], []], priority: 20 },
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
  return (
    <Box flexDirection="column" width={columns} maxHeight={Math.max(1, height - 1)} overflow="hidden">
      <FitText width={columns} segments={header} />
      <Box flexDirection="column" marginTop={gap}>
        {state.lanes.length === 0 ? <Text dimColor>{state.polls === 0 ? 'loading…' : 'no charges yet'}</Text> : null}
        {shown.map((l, i) => (
          <ChargeLane key={l.chargeId} lane={l} cells={cells[i]!} showVerdict={false} tail={false} width={columns} />
        ))}
      </Box>
      {legend ? <FitText width={columns} segments={[{ ...legendSegment(), forms: legendSegment().forms.slice(0, 2) }]} /> : null}
      {details && charge ? <ChargeDetails charge={charge} now={state.lastPollAt} /> : null}
      {state.missing.length > 0 ? (
        <Text color="yellow" wrap="truncate-end">
          not found in this environment: {safeText(state.missing.join(', '))}
        </Text>
      ) : null}
      {state.error ? (
        <Text color="red" wrap="truncate-end">
          last poll failed: {safeText(state.error)}
        </Text>
      ) : null}
      {statusLines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a short rolling list
        <Text key={i} dimColor wrap="truncate-end">
          {safeText(l)}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        ↑/↓ select · Enter details · q quit
      </Text>
    </Box>
  )
}
