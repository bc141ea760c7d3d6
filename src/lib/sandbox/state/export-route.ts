/**
 * `GET /_sandbox/export`: the running sandbox's whole state (state.ts), for `svc sandbox export`.
 * Guarded like every `/_sandbox` route (any valid key of this sandbox); the answer holds the keys
 * and the webhook secret in full, which is the point of it: a sandbox seeded from it is the same.
 */
import type { PanelResponse } from '../types.js'
import type { SandboxState } from './state.js'

/** Deliveries in flight settle and pending writes are committed before the tables are read. */
export async function handleExportRequest(exportState: () => Promise<SandboxState>): Promise<PanelResponse> {
  return { status: 200, body: await exportState() }
}
