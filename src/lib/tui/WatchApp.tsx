/** The live view of `svc charges watch`: a lane per charge, polled from the API. Keys: ↑/↓, Enter, q. */
import { Box, Text, useApp, useInput } from 'ink'
import { useState } from 'react'
import type { Charge } from '../contract/schemas.js'
import { formatBRL } from '../domain/money.js'
import { safeText } from '../output/safe-text.js'
import { ChargeLane } from './ChargeLane.js'
import type { ChargeWatcher } from './charge-watcher.js'
import { clockTime } from './format.js'
import { useFeed } from './use-feed.js'

export interface WatchAppProps {
  watcher: ChargeWatcher
  environment?: 'live' | 'test'
  /** What is watched, for the header: "3 charges" or "the 10 newest charges". */
  scope: string
  intervalMs: number
  onQuit: () => void
}

function ChargeDetails({ charge: c }: { charge: Charge }) {
  const rows: Array<[string, string | undefined]> = [
    ['id', c.id],
    ['status', c.status],
    ['amount', `${formatBRL(c.amount.grossInCents)} (fee ${formatBRL(c.amount.feeInCents)}, net ${formatBRL(c.amount.netInCents)})`],
    ['order id', c.externalId],
    ['expires', c.pix.expiresAt],
    ['paid', c.settlement.paidAt],
    ['settles (est.)', c.settlement.estimatedAt],
    ['settled', c.settlement.settledAt],
    ['blockchain tx', c.settlement.blockchainTxId],
    ['updated', c.updatedAt],
  ]
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      {rows
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => (
          <Text key={k}>
            <Text dimColor>{k.padEnd(14)}</Text> {safeText(v ?? '')}
          </Text>
        ))}
    </Box>
  )
}

export function WatchApp(props: WatchAppProps) {
  const state = useFeed(props.watcher)
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
  return (
    <Box flexDirection="column">
      <Text>
        {props.environment ? (
          <Text inverse bold color={props.environment === 'test' ? 'yellow' : 'red'}>
            {` ${props.environment.toUpperCase()} `}
          </Text>
        ) : null}{' '}
        <Text bold>watching</Text> {props.scope} <Text dimColor>· every {props.intervalMs / 1000} s · poll #{state.polls}{state.lastPollAt ? ` at ${clockTime(state.lastPollAt)}` : ''}</Text>
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {state.lanes.length === 0 ? <Text dimColor>{state.polls === 0 ? 'loading…' : 'no charges yet'}</Text> : null}
        {state.lanes.map((l) => (
          <Text key={l.chargeId}>
            <Text inverse={l.chargeId === current?.chargeId}>{l.chargeId === current?.chargeId ? '›' : ' '}</Text> <ChargeLane lane={l} showVerdict={false} />
          </Text>
        ))}
      </Box>
      {details && charge ? <ChargeDetails charge={charge} /> : null}
      {state.missing.length > 0 ? <Text color="yellow">not found in this environment: {safeText(state.missing.join(', '))}</Text> : null}
      {state.error ? <Text color="red">last poll failed: {safeText(state.error)}</Text> : null}
      <Text dimColor>↑/↓ select · Enter details · q quit</Text>
    </Box>
  )
}
