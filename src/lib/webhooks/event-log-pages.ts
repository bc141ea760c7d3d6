/** Every row of the listener's event log that matches, newest first, one page at a time (`webhooks events --all`). */
import type { LoggedDelivery, EventStore } from './event-store.js'

export interface EventLogFilter {
  type?: string
  eventId?: string
  outcome?: string
  /** RFC 3339: received at or after. */
  since?: string
}

export const EVENT_LOG_PAGE = 500

export function* eventLogPages(store: EventStore, filter: EventLogFilter, max = Number.POSITIVE_INFINITY): Generator<LoggedDelivery[]> {
  let beforeSeq: number | undefined
  let left = max
  while (left > 0) {
    const page = store.page({ ...filter, limit: Math.min(EVENT_LOG_PAGE, left), beforeSeq })
    if (page.length === 0) return
    yield page
    left -= page.length
    beforeSeq = page.at(-1)!.seq
  }
}
