import { Text } from 'ink'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useFeed } from '../../../../src/lib/tui/hooks/use-feed.js'
import { StatusLog } from '../../../../src/lib/tui/view-models/status-log.js'
import { renderAt } from '../../../helpers/render-at.js'

const mounted: Array<{ unmount(): void }> = []
afterEach(() => {
  while (mounted.length) mounted.pop()!.unmount()
})

function Last({ log }: { log: StatusLog }) {
  const lines = useFeed(log)
  return <Text>{lines.at(-1) ?? '(nothing yet)'}</Text>
}

describe('useFeed: a view follows its store', () => {
  it('draws the store’s snapshot and redraws on each change', async () => {
    const log = new StatusLog()
    const app = renderAt(<Last log={log} />, 40, 5)
    mounted.push(app)
    expect(app.lastFrame()).toBe('(nothing yet)')
    log.write('[svc] GET /v1/account 200\n')
    await vi.waitFor(() => expect(app.lastFrame()).toBe('[svc] GET /v1/account 200'), { interval: 10 })
  })
})
