/**
 * `svc status` (CLI.md 0.4): what needs a person now, each as an item `{ kind, count, … }`:
 * settlements overdue, refunds since (orders to reverse), the webhook endpoint deactivated (with
 * how to reactivate), and from this machine's listener event log, deliveries that never reached
 * the app and `charge.split.failed` / `withdrawal.failed` events, and on a local sandbox the
 * deliveries its log gave up on. Everything streams; only the items found are kept.
 *
 * A source that cannot be read (an event log that is locked, damaged or no database) does not
 * lose what the others said: it is named in `unreadable`, with why, and the command exits 10
 * ("could not tell"), so cron tells an incomplete answer from a clean one.
 */
import type { ApiClient } from '../api/types.js'
import { InputReader } from '../charges/operator-input.js'
import { overdueCharges } from '../charges/operator-lists.js'
import type { DeliveryRecord } from '../contract/panel.js'
import type { Charge } from '../contract/schemas.js'
import type { NextStep } from '../next-step.js'
import { type AttentionEvent, readEventLogAttention } from '../webhooks/event-log-attention.js'
import { defaultEventsDbPath } from '../webhooks/event-store.js'

export type StatusItem =
  | { kind: 'overdue_settlements'; count: number; grossInCents: number; oldest: { id: string; externalId?: string; estimatedAt: string; lateMs: number }; hint: string }
  | { kind: 'refunds'; count: number; grossInCents: number; since: string; charges: Array<{ id: string; externalId?: string; grossInCents: number; refundedAt: string }>; hint: string }
  | { kind: 'webhook_inactive'; count: 1; environment: string; url: string; hint: string }
  | { kind: 'failed_forwards'; count: number; eventLog: string; events: AttentionEvent[]; hint: string }
  | { kind: 'split_failed' | 'withdrawal_failed'; count: number; eventLog: string; events: AttentionEvent[]; hint: string }
  | { kind: 'failed_deliveries'; count: number; source: 'sandbox'; deliveries: FailedDelivery[]; hint: string }

/** A delivery the sandbox's log gave up on (state failed). */
export interface FailedDelivery {
  eventId: string
  type: string
  url: string
  attempts: number
  createdAt: string
  lastStatus?: number
  lastError?: string
}

/** A source `status` could not read, and why: what it would have listed is missing from `items`. */
export interface UnreadableSource {
  source: 'event_log' | 'sandbox_deliveries'
  /** The event log's file. */
  path?: string
  reason: string
}

export interface StatusReport {
  items: StatusItem[]
  unreadable: UnreadableSource[]
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
  /** Where a deactivated endpoint is reactivated: the local sandbox, or the service's panel. */
  webhookPanel: 'sandbox' | 'service'
  /** The door's words for a next step (next-step.ts): each item's hint says what to do in them. */
  say: (step: NextStep) => string
  /** On a local sandbox: its delivery log's failed deliveries created since (an instant on its clock). */
  sandboxFailedDeliveries?: (since: Date) => Promise<DeliveryRecord[]>
}

/**
 * What status is asked, as typed (no flag or argument names): how far back (`since`) and how late
 * counts as overdue (`grace`), durations such as 24h or 7d. A bad one is an InputError naming its
 * path (`since`, `grace`); each door names it in its own words (`--since`, the tool's `since`).
 */
export interface StatusInput {
  /** Default 24h. */
  since?: string
  /** Default 1h. */
  grace?: string
}

/**
 * What a door reads status from, given once the input is read: its API client, its clock, its
 * words, and its terminal's environment (`env`), where this machine's listener event log is.
 */
export type StatusSources = Omit<StatusOptions, 'sinceMs' | 'graceMs' | 'lookbackMs' | 'eventLogPath'> & { lookbackMs?: number; env: NodeJS.ProcessEnv }

const THIRTY_DAYS_MS = 30 * 86_400_000

/**
 * `svc status` and the get_status tool: the input read first (an InputError, nothing asked of
 * anyone), then the door's sources opened (credentials, a client), then the report.
 */
export async function getStatus(input: StatusInput, sources: () => Promise<StatusSources>): Promise<StatusReport> {
  const r = new InputReader()
  const sinceMs = r.duration('since', input.since, '24h')
  const graceMs = r.duration('grace', input.grace, '1h')
  r.done()
  const { env, ...from } = await sources()
  return collectStatus({ lookbackMs: THIRTY_DAYS_MS, ...from, eventLogPath: defaultEventsDbPath(env), sinceMs, graceMs })
}

export async function collectStatus(opts: StatusOptions): Promise<StatusReport> {
  const { client } = opts
  const items: StatusItem[] = []
  const unreadable: UnreadableSource[] = []

  const late = await overdueCharges(client, { graceMs: opts.graceMs, now: () => client.serverNow() })
  if (late.length > 0) {
    const oldest = late[0]!
    items.push({
      kind: 'overdue_settlements',
      count: late.length,
      grossInCents: late.reduce((a, l) => a + l.charge.amount.grossInCents, 0),
      oldest: { id: oldest.charge.id, ...ext(oldest.charge), estimatedAt: oldest.charge.settlement.estimatedAt!, lateMs: oldest.lateMs },
      hint: opts.say({ do: 'list_overdue' }),
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
    items.push({
      kind: 'webhook_inactive',
      count: 1,
      environment: account.environment,
      url: account.webhook.url,
      hint: opts.say({ do: 'reactivate_webhook', url: account.webhook.url, env: account.environment, on: opts.webhookPanel }),
    })
  }

  if (opts.sandboxFailedDeliveries) {
    try {
      const failed = await opts.sandboxFailedDeliveries(since)
      if (failed.length > 0) {
        items.push({
          kind: 'failed_deliveries',
          count: failed.length,
          source: 'sandbox',
          deliveries: failed.map((d) => ({
            eventId: d.eventId,
            type: d.type,
            url: d.url,
            attempts: d.attempts,
            createdAt: d.createdAt,
            ...(d.lastStatus !== undefined ? { lastStatus: d.lastStatus } : {}),
            ...(d.lastError ? { lastError: d.lastError } : {}),
          })),
          hint: opts.say({ do: 'resend_failed_deliveries' }),
        })
      }
    } catch (err) {
      unreadable.push({ source: 'sandbox_deliveries', reason: reasonOf(err) })
    }
  }

  let log: Awaited<ReturnType<typeof readEventLogAttention>>
  try {
    log = await readEventLogAttention(opts.eventLogPath, new Date(opts.localNow().getTime() - opts.sinceMs))
  } catch (err) {
    // Locked by a listener past the wait, damaged, or not a database: say so, keep the rest.
    unreadable.push({ source: 'event_log', path: opts.eventLogPath, reason: reasonOf(err) })
  }
  if (log) {
    if (log.failedForwards.length > 0) {
      items.push({
        kind: 'failed_forwards',
        count: log.failedForwards.length,
        eventLog: log.path,
        events: log.failedForwards,
        hint: opts.say({ do: 'replay_failed_forwards' }),
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
  return { items, unreadable }
}

/** The first line of an error, cut: enough to tell locked from damaged, never a stack. */
function reasonOf(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim()
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || 'unknown error'
}

const ext = (c: Charge) => (c.externalId ? { externalId: c.externalId } : {})
