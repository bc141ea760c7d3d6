/** One line of a live view, fitted to `width` (see fit.ts); never wraps. */
import { Text } from 'ink'
import { fitLine, type Segment } from '../text/fit.js'

export function FitText({ segments, width }: { segments: Segment[]; width: number }) {
  return (
    <Text wrap="truncate-end">
      {fitLine(segments, width).map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: pieces have no identity
        <Text key={i} color={p.color} dimColor={p.dim} bold={p.bold} inverse={p.inverse}>
          {p.text}
        </Text>
      ))}
    </Text>
  )
}
