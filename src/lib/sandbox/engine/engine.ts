/**
 * The charge engine: every state change of a charge goes through the one transition table of
 * domain/charge-states.ts, one move at a time, and each move is saved together with its event
 * (carrying the full Charge) before the event is published. Expiry, settlement and the split's
 * division are deadlines on the sandbox clock (charge-timers.ts); the division itself is
 * split-division.ts.
 *
 * A creation is one write: the charge, its event and its idempotency record go into the group
 * commit of the turn (group-commit.ts), and the 201 is answered only once that commit is done, so
 * an answered charge survives any restart. Until then the creation is held in memory (by
 * Idempotency-Key and by externalId), where a concurrent duplicate finds it: 409 charge_processing.
 */
import { hash as digest } from 'node:crypto'
import type { Environment, Charge, ChargeCreateRequest } from '../../contract/schemas.js'
import { type AdvanceTarget, type Transition, advancePath, transitionFor } from '../../domain/charge-states.js'
import { computeAmount } from '../../domain/money.js'
import { divideShares, type SplitShare } from '../../domain/split.js'
import type { Split } from '../../contract/split-charges.js'
import { maskTaxNumber, normalizeTaxNumber } from '../../domain/tax-number.js'
import { SandboxApiError, chargeNotFound } from '../api-error.js'
import { brCodeFor, qrImagePath } from './brcode.js'
import { ChargeTimers } from './charge-timers.js'
import type { SandboxClock } from './clock.js'
import { type SplitOutcome, divide, divisionRefusal } from './split-division.js'
import { newBlockchainTxId, newEventId } from '../store/ids.js'
import type { SandboxStore } from '../store/store.js'
import type { EventSink, StoredEvent } from '../types.js'

const HOUR_MS = 3_600_000

/**
 * The one amount (R$ 14,02) at which the sandbox's simulated provider refuses a charge:
 * 402 `provider_error`, nothing saved, so clients can exercise that answer.
 */
export const PROVIDER_REFUSES_AMOUNT = 1402

/** A creation request, with the destinations when it is a split charge (POST /v1/split-charges). */
export type ChargeInput = ChargeCreateRequest & { split?: SplitShare[] }

export interface ChargeEngineDeps {
  store: SandboxStore
  clock: SandboxClock
  sink: EventSink
  log: (line: string) => void
  /** The sandbox's base URL, for `pix.qrCodeImageUrl` (known once the server listens). */
  baseUrl: () => string
  /**
   * Runs between reserving a creation and saving the charge (which always takes at least one
   * turn of the event loop: the group commit), so a concurrent duplicate sees
   * `charge_processing`; tests hold it open to make that case deterministic.
   */
  beforeChargeInsert?: () => Promise<void> | void
}

export interface CreateResult {
  charge: Charge
  /** False for an idempotent replay (200), true when created now (201). */
  created: boolean
}

export class ChargeEngine {
  /** Pending expiries, settlements and divisions. */
  private readonly timers: ChargeTimers
  /** Creations not yet committed, by `env NUL externalId` and by `env NUL Idempotency-Key`: their request hash. */
  private readonly inFlight = new Map<string, string>()
  private readonly keysInFlight = new Map<string, string>()
  private stopped = false

  constructor(private readonly deps: ChargeEngineDeps) {
    const { store } = deps
    this.timers = new ChargeTimers({
      clock: deps.clock,
      log: deps.log,
      find: (env, id) => store.getCharge(env, id)?.charge,
      // Settlements held (sandbox account setting): the charge stays paid past estimatedAt; turning
      // the hold off re-arms every waiting settlement (SandboxAdmin), which then settles at the release.
      settlementsHeld: () => store.getSettings().holdSettlements === true,
      waiting: function* () {
        for (const s of store.chargesInStatus('awaiting_payment')) yield s.charge
        for (const s of store.chargesInStatus('paid_pending_settlement')) yield s.charge
        for (const s of store.pendingSplits()) yield s.charge
      },
      move: (charge, t, atMs) => this.commit(charge, [t], atMs),
      divide: (charge, atMs) => this.runSplit(charge, atMs),
    })
  }

  // ------------------------------------------------------------ creation

  async create(env: Environment, input: ChargeInput, idempotencyKey?: string): Promise<CreateResult> {
    const { store, clock } = this.deps
    const hash = requestHash(input)

    const keyFlight = idempotencyKey === undefined ? undefined : `${env}\u0000${idempotencyKey}`
    if (keyFlight !== undefined) {
      const flying = this.keysInFlight.get(keyFlight)
      if (flying !== undefined) throw flying === hash ? processing() : idempotencyConflict()
      const rec = store.getIdempotency(env, idempotencyKey!)
      if (rec) {
        if (rec.requestHash !== hash) throw idempotencyConflict()
        if (!rec.chargeId) throw processing()
        return { charge: this.mustGet(env, rec.chargeId), created: false }
      }
    }
    const flightKey = input.externalId === undefined ? undefined : `${env}\u0000${input.externalId}`
    if (flightKey !== undefined) {
      const flying = this.inFlight.get(flightKey)
      if (flying !== undefined) throw flying === hash ? processing() : externalIdConflict()
      const existing = store.getByExternalId(env, input.externalId!)
      if (existing) {
        if (existing.requestHash !== hash) throw externalIdConflict()
        if (idempotencyKey !== undefined) store.saveIdempotency(env, idempotencyKey, hash, existing.charge.id, clock.now())
        return { charge: existing.charge, created: false }
      }
    }

    this.checkMerchantCleared()
    if (input.amountInCents === PROVIDER_REFUSES_AMOUNT) {
      throw new SandboxApiError('provider_error', 'O provedor de pagamento recusou a cobrança (simulado: valor de R$ 14,02).')
    }

    if (keyFlight !== undefined) this.keysInFlight.set(keyFlight, hash)
    if (flightKey !== undefined) this.inFlight.set(flightKey, hash)
    try {
      await this.deps.beforeChargeInsert?.()
      if (this.stopped) throw new SandboxApiError('provider_unavailable', 'O sandbox está sendo encerrado; tente novamente.')
      const { charge, events } = await store.insertCharge(
        () => clock.now(),
        (id, nowMs) => this.draft(env, input, hash, id, nowMs),
        idempotencyKey,
      )
      // Saved: now (and only now) the event goes out and the charge's deadlines are armed.
      this.publish(events)
      this.timers.arm(charge)
      return { charge, created: true }
    } finally {
      if (keyFlight !== undefined) this.keysInFlight.delete(keyFlight)
      if (flightKey !== undefined) this.inFlight.delete(flightKey)
    }
  }

  private checkMerchantCleared(): void {
    const s = this.deps.store.getSettings()
    if (!s.merchantIdPresent) {
      throw new SandboxApiError('missing_merchant_id', 'A conta ainda não tem identificador no provedor de pagamento; conclua o cadastro no painel.')
    }
    if (!s.activated) throw new SandboxApiError('merchant_not_activated', 'A conta ainda não foi ativada para receber cobranças.')
    if (s.blocked) throw new SandboxApiError('charge_blocked', 'A criação de cobranças está bloqueada para esta conta.')
  }

  /** The new charge, already moved to awaiting_payment, with its event (pure: it may run twice). */
  private draft(env: Environment, input: ChargeInput, hash: string, id: string, nowMs: number): { charge: Charge; requestHash: string; events: StoredEvent[] } {
    const settings = this.deps.store.getSettings()
    const now = new Date(nowMs).toISOString()
    const amount = computeAmount(input.amountInCents, settings)
    const created: Charge = {
      id,
      ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
      status: 'created',
      environment: env,
      amount: { ...amount } as Charge['amount'],
      pix: {
        qrCode: brCodeFor(id),
        qrCodeImageUrl: `${this.deps.baseUrl()}${qrImagePath(id)}`,
        expiresAt: new Date(nowMs + settings.qrValiditySeconds * 1000).toISOString(),
      },
      settlement: { delayHours: settings.settlementDelayHours },
      payer: { taxNumber: maskTaxNumber(input.payerTaxNumber), ...(input.payerName !== undefined ? { name: input.payerName } : {}) },
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      ...(input.split !== undefined ? { split: { status: 'pending', destinations: divideShares(amount.netInCents, input.split) } satisfies Split } : {}),
      createdAt: now,
      updatedAt: now,
    }
    // `created` is transient: the QR is issued in the same breath (charge-states.ts).
    const issued = this.applyMove(created, must(transitionFor('created', 'issue_qr')), nowMs)
    return { charge: issued.charge, requestHash: hash, events: [issued.event] }
  }

  // ------------------------------------------------------------ reads and moves

  get(env: Environment, id: string): Charge {
    const found = this.deps.store.getCharge(env, id)
    if (!found) throw chargeNotFound()
    return found.charge
  }

  cancel(env: Environment, id: string): Charge {
    const charge = this.get(env, id)
    const t = transitionFor(charge.status, 'cancel')
    if (!t) {
      throw new SandboxApiError('charge_not_cancelable', `A cobrança não pode ser cancelada: está em ${charge.status}.`)
    }
    return this.commit(charge, [t], this.deps.clock.now())
  }

  /** Sandbox advance (spec 4.7): the shortest forward path, one real move and one event per step. */
  advance(env: Environment, id: string, target: AdvanceTarget): Charge {
    const charge = this.get(env, id)
    const path = advancePath(charge.status, target)
    if (!path) {
      throw new SandboxApiError('invalid_transition', `A cobrança não pode passar de ${charge.status} para ${target}.`)
    }
    return this.commit(charge, path, this.deps.clock.now())
  }

  /**
   * Divides a settled split charge's asset now rather than when its timer falls due (the panel's
   * `POST /_sandbox/charges/{id}/split`), ending as `outcome` says, or as the amount decides.
   */
  divideNow(env: Environment, id: string, outcome?: SplitOutcome): Charge {
    const charge = this.get(env, id)
    const refusal = divisionRefusal(charge)
    if (refusal) throw refusal
    return this.runSplit(charge, this.deps.clock.now(), outcome)
  }

  /** A `charge.test` event (spec 4.6), stored like any other; the caller publishes it. */
  testEvent(env: Environment): StoredEvent {
    const nowMs = this.deps.clock.now()
    const createdAt = new Date(nowMs).toISOString()
    const id = newEventId(nowMs)
    const sample = {
      id: '000000000000000000000000',
      status: 'awaiting_payment',
      environment: env,
      amount: computeAmount(1500, this.deps.store.getSettings()),
      pix: { qrCode: brCodeFor('000000000000000000000000'), expiresAt: createdAt },
      settlement: { delayHours: this.deps.store.getSettings().settlementDelayHours },
      payer: { taxNumber: '***.456.789-**' },
      description: 'Evento de teste enviado por POST /v1/webhooks/test',
      createdAt,
      updatedAt: createdAt,
    }
    const event: StoredEvent = {
      id,
      type: 'charge.test',
      environment: env,
      createdAt,
      body: JSON.stringify({ id, type: 'charge.test', createdAt, environment: env, data: { charge: sample } }),
    }
    this.deps.store.insertEvent(event)
    this.publish([event])
    return event
  }

  private mustGet(env: Environment, id: string): Charge {
    const found = this.deps.store.getCharge(env, id)
    if (!found) throw new SandboxApiError('internal_error', 'Registro de idempotência aponta para uma cobrança inexistente.')
    return found.charge
  }

  /** Applies the moves in order at instant `atMs`, saves the result with one event per move, then publishes. */
  private commit(start: Charge, moves: Transition[], atMs: number): Charge {
    let charge = start
    const events: StoredEvent[] = []
    for (const t of moves) {
      const step = this.applyMove(charge, t, atMs)
      charge = step.charge
      events.push(step.event)
    }
    this.deps.store.updateCharge(charge, events)
    this.publish(events)
    this.timers.arm(charge)
    return charge
  }

  private applyMove(charge: Charge, t: Transition, atMs: number): { charge: Charge; event: StoredEvent } {
    if (charge.status !== t.from) throw new Error(`bug: move ${t.from}→${t.to} applied to a ${charge.status} charge`)
    const at = new Date(atMs).toISOString()
    const next: Charge = { ...charge, status: t.to, updatedAt: at, settlement: { ...charge.settlement }, payer: { ...charge.payer } }
    if (t.trigger === 'pay') {
      next.settlement.paidAt = at
      next.settlement.estimatedAt = new Date(atMs + next.settlement.delayHours * HOUR_MS).toISOString()
      // The name the payer's bank reported (spec 2.2): banks report it in capitals.
      next.payer.name = (charge.payer.name ?? 'Pagador Sandbox').toUpperCase()
    }
    if (t.trigger === 'settle') {
      next.settlement.settledAt = at
      next.settlement.blockchainTxId = newBlockchainTxId()
    }
    const id = newEventId(atMs)
    const body = JSON.stringify({ id, type: t.event, createdAt: at, environment: next.environment, data: { charge: next } })
    return { charge: next, event: { id, type: t.event, environment: next.environment, createdAt: at, body, resourceKey: `charge:${next.id}` } }
  }

  /** The split's one move (split-division.ts), saved with its event. */
  private runSplit(charge: Charge, atMs: number, outcome?: SplitOutcome): Charge {
    const { charge: next, event } = divide(charge, atMs, outcome)
    this.deps.store.updateCharge(next, [event])
    this.publish([event])
    this.timers.arm(next)
    return next
  }

  private publish(events: StoredEvent[]): void {
    for (const e of events) {
      try {
        this.deps.sink.publish(e)
      } catch (err) {
        this.deps.log(`event ${e.id} (${e.type}) could not be handed to the delivery worker: ${(err as Error).message}`)
      }
    }
  }

  // ------------------------------------------------------------ timers (charge-timers.ts)

  /** Re-arms expiry, settlement and division of every charge still waiting for one (after a restart). */
  restoreTimers(): void {
    this.timers.restore()
  }

  /** The hold on settlements was released: the overdue ones settle now, at the release instant. */
  releaseSettlements(): void {
    this.timers.release()
  }

  stop(): void {
    this.stopped = true
    this.timers.stop()
  }

  /** Forgets every pending expiry, settlement and division (the data is being emptied). */
  reset(): void {
    this.timers.reset()
  }
}

/** Same body ⇔ same hash: canonical JSON (sorted keys), the tax number without punctuation. */
export function requestHash(input: ChargeInput): string {
  const normalized = { ...input, payerTaxNumber: normalizeTaxNumber(input.payerTaxNumber) }
  // One-shot: a Hash object per creation cost more than the hashing.
  return digest('sha256', canonicalJson(normalized), 'hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

function processing(): SandboxApiError {
  return new SandboxApiError('charge_processing', 'A cobrança original ainda está sendo criada; tente novamente em 1 segundo.', {
    headers: { 'retry-after': '1' },
  })
}

function idempotencyConflict(): SandboxApiError {
  return new SandboxApiError('idempotency_key_conflict', 'Esta Idempotency-Key já foi usada com outro corpo de requisição.')
}

function externalIdConflict(): SandboxApiError {
  return new SandboxApiError('external_id_conflict', 'Já existe uma cobrança com este externalId e um corpo diferente.')
}

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('bug: the transition table lacks a move the engine relies on')
  return value
}
