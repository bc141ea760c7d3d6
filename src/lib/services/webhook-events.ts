/**
 * `svc webhooks events`: the deliveries the listener logged, newest first, read from this
 * machine's event log. One operation with a typed input (no flag names): a bad field is an
 * InputError naming its path (`since`, `limit`), which the door names in its own words.
 */
import { InputReader } from '../charges/operator-input.js'
import { machineTimeZone } from '../domain/calendar.js'
import { eventLogPages } from '../webhooks/event-log-pages.js'
import type { EventStore, LoggedDelivery, Outcome } from '../webhooks/event-store.js'

export type { LoggedDelivery } from '../webhooks/event-store.js'

export interface EventLogInput {
  /** An event type; a trailing * matches a prefix (charge.*). */
  type?: string
  eventId?: string
  /** Only deliveries with this outcome. */
  state?: Outcome
  /** Received since: 24h, 7d, a day (this machine's), an ISO instant; on this machine's clock (the listener stamps it). */
  since?: string
  /** How many, newest first (default 20, at most 10 000); `all` reads every matching row. */
  limit?: number
  all?: boolean
}

export interface EventLogContext {
  /** The log `webhooks listen` writes (the run's factory's). */
  openEventStore: () => Promise<EventStore>
  /** This machine's now. */
  now: () => Date
}

/** The rows asked for, as they are read from the log: one page in memory at a time. */
export interface EventLogRows {
  /** The log's file. */
  path: string
  /** Pages of rows, newest first; the log is closed once they are read to the end (or left early). */
  pages: Iterable<LoggedDelivery[]>
  /** Closes the log (again: harmless), for a door that stops before reading the pages. */
  close: () => void
}

export const EVENT_LOG_LIMIT = { default: 20, max: 10_000 } as const

/** Reads the input (throws InputError, nothing opened), then opens the log and hands its rows. */
export async function listEventLog(input: EventLogInput, ctx: EventLogContext): Promise<EventLogRows> {
  const r = new InputReader()
  const since = r.date('since', input.since, { timeZone: machineTimeZone(), now: ctx.now(), zoneField: false })
  const limit = input.limit ?? EVENT_LOG_LIMIT.default
  if (!Number.isInteger(limit) || limit < 1 || limit > EVENT_LOG_LIMIT.max) r.issues.push({ path: 'limit', message: `must be a whole number from 1 to ${EVENT_LOG_LIMIT.max}` })
  r.done()
  const store = await ctx.openEventStore()
  let closed = false
  const close = () => {
    if (closed) return
    closed = true
    store.close()
  }
  const filter = { type: input.type, eventId: input.eventId, outcome: input.state, since: since?.toISOString() }
  function* pages(): Generator<LoggedDelivery[]> {
    try {
      yield* eventLogPages(store, filter, input.all ? Number.POSITIVE_INFINITY : limit)
    } finally {
      close()
    }
  }
  return { path: store.path, pages: pages(), close }
}
