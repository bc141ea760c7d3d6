/**
 * Dates that count back from now (`2h`, `7d`, `yesterday`) mean the service's now: a sandbox clock
 * may run days ahead of this machine's. Flags are read once on this machine's clock, so a bad
 * value is exit 2 before anything is sent; when one of them counts back, one small request reads
 * the service's `Date` header and they are read again on that clock. `charges list`, `report` and
 * `svc mcp`'s settlement_report all read their dates this way.
 *
 * One clock decides both the dates and their order: `read(now, decides)` is told whether this
 * reading is the one that counts. The first, on this machine's clock, checks each value alone
 * (forms, calendar, range); when a date counts back it must not judge the order, since `--from
 * 2026-11-29 --to today` is in order on a service three days ahead and out of order here.
 */
import type { ApiClient } from '../api/types.js'

export async function readOnServiceClock<T>(client: () => Promise<Pick<ApiClient, 'listCharges' | 'serverNow'>>, countsBack: boolean, read: (now: Date, decides: boolean) => T): Promise<T> {
  const local = read(new Date(), !countsBack)
  if (!countsBack) return local
  const c = await client()
  await c.listCharges({ limit: 1 })
  return read(c.serverNow(), true)
}
