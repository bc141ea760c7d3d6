/** One delivery on one line: when, what, verification, what the app answered, and the API's verdict. */
import { Text } from 'ink'
import type { FeedDelivery } from './listen-feed.js'
import { safeText } from '../output/safe-text.js'
import { clockTime, type InkColor, shortId, subjectText, verdictText } from './format.js'

function verificationText(d: FeedDelivery): { text: string; color: InkColor } {
  if (d.source === 'replay') return { text: '↻ replay', color: 'cyan' }
  if (d.verification === 'verified') return { text: '✔ verified', color: 'green' }
  if (d.verification === 'skipped') return { text: d.verifyReason ? `⚠ UNVERIFIED (${safeText(d.verifyReason)})` : '⚠ UNVERIFIED', color: 'yellow' }
  return { text: `✘ ${safeText(d.verifyReason ?? 'rejected')}`, color: 'red' }
}

function outcomeText(d: FeedDelivery): { text: string; color: InkColor } {
  const ms = d.latencyMs !== undefined ? ` ${d.latencyMs}ms` : ''
  switch (d.outcome) {
    case 'forwarded':
      return { text: `→ ${d.forwardStatus}${ms}`, color: 'green' }
    case 'failed':
      return { text: `→ ${d.forwardStatus ?? (d.answeredStatus === 504 ? 'timeout' : 'down')}${ms} (answered ${d.answeredStatus || '—'})`, color: 'red' }
    case 'rejected':
      return { text: `answered ${d.answeredStatus}`, color: 'red' }
    case 'duplicate':
      return { text: 'duplicate, not forwarded', color: 'gray' }
    case 'skipped':
      return { text: 'filtered out', color: 'gray' }
  }
}

export function DeliveryRow({ delivery: d, selected }: { delivery: FeedDelivery; selected: boolean }) {
  const v = verificationText(d)
  const o = outcomeText(d)
  const verdict = verdictText(d.verdict)
  return (
    <Text>
      <Text inverse={selected}>{selected ? '›' : ' '}</Text>
      <Text dimColor> {clockTime(d.receivedAt)} </Text>
      <Text bold>{safeText(d.type ?? '(no type)').padEnd(30)}</Text> <Text dimColor>{shortId(d.eventId).padEnd(11)}</Text> <Text color={v.color}>{v.text}</Text>{' '}
      <Text color={o.color}>{o.text}</Text> <Text dimColor>#{d.attempt}</Text> {subjectText(d.summary)}
      {verdict ? <Text color={verdict.color}> {verdict.text}</Text> : null}
      {d.outOfOrder ? <Text color="yellow"> ↯ out of order</Text> : null}
    </Text>
  )
}
