/**
 * Confirming a charge event against the authority (spec 1 and 6.4.10: events can be lost, out
 * of order or forged; `GET /v1/charges/{id}` decides). The comparison is pure; the confirmer
 * calls the API once per event and never throws.
 */
import type { Charge } from '../contract/schemas.js'
import { type ChargeStatus, canReach } from '../domain/charge-states.js'
import { ApiError } from '../errors.js'

export type Verdict =
  | { kind: 'pending' }
  /** The API shows the state the event announced, or a later one the charge moved on to. */
  | { kind: 'confirmed'; api: ChargeStatus; movedOn: boolean }
  /** The API contradicts the event: it never reached that state, or no such charge exists. */
  | { kind: 'mismatch'; api?: ChargeStatus; reason: string }
  /** The API could not be asked (no credentials, network, rate limit). */
  | { kind: 'unavailable'; reason: string }
  /** A replayed event whose state the charge has left: what it announces is no longer true. */
  | { kind: 'stale'; announced: ChargeStatus; api: ChargeStatus }
  /** The service's own test event (`charge.test`): its charge is a sample by design, nothing to confirm. */
  | { kind: 'test' }

/** The verdict for an event announcing `announced` (undefined: a charge event with no state, e.g. a split). */
export function compareWithApi(announced: ChargeStatus | undefined, api: Charge | 'not_found', environment?: string): Verdict {
  if (api === 'not_found') return { kind: 'mismatch', reason: 'no such charge in this environment (forged, or sent for another environment)' }
  if (environment && environment !== api.environment) {
    return { kind: 'mismatch', api: api.status, reason: `the event says ${environment}, the charge is ${api.environment}` }
  }
  if (announced === undefined || announced === api.status) return { kind: 'confirmed', api: api.status, movedOn: false }
  if (canReach(announced, api.status)) return { kind: 'confirmed', api: api.status, movedOn: true }
  return { kind: 'mismatch', api: api.status, reason: `the event says ${announced}, the API says ${api.status}` }
}

/**
 * The verdict for a replay (the local log's bytes sent again): an event announcing a state the
 * charge has since left is stale, even when the charge could have moved on from it; the rest as
 * for a delivery.
 */
export function replayVerdict(announced: ChargeStatus | undefined, verdict: Verdict): Verdict {
  if (!announced) return verdict
  if ((verdict.kind === 'confirmed' && verdict.movedOn) || (verdict.kind === 'mismatch' && verdict.api)) {
    return { kind: 'stale', announced, api: verdict.api! }
  }
  return verdict
}

export class ChargeConfirmer {
  constructor(private readonly getCharge: (id: string) => Promise<Charge>) {}

  async confirm(chargeId: string, announced: ChargeStatus | undefined, environment?: string): Promise<Verdict> {
    try {
      return compareWithApi(announced, await this.getCharge(chargeId), environment)
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return compareWithApi(announced, 'not_found')
      return { kind: 'unavailable', reason: (err as Error).message }
    }
  }
}
