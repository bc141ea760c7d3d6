/**
 * One charge's lane: every state of the happy path (and any other it reached), the current one
 * bold; ● seen, ◌ passed before the first state seen, ↯ arrived out of order, ○ not reached.
 */
import { Text } from 'ink'
import { formatBRL } from '../domain/money.js'
import { clockTime, shortId, statusColor, verdictText } from './format.js'
import { type Lane, laneColumns } from './lanes.js'

export function ChargeLane({ lane, showVerdict = true }: { lane: Lane; showVerdict?: boolean }) {
  const reached = new Map(lane.steps.map((s) => [s.status, s]))
  const columns = laneColumns(lane)
  const verdict = showVerdict ? verdictText(lane.verdict) : undefined
  const last = lane.steps[lane.steps.length - 1]
  return (
    <Text>
      <Text>{shortId(lane.chargeId).padEnd(12)} </Text>
      {columns.map((status, i) => {
        const step = reached.get(status)
        const current = status === lane.current
        return (
          <Text key={status}>
            {i > 0 ? <Text dimColor>{' ─ '}</Text> : null}
            {step?.inferred ? (
              <Text color={statusColor(status)} dimColor>
                ◌ {status}
              </Text>
            ) : step ? (
              <Text color={statusColor(status)} bold={current}>
                {step.outOfOrder ? '↯' : '●'} {status}
              </Text>
            ) : (
              <Text dimColor>○ {status}</Text>
            )}
          </Text>
        )
      })}
      {lane.grossInCents !== undefined ? <Text> {formatBRL(lane.grossInCents)}</Text> : null}
      {last ? <Text dimColor> {clockTime(last.at)}</Text> : null}
      {verdict ? <Text color={verdict.color}> {verdict.text}</Text> : null}
      {lane.steps.some((s) => s.outOfOrder) ? <Text color="yellow"> out of order</Text> : null}
    </Text>
  )
}
