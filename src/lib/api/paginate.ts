/**
 * Cursor pagination (spec 4.2): follows `hasMore` with `startingAfter` = the last id. Only one
 * page is in memory at a time, so `charges list --all` stays flat however long the list is.
 */
import type { Charge, ChargeList, ChargeListQuery } from '../contract/schemas.js'

/** Page size used when following pages, unless the caller set `limit`: the spec's maximum. */
export const PAGE_SIZE = 100

export async function* paginate(fetchPage: (query: ChargeListQuery) => Promise<ChargeList>, query: ChargeListQuery = {}): AsyncGenerator<Charge> {
  let cursor = query.startingAfter
  for (;;) {
    const page = await fetchPage({ ...query, limit: query.limit ?? PAGE_SIZE, ...(cursor ? { startingAfter: cursor } : {}) })
    for (const charge of page.data) yield charge
    const last = page.data.at(-1)
    // An empty page with hasMore=true would loop forever on the same cursor.
    if (!page.hasMore || !last || last.id === cursor) return
    cursor = last.id
  }
}
