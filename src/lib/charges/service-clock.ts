/**
 * Dates that count back from now (`2h`, `7d`, `yesterday`) mean the service's now: a sandbox clock
 * may run days ahead of this machine's. Flags are read once on this machine's clock, so a bad
 * value is exit 2 before anything is sent; when one of them counts back, one small request reads
 * the service's `Date` header and they are read again on that clock. `charges list`, `report` and
 * `svc mcp`'s settlement_report all read their dates this way.
 */
import type { ApiClient } from '../api/types.js'

export async function readOnServiceClock<T>(client: () => Promise<Pick<ApiClient, 'listCharges' | 'serverNow'>>, countsBack: boolean, read: (now: Date) => T): Promise<T> {
  const local = read(new Date())
  if (!countsBack) return local
  const c = await client()
  await c.listCharges({ limit: 1 })
  return read(c.serverNow())
}
