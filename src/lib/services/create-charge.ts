/**
 * Creating a charge, for every door (`svc charges create`, MCP's create_charge): the typed input
 * checked (charges/create-input.ts; a bad one is an InputError naming its fields by path), the
 * payer's tax number (given, asked, or a generated test CPF), the request, and the creation with
 * its idempotency key — the caller's, or one made for this creation, named in the hint when the
 * network fails so a retry finds the same charge. What to do after a failure is a typed step
 * (next-step.ts) that each door words.
 */
import { randomUUID } from 'node:crypto'
import type { ApiClient } from '../api/types.js'
import { type ChargeCreateInput, completeRequest, readCreateInput } from '../charges/create-input.js'
import { resolvePayerTaxNumber } from '../charges/payer.js'
import type { WaitClock } from '../charges/wait.js'
import type { Charge } from '../contract/schemas.js'
import type { Environment } from '../contract/schemas.js'
import { ApiError, NetworkError, type WaitError, EXIT, type ExitCode } from '../errors.js'
import type { IO } from '../output/io.js'
import { type ChargeWait, runChargeWait } from './wait-charge.js'

export interface CreateChargeOptions {
  input: ChargeCreateInput
  environment: Environment
}

export interface CreateChargeContext {
  client: ApiClient
  /** How the door names the tax number in the payer's notes and errors (default the CLI's flag; payer.ts). */
  payerWords?: { label: string; name: string }
  canPrompt: boolean
  ask: (question: string) => Promise<string>
  note: (text: string) => void
}

export interface CreatedCharge {
  charge: Charge
  /** false: an idempotent replay returned an existing charge (200). */
  created: boolean
  /**
   * A replay returned a charge nobody should pay (again): its QR must not reach a payer (spec: a
   * canceled QR stays technically payable, the client removes it from view).
   */
  notPayable: boolean
}

export async function createCharge(opts: CreateChargeOptions, ctx: CreateChargeContext): Promise<CreatedCharge> {
  const input = readCreateInput(opts.input)
  const idempotencyKey = input.idempotencyKey ?? randomUUID()
  // A generated test CPF follows the order id (else the idempotency key, the one a network
  // failure's hint names): a rerun with the same inputs sends the same body, and gets the same charge.
  const externalId = input.body.externalId
  const seed = externalId !== undefined ? `externalId\u0000${externalId}` : `idempotency-key\u0000${idempotencyKey}`
  const payerTaxNumber = await resolvePayerTaxNumber(input.body.payerTaxNumber, { environment: opts.environment, canPrompt: ctx.canPrompt, ask: ctx.ask, note: ctx.note, seed, words: ctx.payerWords })
  const body = completeRequest(input.body, payerTaxNumber)
  // With --split, the same request (plus its destinations) goes to POST /v1/split-charges (spec 4.8).
  const { split, ...plain } = body
  const request = split ? ctx.client.createSplitCharge({ ...plain, split }, { idempotencyKey }) : ctx.client.createCharge(plain, { idempotencyKey })
  const { charge, created } = await request.catch((error: unknown) => {
    if (error instanceof ApiError && error.apiCode === 'external_id_conflict' && body.externalId !== undefined) {
      // Not "use another external id": the order already has its charge, and a second one would charge it twice.
      const next = { do: 'see_order_charge', externalId: body.externalId } as const
      throw new ApiError({ status: error.status, code: error.apiCode, message: error.message, details: error.details, requestId: error.requestId, next })
    }
    if (!(error instanceof NetworkError)) throw error
    throw new NetworkError(error.message, { cause: error, next: { do: 'retry_create', idempotencyKey } })
  })
  return { charge, created, notPayable: !created && !PAYABLE.includes(charge.status) }
}

export interface AfterCreateContext {
  io: IO
  clock: WaitClock
  getCharge: (id: string) => Promise<Charge>
  note: (text: string) => void
}

/**
 * What follows a creation: a charge that is not payable is said so and ends in exit 5, unless it
 * already is in the state --wait asks for; otherwise --wait polls. The charge to print, and what
 * to report after printing it.
 */
export async function afterCreate(outcome: CreatedCharge, wait: ChargeWait | undefined, ctx: AfterCreateContext): Promise<{ charge: Charge; failure?: WaitError | ExitCode }> {
  const { charge } = outcome
  if (outcome.notPayable) {
    ctx.note(notPayableNote(charge))
    if (!wait || charge.status !== wait.until) return { charge, failure: EXIT.conflict }
  }
  if (!wait) return { charge }
  return runChargeWait({ io: ctx.io, clock: ctx.clock, getCharge: ctx.getCharge, wait, id: charge.id, initial: charge })
}

/** The states in which a charge's QR may be shown to a payer. */
export const PAYABLE: readonly Charge['status'][] = ['created', 'awaiting_payment']

const NOT_PAYABLE_WHY: Partial<Record<Charge['status'], string>> = {
  canceled: 'is canceled: its QR stays technically payable, so do not show it to the payer',
  expired: 'is expired: its QR can no longer be paid',
  failed: 'failed: it has no payable QR',
  paid_pending_settlement: 'is already paid (paid_pending_settlement)',
  settled: 'is already paid and settled',
  refunded: 'was paid and refunded',
}

/** Why a replay's charge is not payable, in any door's words: `The existing charge … is canceled: …`. `withExternalId: false` names it by its id only. */
export function notPayableReason(charge: Charge, withExternalId = true): string {
  const name = withExternalId && charge.externalId ? `for external id ${JSON.stringify(charge.externalId)} (${charge.id})` : charge.id
  return `The existing charge ${name} ${NOT_PAYABLE_WHY[charge.status] ?? `is ${charge.status}`}.`
}

/** The CLI's stderr line for a replay that returned a charge nobody should pay (again). */
export function notPayableNote(charge: Charge): string {
  return `${notPayableReason(charge)} No QR shown; exit 5. To charge again, create a new charge with another --external-id.`
}
