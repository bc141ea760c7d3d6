/** The TEST / LIVE badge of the live views: output/color's badge (same label and colour, bold, inverse) in Ink. */
import { Text } from 'ink'
import { badgeOf } from '../../output/color.js'

export { badgePieces } from '../text/format.js'

export function EnvironmentBadge({ environment }: { environment?: string }) {
  if (!environment) return null
  const { label, color } = badgeOf(environment)
  return (
    <Text inverse bold color={color}>
      {label}
    </Text>
  )
}
