/**
 * Withdrawals in the sandbox (spec 4.8, 6.3), a sibling of the charge engine: a withdrawal starts
 * `processing` (withdrawal.processing) and, WITHDRAWAL_SETTLES_AFTER_MS later on the sandbox
 * clock, ends `paid` with its end-to-end id (withdrawal.paid) or `failed` with a reason
 * (withdrawal.failed), as the request's `outcome` says. The real service starts withdrawals
 * itself; the sandbox starts them from its panel (`POST /_sandbox/withdrawals`, any environment).
 * Each move is saved with its event in one commit, then published; deadlines survive a restart.
 */
import type { Withdrawal, WithdrawalCreateRequest } from '../../contract/withdrawals.js'
import { WITHDRAWAL_STARTED_EVENT, type WithdrawalStatus, withdrawalTransition } from '../../domain/withdrawal-states.js'
import { SandboxApiError, withdrawalNotFound } from '../api-error.js'
import type { SandboxClock } from './clock.js'
import { DueQueue } from './due-queue.js'
import { newEndToEndId, newResourceId } from '../store/ids.js'
import { resourceEvent } from './resource-events.js'
import type { SandboxStore } from '../store/store.js'
import type { EventSink, StoredEvent } from '../types.js'
import type { Environment } from '../../contract/schemas.js'

/** How long (sandbox time) the simulated provider takes to pay or refuse a withdrawal. */
export const WITHDRAWAL_SETTLES_AFTER_MS = 30_000
export const WITHDRAWAL_FAILURE_REASON = 'the receiving institution returned the instant payment (simulated)'

type Row = Record<string, unknown>

export interface WithdrawalDeps {
  store: SandboxStore
  clock: SandboxClock
  sink: EventSink
}

export class Withdrawals {
  private readonly due: DueQueue
  /** Withdrawals whose end is being saved: a timer and an advance never both end one. */
  private readonly finishing = new Set<string>()
  private readonly st

  constructor(private readonly deps: WithdrawalDeps) {
    const p = (sql: string) => deps.store.db.prepare(sql)
    this.st = {
      insert: p('INSERT INTO withdrawals (id, environment, status, outcome, due_ms, body) VALUES (?, ?, ?, ?, ?, ?)'),
      update: p('UPDATE withdrawals SET status = ?, due_ms = NULL, body = ? WHERE id = ?'),
      get: p('SELECT * FROM withdrawals WHERE id = ? AND environment = ?'),
      byId: p('SELECT * FROM withdrawals WHERE id = ?'),
      pending: p('SELECT id, due_ms FROM withdrawals WHERE due_ms IS NOT NULL'),
      list: p('SELECT body FROM withdrawals WHERE environment = ? ORDER BY seq DESC LIMIT ?'),
    }
    this.due = new DueQueue(deps.clock, (id, dueAt) => void this.finish(id, dueAt))
  }

  async create(env: Environment, input: WithdrawalCreateRequest): Promise<Withdrawal> {
    const nowMs = this.deps.clock.now()
    const at = new Date(nowMs).toISOString()
    const withdrawal: Withdrawal = {
      id: newResourceId(nowMs),
      status: 'processing',
      environment: env,
      amountInCents: input.amountInCents,
      pix: { key: input.pixKey },
      createdAt: at,
      updatedAt: at,
    }
    const event = this.event(WITHDRAWAL_STARTED_EVENT, withdrawal, nowMs)
    const dueAt = nowMs + WITHDRAWAL_SETTLES_AFTER_MS
    await this.deps.store.writes.run(() => {
      this.st.insert.run(withdrawal.id, env, withdrawal.status, input.outcome ?? 'paid', dueAt, JSON.stringify(withdrawal))
      this.deps.store.insertEvent(event)
    })
    this.deps.sink.publish(event)
    this.due.set(withdrawal.id, dueAt)
    return withdrawal
  }

  /** 404 `withdrawal_not_found` in another environment or when there is none (spec 5.4, as for charges). */
  get(env: Environment, id: string): Withdrawal {
    const row = this.st.get.get(id, env) as Row | undefined
    if (!row) throw withdrawalNotFound()
    return JSON.parse(row.body as string) as Withdrawal
  }

  /** The environment's withdrawals, newest first (the panel's list). */
  list(env: Environment, limit = 50): Withdrawal[] {
    return (this.st.list.all(env, limit) as Row[]).map((row) => JSON.parse(row.body as string) as Withdrawal)
  }

  restoreTimers(): void {
    for (const row of this.st.pending.all() as Row[]) this.due.set(row.id as string, row.due_ms as number)
  }

  stop(): void {
    this.due.stop()
  }

  reset(): void {
    this.due.clear()
  }

  /**
   * Ends a processing withdrawal now rather than when its timer falls due (the panel's
   * `POST /_sandbox/withdrawals/{id}/advance`), as `to` says or as it was asked to end.
   */
  async advance(env: Environment, id: string, to?: 'paid' | 'failed'): Promise<Withdrawal> {
    const current = this.get(env, id)
    if (current.status !== 'processing' || this.finishing.has(id)) {
      throw new SandboxApiError('invalid_transition', `O saque não pode passar de ${current.status} para ${to ?? 'paid/failed'}.`)
    }
    this.due.delete(id)
    return (await this.finish(id, this.deps.clock.now(), to))!
  }

  private async finish(id: string, atMs: number, outcome?: 'paid' | 'failed'): Promise<Withdrawal | undefined> {
    const row = this.st.byId.get(id) as Row | undefined
    if (!row || row.status !== 'processing' || this.finishing.has(id)) return undefined
    this.finishing.add(id)
    try {
      return await this.end(id, row, atMs, outcome)
    } finally {
      this.finishing.delete(id)
    }
  }

  private async end(id: string, row: Row, atMs: number, outcome?: 'paid' | 'failed'): Promise<Withdrawal> {
    const current = JSON.parse(row.body as string) as Withdrawal
    const to: WithdrawalStatus = outcome ?? (row.outcome === 'failed' ? 'failed' : 'paid')
    const move = withdrawalTransition(current.status, to)!
    const at = new Date(atMs).toISOString()
    const next: Withdrawal =
      to === 'paid' ? { ...current, status: to, pix: { ...current.pix, endToEndId: newEndToEndId(atMs) }, updatedAt: at } : { ...current, status: to, failureReason: WITHDRAWAL_FAILURE_REASON, updatedAt: at }
    const event = this.event(move.event, next, atMs)
    await this.deps.store.writes.run(() => {
      this.st.update.run(next.status, JSON.stringify(next), id)
      this.deps.store.insertEvent(event)
    })
    this.deps.sink.publish(event)
    return next
  }

  private event(type: string, withdrawal: Withdrawal, atMs: number): StoredEvent {
    return resourceEvent(type, withdrawal.environment, atMs, `withdrawal:${withdrawal.id}`, { withdrawal })
  }
}
