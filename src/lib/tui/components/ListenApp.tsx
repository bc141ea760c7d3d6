/**
 * The live view of `svc webhooks listen`: where it listens and forwards, each charge's lane,
 * the deliveries as they arrive, and the selected one's details. Keys: ↑/↓ select, Enter
 * details, r replay to the app, f filter, q quit.
 */
import { Box, Static, Text, useApp, useInput, useWindowSize } from 'ink'
import { useState } from 'react'
import { DeliveryDetails } from './DeliveryDetails.js'
import { FrameRowView } from './FrameRow.js'
import type { ListenFeed } from '../view-models/listen-feed.js'
import { FILTERS, type FilterMode, listenFrame } from '../view-models/listen-frame.js'
import { StatusLog } from '../view-models/status-log.js'
import { useFeed } from '../hooks/use-feed.js'
import type { Environment } from '../../contract/schemas.js'

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

const NO_STATUS = new StatusLog()

export function ListenApp(props: ListenAppProps) {
  const state = useFeed(props.feed)
  const status = useFeed(props.status ?? NO_STATUS)
  const { columns, rows: height } = useWindowSize()
  const { exit } = useApp()
  const [filter, setFilter] = useState<FilterMode>('all')
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>(undefined)
  const [details, setDetails] = useState(false)
  const frame = listenFrame({
    state,
    listening: props.listening,
    forward: props.forward,
    environment: props.environment,
    skipVerify: props.skipVerify,
    registration: props.registration,
    columns,
    height,
    filter,
    selected: selectedSeq,
    details,
    statusLines: status,
    rows: props.rows,
    lanes: props.lanes,
  })
  const { visible, index } = frame
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

  return (
    <Box flexDirection="column" width={columns} maxHeight={Math.max(1, height - 1)} overflow="hidden">
      {/* Printed once above the frame and left there, as if written before the view. */}
      <Static items={state.startNotes}>{(note, i) => <Text key={i}>{note}</Text>}</Static>
      {frame.rows.map((row, i) =>
        row.kind === 'other' && frame.details ? (
          <DeliveryDetails key={row.key ?? i} delivery={frame.details} maxLines={row.height} now={state.localNow} />
        ) : (
          <FrameRowView key={row.key ?? i} row={row} width={columns} />
        ),
      )}
    </Box>
  )
}
