/** The TEST / LIVE badge of the live views: output/color's badge (same label and colour, bold, inverse) in Ink. */
import { Text } from 'ink'
import { badgeOf } from '../../output/color.js'
import type { Piece } from '../text/fit.js'

/** The badge as pieces of a fitted line (FitText). */
export function badgePieces(environment?: string): Piece[] {
  if (!environment) return []
  const { label, color } = badgeOf(environment)
  return [{ text: label, color, bold: true, inverse: true }]
}

export function EnvironmentBadge({ environment }: { environment?: string }) {
  if (!environment) return null
  const { label, color } = badgeOf(environment)
  return (
    <Text inverse bold color={color}>
      {label}
    </Text>
  )
}
