/**
 * The live view of `svc webhooks listen`: where it listens and forwards, each charge's lane,
 * the deliveries as they arrive, and the selected one's details. Keys: ↑/↓ select, Enter
 * details, r replay to the app, f filter, q quit.
 */
import { Box, Text, useApp, useInput } from 'ink'
import { useState } from 'react'
import { safeText } from '../output/safe-text.js'
import { ChargeLane } from './ChargeLane.js'
import { DeliveryDetails } from './DeliveryDetails.js'
import { DeliveryRow } from './DeliveryRow.js'
import type { FeedDelivery, FeedState, ListenFeed } from './listen-feed.js'
import { useFeed } from './use-feed.js'

export const FILTERS = ['all', 'charges', 'problems'] as const
export type FilterMode = (typeof FILTERS)[number]

export function applyFilter(deliveries: FeedDelivery[], mode: FilterMode): FeedDelivery[] {
  if (mode === 'charges') return deliveries.filter((d) => d.type?.startsWith('charge.'))
  if (mode === 'problems') {
    return deliveries.filter((d) => d.outcome === 'failed' || d.outcome === 'rejected' || d.verdict?.kind === 'mismatch' || d.outOfOrder || d.verification === 'skipped')
  }
  return deliveries
}

export interface ListenAppProps {
  feed: ListenFeed
  listening: string
  forward: string
  environment?: 'live' | 'test'
  skipVerify: boolean
  /** Resends the event to the app; resolves to a line for the notices. */
  onReplay: (eventId: string) => Promise<string>
  onQuit: () => void
  /** Delivery rows shown at once. */
  rows?: number
  lanes?: number
}

function Header({ props, state, filter }: { props: ListenAppProps; state: FeedState; filter: FilterMode }) {
  const c = state.counts
  return (
    <Box flexDirection="column">
      <Text>
        {props.environment ? (
          <Text inverse bold color={props.environment === 'test' ? 'yellow' : 'red'}>
            {` ${props.environment.toUpperCase()} `}
          </Text>
        ) : null}{' '}
        <Text bold>listening</Text> {props.listening} <Text dimColor>→</Text> <Text bold>forwarding</Text> {props.forward}
      </Text>
      {props.skipVerify ? (
        <Text inverse bold color="red">
          {' ⚠ --skip-verify: SIGNATURES ARE NOT CHECKED — anything sent here reaches your app '}
        </Text>
      ) : null}
      <Text dimColor>
        {c.total} deliveries · {c.forwarded} forwarded · {c.failed} failed · {c.rejected} rejected · {c.duplicate} duplicates · {c.skipped} filtered{c.replays ? ` · ${c.replays} replayed` : ''} · view: {filter}
      </Text>
    </Box>
  )
}

export function ListenApp(props: ListenAppProps) {
  const state = useFeed(props.feed)
  const { exit } = useApp()
  const [filter, setFilter] = useState<FilterMode>('all')
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>(undefined)
  const [details, setDetails] = useState(false)
  const rows = props.rows ?? 10
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

  const start = Math.max(0, Math.min(index - Math.floor(rows / 2), visible.length - rows))
  const lanes = state.lanes.slice(0, props.lanes ?? 6)
  return (
    <Box flexDirection="column">
      <Header props={props} state={state} filter={filter} />
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Charges</Text>
        {lanes.length === 0 ? <Text dimColor> no charge events yet</Text> : lanes.map((l) => <ChargeLane key={l.chargeId} lane={l} />)}
      </Box>
      <Box flexDirection="column" marginTop={1}>
        <Text bold>Deliveries</Text>
        {visible.length === 0 ? (
          <Text dimColor> waiting for deliveries…</Text>
        ) : (
          visible.slice(start, start + rows).map((d) => <DeliveryRow key={d.seq} delivery={d} selected={d.seq === selected?.seq} />)
        )}
      </Box>
      {details && selected ? <DeliveryDetails delivery={selected} /> : null}
      {state.notices.map((n, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: notices are a short rolling list
        <Text key={i} color="cyan">
          {safeText(n)}
        </Text>
      ))}
      <Text dimColor>↑/↓ select · Enter details · r replay · f filter ({filter}) · q quit</Text>
    </Box>
  )
}
