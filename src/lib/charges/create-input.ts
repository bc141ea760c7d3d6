/**
 * A charge to create, as typed by any door (no flag or argument names): checked with the
 * contract's schemas before any request (CLI.md, Validation). A bad input is one InputError naming
 * every bad field by its path (`amountInCents`, `metadata.color`, `split`, `idempotencyKey`); the
 * CLI names them as its flags (`--amount (amountInCents)`), `svc mcp` as its tool's arguments. The
 * payer's tax number may still be missing here: payer.ts decides whether to prompt, generate or
 * refuse.
 */
import { type ChargeCreateRequest, ChargeCreateRequestSchema, IdempotencyKeySchema } from '../contract/schemas.js'
import { SplitChargeCreateRequestSchema } from '../contract/split-charges.js'
import type { SplitShare } from '../domain/split.js'
import { stripFieldName } from './flag-issues.js'
import { InputError, type InputIssue } from './operator-input.js'

export interface ChargeCreateInput {
  amountInCents: number
  payerTaxNumber?: string
  payerName?: string
  externalId?: string
  description?: string
  metadata?: Record<string, string>
  /** The destinations of a split charge (POST /v1/split-charges, spec 4.8). */
  split?: SplitShare[]
  /** Default: one made for this creation. */
  idempotencyKey?: string
}

/** The request; with `split`, a split charge's (spec 4.8). */
export type CreateBody = Omit<ChargeCreateRequest, 'payerTaxNumber'> & { payerTaxNumber?: string; split?: SplitShare[] }

export interface CreateInput {
  body: CreateBody
  idempotencyKey?: string
}

/** The split's issue in a person's words (the schema's say `shareBps`, and not which wallet is twice). */
function splitIssue(shares: SplitShare[]): InputIssue | undefined {
  const parsed = SplitChargeCreateRequestSchema.shape.split.safeParse(shares)
  if (parsed.success) return undefined
  const issue = parsed.error.issues[0]!
  const sum = shares.reduce((total, s) => total + s.shareBps, 0)
  if (issue.message.includes('add up to')) return { path: 'split', message: `the shares must add up to 10000 basis points; these add up to ${sum}` }
  if (issue.message.includes('each wallet')) {
    const twice = shares.find((s, i) => shares.findIndex((o) => o.wallet === s.wallet) !== i)
    return { path: 'split', message: `each wallet may appear once; ${twice?.wallet ?? 'one'} is given twice` }
  }
  return { path: 'split', message: stripFieldName(issue.message, String(issue.path.at(-1) ?? 'split')) }
}

/** Zod's issues on a request object, one per path, the field's name dropped from the message (the path says it). */
function schemaIssues(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): InputIssue[] {
  const seen = new Set<string>()
  const issues: InputIssue[] = []
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.')
    if (seen.has(path)) continue
    seen.add(path)
    issues.push({ path, message: stripFieldName(issue.message, path) })
  }
  return issues
}

/**
 * Checks every field at once; throws an InputError naming each bad one. `unread`: fields the door
 * was given but could not read (an amount that is no integer), already said in its own words and
 * not checked again.
 */
export function readCreateInput(input: ChargeCreateInput, unread: ReadonlySet<string> = new Set()): CreateInput {
  const issues: InputIssue[] = []
  const { idempotencyKey, split, ...fields } = input
  const body: CreateBody = { ...fields, ...(split?.length ? { split } : {}) }
  for (const key of Object.keys(body) as Array<keyof CreateBody>) if (body[key] === undefined) delete body[key]
  const splitProblem = body.split && !unread.has('split') ? splitIssue(body.split) : undefined
  if (splitProblem) issues.push(splitProblem)
  // The tax number is checked here only when given; its absence is payer.ts's decision.
  const schema = body.payerTaxNumber === undefined ? ChargeCreateRequestSchema.omit({ payerTaxNumber: true }) : ChargeCreateRequestSchema
  const parsed = schema.safeParse(body)
  if (!parsed.success) issues.push(...schemaIssues(parsed.error).filter((i) => !unread.has(i.path.split('.')[0]!)))
  if (idempotencyKey !== undefined) {
    const key = IdempotencyKeySchema.safeParse(idempotencyKey)
    if (!key.success) issues.push({ path: 'idempotencyKey', message: stripFieldName(key.error.issues[0]!.message, 'Idempotency-Key') })
  }
  if (issues.length > 0 || unread.size > 0) throw new InputError(issues)
  return { body, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) }
}

/** The final request once the tax number is known, validated again as a whole. Throws InputError. */
export function completeRequest(body: CreateBody, payerTaxNumber: string): ChargeCreateRequest & { split?: SplitShare[] } {
  const full = { ...body, payerTaxNumber }
  const parsed = ChargeCreateRequestSchema.safeParse(full)
  if (!parsed.success) throw new InputError(schemaIssues(parsed.error))
  return full
}
