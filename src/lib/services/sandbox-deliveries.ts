/**
 * `svc sandbox deliveries` and the list_deliveries tool: the sandbox's webhook delivery log,
 * newest first. One operation with a typed input (no flag or argument names): a bad field is an
 * InputError naming its path (`since`, `limit`), which each door names in its own words.
 */
import { InputReader } from '../charges/operator-input.js'
import type { DeliveryState } from '../contract/panel.js'
import type { Environment } from '../contract/schemas.js'
import { machineTimeZone } from '../domain/calendar.js'
import { type DeliveryListFilter, noDeliveryError, type PanelClient, type PanelDelivery } from '../sandbox-client/panel-client.js'

export interface DeliveryLogInput {
  /** Default: the key's. */
  env?: Environment
  /** Only the delivery of this event, with its attempts. */
  eventId?: string
  /** 1 to 1000, default 50: one page. */
  limit?: number
  state?: DeliveryState
  /** An event type; a trailing * matches a prefix (charge.*). */
  type?: string
  /** Created since: 24h, 7d, a day (this machine's), an ISO instant; an age counts back on the sandbox's clock. */
  since?: string
  /** Every matching delivery, page after page (1000 at a time), instead of one page of `limit`. */
  all?: boolean
}

export interface DeliveryLogContext {
  /** The sandbox's panel client. */
  panel: () => Promise<PanelClient>
  /** This machine's now: `since` is checked on it before the sandbox is asked. */
  now: () => Date
  /** The key's environment, where the log is read when the input names none. */
  environment: () => Promise<Environment>
}

/** The deliveries asked for: as pages for a stream (the list printer), or the one page at once. */
export interface DeliveryLog {
  filter: DeliveryListFilter
  /** One page, or every page with `all`, read as they are iterated; with `eventId` that event's one page, or not_found. */
  pages: AsyncIterable<PanelDelivery[]>
  /** The one page; with `eventId` it holds that event's delivery, else not_found (exit 4), as `resend` says. */
  page: () => Promise<PanelDelivery[]>
}

export const DELIVERY_LIMIT = { default: 50, max: 1000 } as const

/** Reads the input (throws InputError before anything is asked of the sandbox), then the filter on the sandbox's clock. */
export async function listSandboxDeliveries(input: DeliveryLogInput, ctx: DeliveryLogContext): Promise<DeliveryLog> {
  const first = new InputReader()
  first.date('since', input.since, { timeZone: machineTimeZone(), now: ctx.now(), zoneField: false })
  const limit = input.limit ?? DELIVERY_LIMIT.default
  if (!Number.isInteger(limit) || limit < 1 || limit > DELIVERY_LIMIT.max) first.issues.push({ path: 'limit', message: `must be a whole number from 1 to ${DELIVERY_LIMIT.max}` })
  first.done()
  const panel = await ctx.panel()
  const filter: DeliveryListFilter = { env: input.env, eventId: input.eventId, limit, state: input.state, type: input.type }
  if (input.since !== undefined) {
    // Relative forms count back from the sandbox's clock, not this machine's.
    const now = new Date((await panel.getClock()).now)
    const r = new InputReader()
    const since = r.date('since', input.since, { timeZone: machineTimeZone(), now, zoneField: false })
    r.done()
    filter.since = since!.toISOString()
  }
  const page = async () => {
    const { data } = await panel.listDeliveries(filter)
    if (filter.eventId && !data.length) throw noDeliveryError(filter.eventId, filter.env ?? (await ctx.environment()))
    return data
  }
  async function* one(): AsyncGenerator<PanelDelivery[]> {
    yield await page()
  }
  // An event has one delivery: with eventId, every format reads that one page, and an unknown event is not_found in each.
  return { filter, pages: input.all && !filter.eventId ? panel.allDeliveries(filter) : one(), page }
}
