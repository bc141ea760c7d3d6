/**
 * Events of the resources beside charges (withdrawals, split charges, product sales), built the
 * way the charge engine builds its own: `{id, type, createdAt, environment, data}` as the exact
 * JSON text that is stored, signed and sent, tagged with the resource it is about.
 */
import { newEventId } from '../store/ids.js'
import type { StoredEvent } from '../types.js'
import type { Environment } from '../../contract/schemas.js'

export function resourceEvent(type: string, environment: Environment, atMs: number, resourceKey: string, data: Record<string, unknown>): StoredEvent {
  const id = newEventId(atMs)
  const createdAt = new Date(atMs).toISOString()
  return { id, type, environment, createdAt, body: JSON.stringify({ id, type, createdAt, environment, data }), resourceKey }
}
