/** One row of a live view's frame (text/fit.ts FrameRow) drawn with Ink; `other` rows are the view's own to draw. */
import { Box, Text } from 'ink'
import type { FrameRow } from '../text/fit.js'
import { FitText } from './FitText.js'

export function FrameRowView({ row, width }: { row: FrameRow; width: number }) {
  if (row.kind === 'fit') return <FitText width={width} segments={row.segments} />
  if (row.kind === 'text') {
    const s = row.style ?? {}
    return (
      <Text wrap="truncate-end" color={s.color} dimColor={s.dim} bold={s.bold} inverse={s.inverse}>
        {row.text}
      </Text>
    )
  }
  return <Box height={row.kind === 'blank' ? 1 : row.height} />
}
