/**
 * Runs the battery against a merchant's endpoint, one delivery at a time and in order (the
 * duplicate must follow the original), and turns each answer into a row: expected, observed,
 * pass/fail, time. The clocks and the time limit are injected so tests control them.
 */
import { LIMITS } from '../contract/limits.js'
import { maskSecret } from '../config/mask.js'
import { buildBattery, type CheckCase } from '../webhooks/check/cases.js'
import { type CheckReport, type CheckRow, formatLimit } from '../webhooks/check/report.js'
import { type Answer, createTransport, type Transport } from '../webhooks/check/transport.js'
import type { Environment } from '../contract/schemas.js'

export type { CheckReport, CheckRow } from '../webhooks/check/report.js'

export interface CheckOptions {
  url: URL
  /** The first signs; all of them are kept clear of the "another secret" case. */
  secrets: readonly string[]
  environment?: Environment
  /** A row over this fails; also when a delivery is given up (spec 6.4: 10 s). */
  limitMs?: number
  /** Epoch milliseconds, for timestamps and the instants in the bodies. */
  now?: () => number
  /** A monotonic clock in milliseconds, for row times. */
  elapsed?: () => number
  transport?: Transport
  /** Called once with the rows to come, before the first delivery (lets a table size itself). */
  onStart?: (rows: ReadonlyArray<Pick<CheckRow, 'id' | 'name' | 'expected'>>) => void
  /** Called as each row completes, so a slow endpoint shows progress. */
  onRow?: (row: CheckRow) => void
}

function snippet(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim()
  return line.length > 120 ? `${line.slice(0, 117)}…` : line
}

interface Context {
  url: string
  limitMs: number
  secret: string
  anyAnswer: boolean
}

function observe(answer: Answer, ctx: Context): string {
  switch (answer.kind) {
    case 'answer': {
      const head = `${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`
      if (answer.status >= 300 && answer.status < 400) return `${head}, redirect${answer.location ? ` to ${answer.location}` : ''} (not followed)`
      return head
    }
    case 'timeout':
      return `no answer within ${formatLimit(ctx.limitMs)}`
    case 'unreachable':
      return `could not connect to ${ctx.url}: ${answer.reason}`
    case 'closed':
      return `connection closed without an answer: ${answer.reason}`
  }
}

function expectedText(c: CheckCase, limitMs: number): string {
  return c.expect === 'accept' ? `2xx within ${formatLimit(limitMs)}` : 'not 2xx'
}

function judge(c: CheckCase, answer: Answer, ms: number, ctx: Context): CheckRow {
  const expected = expectedText(c, ctx.limitMs)
  const status = answer.kind === 'answer' ? answer.status : null
  const ok2xx = status !== null && status >= 200 && status < 300
  const inTime = ms <= ctx.limitMs
  const pass = status !== null && inTime && (c.expect === 'accept' ? ok2xx : !ok2xx)
  const notes: string[] = []
  if (!pass) {
    if (status !== null && !inTime) notes.push(`took ${Math.round(ms)} ms: the service gives up after ${formatLimit(ctx.limitMs)} and retries`)
    if (status !== null && status >= 300 && status < 400 && c.expect === 'accept') {
      notes.push('a redirect is not a success: the service does not follow it (spec 6.4); configure the final URL')
    }
    if (answer.kind === 'unreachable' && ctx.anyAnswer) notes.push('the endpoint answered earlier deliveries: did the handler crash on the previous one?')
    if (answer.kind === 'closed') notes.push('did the handler crash on this delivery?')
    if (c.id === 'valid' && status !== null && status >= 400 && status < 500) {
      notes.push(`is the handler using the same secret as this check (${maskSecret(ctx.secret) || 'the one given'})?`)
    }
    // Why the row matters only helps once the handler was reached.
    if (answer.kind !== 'unreachable') notes.push(c.why)
    if (answer.kind === 'answer' && answer.body.trim()) notes.push(`answered: ${snippet(answer.body)}`)
  }
  return { id: c.id, name: c.name, expected, observed: observe(answer, ctx), status, ms: Math.round(ms), pass, note: notes.length ? notes.join('; ') : null }
}

function notRun(c: CheckCase, ctx: Context, reason: string): CheckRow {
  return { id: c.id, name: c.name, expected: expectedText(c, ctx.limitMs), observed: `not run: could not connect to ${ctx.url}: ${reason}`, status: null, ms: null, pass: false, note: null }
}

export async function runWebhookCheck(opts: CheckOptions): Promise<CheckReport> {
  const secret = opts.secrets[0]
  if (!secret) throw new Error('runWebhookCheck needs a secret')
  const now = opts.now ?? Date.now
  const elapsed = opts.elapsed ?? (() => performance.now())
  const limitMs = opts.limitMs ?? LIMITS.webhookTimeoutMs
  const transport = opts.transport ?? createTransport()
  const ctx: Context = { url: opts.url.href, limitMs, secret, anyAnswer: false }
  const cases = buildBattery({ secret, secrets: opts.secrets, environment: opts.environment, nowMs: now() })
  opts.onStart?.(cases.map((c) => ({ id: c.id, name: c.name, expected: expectedText(c, limitMs) })))
  const rows: CheckRow[] = []
  let unreachable: string | undefined
  try {
    for (const c of cases) {
      let row: CheckRow
      if (unreachable !== undefined) {
        // Nothing has ever answered: trying again would only repeat the failure (slowly, for DNS).
        row = notRun(c, ctx, unreachable)
      } else {
        const delivery = c.build(Math.floor(now() / 1000))
        const start = elapsed()
        const answer = await transport.send(opts.url, delivery, limitMs)
        row = judge(c, answer, elapsed() - start, ctx)
        if (answer.kind === 'unreachable' && !ctx.anyAnswer) unreachable = answer.reason
        if (answer.kind !== 'unreachable') ctx.anyAnswer = true
      }
      rows.push(row)
      opts.onRow?.(row)
    }
  } finally {
    if (!opts.transport) await transport.close()
  }
  const passed = rows.filter((r) => r.pass).length
  return { url: ctx.url, passed, failed: rows.length - passed, reachable: ctx.anyAnswer, rows }
}
