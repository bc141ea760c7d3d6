/** The selected delivery in full: headers, body, verification, the app's answer (all outside text through safeText). */
import { Box, Text } from 'ink'
import { safeText } from '../output/safe-text.js'
import type { FeedDelivery } from './listen-feed.js'
import { subjectText, verdictText } from './format.js'

export function DeliveryDetails({ delivery: d, maxBodyLines = 12 }: { delivery: FeedDelivery; maxBodyLines?: number }) {
  const verdict = verdictText(d.verdict)
  const body = d.bodyPreview.split('\n').length > 1 ? d.bodyPreview : prettyOrRaw(d.bodyPreview)
  const lines = body.split('\n')
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>
        {safeText(d.type ?? '(no type)')} {safeText(d.eventId ?? '')} <Text dimColor>attempt #{d.attempt} · {d.receivedAt}</Text>
      </Text>
      <Text>{subjectText(d.summary)}</Text>
      <Text>
        verification: {d.verification}
        {d.verifyReason ? ` (${safeText(d.verifyReason)}: ${safeText(d.verifyMessage ?? '')})` : ''}
        {d.skipVerify ? ' — --skip-verify is on: this delivery was NOT checked' : ''}
      </Text>
      <Text>
        outcome: {d.outcome}, answered {d.answeredStatus || '—'}
        {d.forwardUrl ? `, forwarded to ${d.forwardUrl}` : ''}
        {d.forwardStatus !== undefined ? ` → ${d.forwardStatus}` : ''}
        {d.latencyMs !== undefined ? ` in ${d.latencyMs} ms` : ''}
      </Text>
      {d.error ? <Text color="red">error: {safeText(d.error)}</Text> : null}
      {verdict ? <Text color={verdict.color}>API: {verdict.text}</Text> : null}
      {d.responseSnippet ? <Text dimColor>app answered: {safeText(d.responseSnippet.slice(0, 200))}</Text> : null}
      <Text bold>headers</Text>
      {Object.entries(d.headers)
        .filter(([k]) => k === 'content-type' || k.startsWith('x-svc-'))
        .map(([k, v]) => (
          <Text key={k} dimColor>
            {safeText(k)}: {safeText(v)}
          </Text>
        ))}
      <Text bold>body</Text>
      {lines.slice(0, maxBodyLines).map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity
        <Text key={i}>{safeText(l)}</Text>
      ))}
      {lines.length > maxBodyLines ? <Text dimColor>… {lines.length - maxBodyLines} more lines (svc webhooks events --json)</Text> : null}
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
