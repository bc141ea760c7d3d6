/**
 * `charges create` flags → a validated ChargeCreateRequest and Idempotency-Key, checked with
 * the contract's schemas before any request (CLI.md, Validation). The payer's tax number may
 * still be missing here: payer.ts decides whether to prompt, generate or refuse.
 */
import { type ChargeCreateRequest, ChargeCreateRequestSchema, IdempotencyKeySchema } from '../contract/schemas.js'
import { SplitChargeCreateRequestSchema } from '../contract/split-charges.js'
import type { SplitShare } from '../domain/split.js'
import { type FlagIssue, flagLabel, flagsError, issuesFromZod, stripFieldName } from './flag-issues.js'

export interface CreateFlags {
  amount: string
  'payer-tax-number'?: string
  'payer-name'?: string
  'external-id'?: string
  description?: string
  metadata?: string[]
  'idempotency-key'?: string
  /** `WALLET=BPS`, repeated: a split charge (POST /v1/split-charges). */
  split?: string[]
}

/** The request; with `split`, a split charge's (spec 4.8). */
export type CreateBody = Omit<ChargeCreateRequest, 'payerTaxNumber'> & { payerTaxNumber?: string; split?: SplitShare[] }

export interface CreateInput {
  body: CreateBody
  idempotencyKey?: string
}

/** API field → the flag that sets it. */
export const CREATE_FLAG_OF: Record<string, string> = {
  amountInCents: 'amount',
  payerTaxNumber: 'payer-tax-number',
  payerName: 'payer-name',
  externalId: 'external-id',
  description: 'description',
  metadata: 'metadata',
}

const HINT = 'See `svc charges create --help` for the rules and examples.'

/** Integer centavos only: `1500` is R$ 15,00; `15.00`, `1e3` and `R$ 15` are refused, never guessed. */
export function parseAmount(raw: string): number | FlagIssue {
  const text = raw.trim()
  if (/^-?\d+$/.test(text)) return Number(text)
  return {
    field: flagLabel('amount', 'amountInCents'),
    message: `must be an integer number of centavos (1500 = R$ 15,00), not "${raw}"`,
  }
}

/**
 * `key=value` pairs (the value may contain `=`); a key given twice is an error, not a silent
 * overwrite. Any key is data, `__proto__` included: the pairs go through a Map and
 * Object.fromEntries, which defines own properties where `out[key] = value` would hit the
 * prototype setter and drop the entry.
 */
export function parseMetadata(pairs: string[]): Record<string, string> | FlagIssue {
  const field = flagLabel('metadata', 'metadata')
  const out = new Map<string, string>()
  for (const pair of pairs) {
    const eq = pair.indexOf('=')
    if (eq < 0) return { field, message: `expected key=value, got "${pair}"` }
    const key = pair.slice(0, eq).trim()
    if (!key) return { field, message: `the key is empty in "${pair}"` }
    if (out.has(key)) return { field, message: `key "${key}" is given twice` }
    out.set(key, pair.slice(eq + 1))
  }
  return Object.fromEntries(out)
}

/**
 * `--split WALLET=BPS` values → the destinations of a split charge, checked as the API checks
 * them (2 to 10 destinations, integer shares from 1 to 10000 basis points adding up to 10000,
 * each wallet once, up to 128 characters). The share follows the last `=`; a wallet may not hold
 * `=` (`a=b=5000` would be ambiguous), whitespace or control characters (the API takes any
 * string, but no wallet address has them). An issue with one value is labelled `--split VALUE`.
 */
export function parseSplit(pairs: string[]): SplitShare[] | FlagIssue {
  const field = flagLabel('split')
  const of = (pair: string) => `${field} ${/[\s\p{Cc}]/u.test(pair) ? JSON.stringify(pair) : pair}`
  const shares: SplitShare[] = []
  for (const pair of pairs) {
    const eq = pair.lastIndexOf('=')
    if (eq < 0) return { field: of(pair), message: 'expected WALLET=BPS (e.g. wallet-a=7000 for 70 %)' }
    const wallet = pair.slice(0, eq).trim()
    const bps = pair.slice(eq + 1).trim()
    if (!wallet) return { field: of(pair), message: 'the wallet is empty' }
    if (/[=\s\p{Cc}]/u.test(wallet)) return { field: of(pair), message: `the wallet ${JSON.stringify(wallet)} may not contain "=", whitespace or control characters` }
    if (wallet.length > 128) return { field: of(pair.length > 48 ? `${pair.slice(0, 40)}…` : pair), message: `the wallet has ${wallet.length} characters; at most 128` }
    if (!/^\d+$/.test(bps)) return { field: of(pair), message: `the share must be an integer number of basis points from 1 to 10000 (10000 = 100 %), not "${bps}"` }
    if (Number(bps) < 1 || Number(bps) > 10_000) return { field: of(pair), message: 'the share must be 1 to 10000 basis points' }
    shares.push({ wallet, shareBps: Number(bps) })
  }
  const parsed = SplitChargeCreateRequestSchema.shape.split.safeParse(shares)
  if (parsed.success) return shares
  const issue = parsed.error.issues[0]!
  const sum = shares.reduce((total, s) => total + s.shareBps, 0)
  if (issue.message.includes('add up to')) return { field, message: `the shares must add up to 10000 basis points; these add up to ${sum}` }
  if (issue.message.includes('each wallet')) {
    const twice = shares.find((s, i) => shares.findIndex((o) => o.wallet === s.wallet) !== i)
    return { field, message: `each wallet may appear once; ${twice?.wallet ?? 'one'} is given twice` }
  }
  return { field, message: stripFieldName(issue.message, String(issue.path.at(-1) ?? 'split')) }
}

function isIssue(v: unknown): v is FlagIssue {
  return typeof v === 'object' && v !== null && 'field' in v && 'message' in v
}

/** Validates every flag at once; throws a UsageError (exit 2) naming each bad flag and its API field. */
export function parseCreateFlags(flags: CreateFlags): CreateInput {
  const issues: FlagIssue[] = []
  const amount = parseAmount(flags.amount)
  if (isIssue(amount)) issues.push(amount)
  const metadata = flags.metadata?.length ? parseMetadata(flags.metadata) : undefined
  if (isIssue(metadata)) issues.push(metadata)
  const split = flags.split?.length ? parseSplit(flags.split) : undefined
  if (isIssue(split)) issues.push(split)

  const body: CreateBody = {
    amountInCents: isIssue(amount) ? 0 : amount,
    ...(flags['payer-tax-number'] !== undefined ? { payerTaxNumber: flags['payer-tax-number'] } : {}),
    ...(flags['payer-name'] !== undefined ? { payerName: flags['payer-name'] } : {}),
    ...(flags['external-id'] !== undefined ? { externalId: flags['external-id'] } : {}),
    ...(flags.description !== undefined ? { description: flags.description } : {}),
    ...(metadata && !isIssue(metadata) ? { metadata } : {}),
    ...(split && !isIssue(split) ? { split } : {}),
  }
  // The tax number is checked here only when given; its absence is payer.ts's decision.
  const schema = body.payerTaxNumber === undefined ? ChargeCreateRequestSchema.omit({ payerTaxNumber: true }) : ChargeCreateRequestSchema
  const parsed = schema.safeParse(body)
  if (!parsed.success) {
    for (const issue of issuesFromZod(parsed.error, CREATE_FLAG_OF)) {
      // An amount that did not even parse already has its own, clearer issue.
      if (isIssue(amount) && issue.field.startsWith('--amount')) continue
      issues.push(issue)
    }
  }

  const idempotencyKey = flags['idempotency-key']
  if (idempotencyKey !== undefined) {
    const key = IdempotencyKeySchema.safeParse(idempotencyKey)
    if (!key.success) {
      issues.push({ field: flagLabel('idempotency-key', 'Idempotency-Key'), message: stripFieldName(key.error.issues[0]!.message, 'Idempotency-Key') })
    }
  }

  if (issues.length > 0) throw flagsError(issues, HINT)
  return { body, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) }
}

/** The final request once the tax number is known, validated again as a whole. */
export function completeRequest(body: CreateBody, payerTaxNumber: string): ChargeCreateRequest & { split?: SplitShare[] } {
  const full = { ...body, payerTaxNumber }
  const parsed = ChargeCreateRequestSchema.safeParse(full)
  if (!parsed.success) throw flagsError(issuesFromZod(parsed.error, CREATE_FLAG_OF), HINT)
  return full
}
