/**
 * `svc status` (CLI.md 0.4): what needs a person now, each as an item `{ kind, count, … }`:
 * settlements overdue, refunds since (orders to reverse), the webhook endpoint deactivated (with
 * how to reactivate), and from this machine's listener event log, deliveries that never reached
 * the app and `charge.split.failed` / `withdrawal.failed` events. Everything streams; only the
 * items found are kept.
 */
import type { ApiClient } from '../api/types.js'
import { overdueCharges } from '../charges/operator-lists.js'
import type { Charge } from '../contract/schemas.js'
import { type AttentionEvent, readEventLogAttention } from '../webhooks/event-log-attention.js'

export type StatusItem =
  | { kind: 'overdue_settlements'; count: number; grossInCents: number; oldest: { id: string; externalId?: string; estimatedAt: string; lateMs: number }; hint: string }
  | { kind: 'refunds'; count: number; grossInCents: number; since: string; charges: Array<{ id: string; externalId?: string; grossInCents: number; refundedAt: string }>; hint: string }
  | { kind: 'webhook_inactive'; count: 1; environment: string; url: string; hint: string }
  | { kind: 'failed_forwards'; count: number; eventLog: string; events: AttentionEvent[]; hint: string }
  | { kind: 'split_failed' | 'withdrawal_failed'; count: number; eventLog: string; events: AttentionEvent[]; hint: string }

export interface StatusReport {
  items: StatusItem[]
}

export interface StatusOptions {
  client: ApiClient
  /** Look back this far for refunds and event-log failures. */
  sinceMs: number
  graceMs: number
  /** Refunded charges are scanned back by creation this far before `since` (a refund follows a settlement). */
  lookbackMs: number
  /** The listener's event log; its times are this machine's clock (`localNow`). */
  eventLogPath: string
  localNow: () => Date
  /** How to reactivate the endpoint: the sandbox's own command, or the service's panel. */
  reactivateHint: (url: string) => string
}

export async function collectStatus(opts: StatusOptions): Promise<StatusReport> {
  const { client } = opts
  const items: StatusItem[] = []

  const late = await overdueCharges(client, { graceMs: opts.graceMs, now: () => client.serverNow() })
  if (late.length > 0) {
    const oldest = late[0]!
    items.push({
      kind: 'overdue_settlements',
      count: late.length,
      grossInCents: late.reduce((a, l) => a + l.charge.amount.grossInCents, 0),
      oldest: { id: oldest.charge.id, ...ext(oldest.charge), estimatedAt: oldest.charge.settlement.estimatedAt!, lateMs: oldest.lateMs },
      hint: 'svc charges list --overdue lists them; the service settles them, ask its support quoting the ids',
    })
  }

  const since = new Date(client.serverNow().getTime() - opts.sinceMs)
  const refunds: Array<{ id: string; externalId?: string; grossInCents: number; refundedAt: string }> = []
  const query = { status: 'refunded' as const, createdAfter: new Date(since.getTime() - opts.lookbackMs).toISOString() }
  for await (const charge of client.paginateCharges(query)) {
    if (Date.parse(charge.updatedAt) >= since.getTime()) refunds.push({ id: charge.id, ...ext(charge), grossInCents: charge.amount.grossInCents, refundedAt: charge.updatedAt })
  }
  if (refunds.length > 0) {
    items.push({
      kind: 'refunds',
      count: refunds.length,
      grossInCents: refunds.reduce((a, r) => a + r.grossInCents, 0),
      since: since.toISOString(),
      charges: refunds,
      hint: 'the payer got the money back: reverse these orders (externalId) in your system',
    })
  }

  const account = await client.getAccount()
  if (account.webhook && !account.webhook.active) {
    items.push({ kind: 'webhook_inactive', count: 1, environment: account.environment, url: account.webhook.url, hint: opts.reactivateHint(account.webhook.url) })
  }

  const log = await readEventLogAttention(opts.eventLogPath, new Date(opts.localNow().getTime() - opts.sinceMs))
  if (log) {
    if (log.failedForwards.length > 0) {
      items.push({
        kind: 'failed_forwards',
        count: log.failedForwards.length,
        eventLog: log.path,
        events: log.failedForwards,
        hint: 'your app did not take these: fix it, then svc webhooks replay EVENT_ID',
      })
    }
    for (const kind of ['split_failed', 'withdrawal_failed'] as const) {
      const type = kind === 'split_failed' ? 'charge.split.failed' : 'withdrawal.failed'
      const events = log.failureEvents.filter((e) => e.type === type)
      if (events.length > 0) {
        items.push({
          kind,
          count: events.length,
          eventLog: log.path,
          events,
          hint: kind === 'split_failed' ? 'the split was not divided: check the destinations and contact support' : 'the withdrawal did not pay out: check the Pix key and withdraw again',
        })
      }
    }
  }
  return { items }
}

const ext = (c: Charge) => (c.externalId ? { externalId: c.externalId } : {})
