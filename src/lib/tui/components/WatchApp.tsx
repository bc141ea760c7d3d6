/** The live view of `svc charges watch`: a lane per charge, polled from the API. Keys: ↑/↓, Enter, q. */
import { Box, Text, useApp, useInput, useWindowSize } from 'ink'
import { useState } from 'react'
import type { Charge, Environment } from '../../contract/schemas.js'
import { safeText } from '../../output/safe-text.js'
import { FrameRowView } from './FrameRow.js'
import type { ChargeWatcher } from '../view-models/charge-watcher.js'
import { StatusLog } from '../view-models/status-log.js'
import { chargeRows, watchFrame } from '../view-models/watch-frame.js'
import { useFeed } from '../hooks/use-feed.js'

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
  const frame = watchFrame({ state, environment: props.environment, scope: props.scope, intervalMs: props.intervalMs, columns, height, selected, details, statusLines: status })
  const index = frame.index

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

  return (
    <Box flexDirection="column" width={columns} maxHeight={Math.max(1, height - 1)} overflow="hidden">
      {frame.rows.map((row, i) =>
        row.kind === 'other' && frame.details ? <ChargeDetails key={row.key ?? i} charge={frame.details} now={state.lastPollAt} /> : <FrameRowView key={row.key ?? i} row={row} width={columns} />,
      )}
    </Box>
  )
}
