/**
 * Deliveries of the listener's event log, for tests: what `EventStore.record` takes, and what the
 * listener hands the live view. Each test says only what it is about; the rest is a verified
 * delivery from the service, forwarded and answered 200 (502 when its forward failed).
 */
import type { LoggedDelivery, NewLoggedDelivery } from '../../src/lib/webhooks/event-store.js'
import { summarizeEvent } from '../../src/lib/webhooks/event-summary.js'
import type { ListenerDelivery } from '../../src/lib/webhooks/listener.js'

/** A delivery to record (`store.record(newDelivery({ eventId: 'evt_1' }))`). */
export function newDelivery(over: Partial<NewLoggedDelivery> = {}): NewLoggedDelivery {
  const outcome = over.outcome ?? 'forwarded'
  return {
    receivedAt: '2026-11-22T12:00:00.000Z',
    source: 'service',
    headers: {},
    body: Buffer.from('{}'),
    verification: 'verified',
    outcome,
    answeredStatus: outcome === 'failed' ? 502 : 200,
    ...over,
  }
}

/** A recorded delivery (its `seq` given, first attempt) as the listener emits it: the record and its summary. */
export function heardDelivery(over: Partial<LoggedDelivery> & Pick<LoggedDelivery, 'seq'>, skipVerify = false): ListenerDelivery {
  const record: LoggedDelivery = { ...newDelivery(over), attempt: over.attempt ?? 1, seq: over.seq }
  return { record, summary: summarizeEvent(record.body), skipVerify }
}
