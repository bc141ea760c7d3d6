/**
 * The selected delivery in full: headers, body, verification, the app's answer (all outside text
 * through safeText). It gets at most `maxLines` rows, border included: the body is cut first.
 */
import { Box, Text } from 'ink'
import type { ReactNode } from 'react'
import { safeText } from '../../output/safe-text.js'
import type { FeedDelivery } from '../view-models/listen-feed.js'
import { subjectText, verdictText, viewTime } from '../text/format.js'

/** `now`: the local clock as last seen (FeedState.localNow), for the one date format. */
export function DeliveryDetails({ delivery: d, maxLines = 24, now }: { delivery: FeedDelivery; maxLines?: number; now?: string }) {
  const verdict = verdictText(d.verdict)
  const head: ReactNode[] = [
    // When first: on a narrow terminal the end of the line is cut, and the id has a line of its own.
    <Text key="t" bold wrap="truncate-end">
      {safeText(d.type ?? '(no type)')}{' '}
      <Text dimColor>
        · {viewTime(d.receivedAt, now)} · received {d.attempt}× here
      </Text>
    </Text>,
    <Text key="i" wrap="truncate-end">
      event {safeText(d.eventId ?? '—')}
    </Text>,
    <Text key="s" wrap="truncate-end">
      {subjectText(d.summary)}
    </Text>,
    <Text key="v" wrap="truncate-end">
      verification: {d.verification}
      {d.verifyReason ? ` (${safeText(d.verifyReason)}: ${safeText(d.verifyMessage ?? '')})` : ''}
      {d.skipVerify ? ' — --skip-verify is on: this delivery was NOT checked' : ''}
    </Text>,
    <Text key="o" wrap="truncate-end">
      outcome: {d.outcome}, answered {d.answeredStatus || '—'}
      {d.target ? `, target ${safeText(d.target)}` : ''}
      {d.forwardStatus !== undefined ? ` → ${d.forwardStatus}` : ''}
      {d.latencyMs !== undefined ? ` in ${d.latencyMs} ms` : ''}
    </Text>,
  ]
  if (d.error)
    head.push(
      <Text key="e" color="red" wrap="truncate-end">
        error: {safeText(d.error)}
      </Text>,
    )
  if (verdict)
    head.push(
      <Text key="a" color={verdict.color} wrap="truncate-end">
        API: {verdict.text}
      </Text>,
    )
  if (d.responseSnippet)
    head.push(
      <Text key="r" dimColor wrap="truncate-end">
        app answered: {safeText(d.responseSnippet.slice(0, 200))}
      </Text>,
    )
  head.push(
    <Text key="h" bold>
      headers
    </Text>,
  )
  for (const [k, v] of Object.entries(d.headers).filter(([k]) => k === 'content-type' || k.startsWith('x-svc-'))) {
    head.push(
      <Text key={`h-${k}`} dimColor wrap="truncate-end">
        {safeText(k)}: {safeText(v)}
      </Text>,
    )
  }
  const body = d.bodyPreview.split('\n').length > 1 ? d.bodyPreview : prettyOrRaw(d.bodyPreview)
  const lines = body.split('\n')
  // Two rows of border, the "body" title, and a row saying how much was left out.
  const room = Math.max(0, maxLines - 2 - head.length - 1)
  const shown = lines.length <= room ? lines.length : Math.max(0, room - 1)
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      {head.slice(0, Math.max(1, maxLines - 2))}
      {room > 0 ? <Text bold>body</Text> : null}
      {lines.slice(0, shown).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity
        <Text key={i} wrap="truncate-end">
          {safeText(l)}
        </Text>
      ))}
      {room > 0 && shown < lines.length ? (
        <Text dimColor wrap="truncate-end">
          … {lines.length - shown} more lines (svc webhooks events --json)
        </Text>
      ) : null}
    </Box>
  )
}

/** Pretty-printed for reading only; what was forwarded is the raw text. */
function prettyOrRaw(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
