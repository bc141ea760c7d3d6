/** One JSON object per delivery (the listener's output when not on a TTY, or with --no-tui / --json). */
import { TEST_EVENT_TYPE } from '../contract/event-types.js'
import type { ListenerDelivery } from './listener.js'

export function deliveryLine({ record: r, summary, skipVerify }: ListenerDelivery): Record<string, unknown> {
  return {
    receivedAt: r.receivedAt,
    // Held by a relay and streamed to this listener (`listen --relay`).
    ...(r.source === 'relay' ? { via: 'relay' } : {}),
    eventId: r.eventId ?? null,
    type: r.type ?? null,
    // The service's test event carries a sample charge, none of the account's: flagged, not named.
    ...(r.type === TEST_EVENT_TYPE ? { test: true } : summary.charge ? { chargeId: summary.charge.id, chargeStatus: summary.charge.status ?? null } : {}),
    // How many times this listener received the event (1 = first): not the service's attempt
    // count, which also counts deliveries that never reached it (see `svc sandbox deliveries`).
    received: r.attempt,
    verified: r.verification === 'verified',
    verification: r.verification === 'failed' ? (r.verifyReason ?? 'failed') : r.verification,
    ...(r.verifyMessage ? { verifyMessage: r.verifyMessage } : {}),
    outcome: r.outcome,
    // Where it went (or would have): the URL, as `webhooks events --json` has it; null when no
    // --forward target matched. route: the pattern that chose it, null for the default target.
    target: r.forwardUrl ?? null,
    route: r.route ?? null,
    status: r.answeredStatus,
    forwardStatus: r.forwardStatus ?? null,
    latencyMs: r.latencyMs ?? null,
    ...(r.error ? { error: r.error } : {}),
    // Loud on every line: nothing here was checked.
    ...(skipVerify ? { skipVerify: true, warning: 'signature verification is OFF (--skip-verify)' } : {}),
  }
}
