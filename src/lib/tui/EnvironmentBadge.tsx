/** The TEST / LIVE badge of the live views, painted like output/color's environmentBadge. */
import { Text } from 'ink'

export function EnvironmentBadge({ environment }: { environment?: string }) {
  if (!environment) return null
  return (
    <Text inverse bold color={environment === 'live' ? 'red' : 'yellow'}>
      {` ${environment.toUpperCase()} `}
    </Text>
  )
}
