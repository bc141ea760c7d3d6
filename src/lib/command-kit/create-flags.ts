/**
 * The CLI's edge of a charge's creation (charges/create-input.ts): `charges create`'s text flags
 * read into the typed input, and every issue named as the flag the user typed with the API field
 * it feeds (`--amount (amountInCents): must be at least 1000`), so a bad value is fixed without
 * reading the spec. Every issue is said at once, as one usage error (exit 2), and nothing is sent.
 */
import { type ChargeCreateInput, readCreateInput } from '../charges/create-input.js'
import { type FlagIssue, flagLabel, flagsError } from '../charges/flag-issues.js'
import { InputError, type InputIssue } from '../charges/operator-input.js'
import type { SplitShare } from '../domain/split.js'

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

const HINT = 'See `svc charges create --help` for the rules and examples.'

/** The input's field → the flag that sets it, when not the field in kebab-case. */
const FLAG_OF: Readonly<Record<string, string>> = { amountInCents: 'amount', idempotencyKey: 'idempotency-key' }

/** `amountInCents` → `--amount (amountInCents)`, `metadata.color` → `--metadata (metadata.color)`; the key is the header it is sent as. */
export function createFlagLabel(path: string): string {
  if (path === 'idempotencyKey') return flagLabel('idempotency-key', 'Idempotency-Key')
  if (path === 'split') return flagLabel('split')
  const top = path.split('.')[0]!
  return flagLabel(FLAG_OF[top] ?? top.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), path)
}

/** An InputError of a creation in the CLI's words (one usage error); anything else as it is. */
export function asCreateFlagsError(e: unknown, earlier: FlagIssue[] = []): unknown {
  if (!(e instanceof InputError)) return e
  return flagsError([...earlier, ...e.issues.map((i: InputIssue) => ({ field: createFlagLabel(i.path), message: i.message }))], HINT)
}

/** Integer centavos only: `1500` is R$ 15,00; `15.00`, `1e3` and `R$ 15` are refused, never guessed. */
export function parseAmount(raw: string): number | FlagIssue {
  const text = raw.trim()
  if (/^-?\d+$/.test(text)) return Number(text)
  return { field: createFlagLabel('amountInCents'), message: `must be an integer number of centavos (1500 = R$ 15,00), not "${raw}"` }
}

/**
 * `key=value` pairs (the value may contain `=`); a key given twice is an error, not a silent
 * overwrite. Any key is data, `__proto__` included: the pairs go through a Map and
 * Object.fromEntries, which defines own properties where `out[key] = value` would hit the
 * prototype setter and drop the entry.
 */
export function parseMetadata(pairs: string[]): Record<string, string> | FlagIssue {
  const field = createFlagLabel('metadata')
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
 * `--split WALLET=BPS` values → the destinations of a split charge. Each value is read here: the
 * share follows the last `=`; a wallet may not hold `=` (`a=b=5000` would be ambiguous),
 * whitespace or control characters (the API takes any string, but no wallet address has them),
 * and has up to 128 characters; a share is an integer from 1 to 10000 basis points. An issue with
 * one value is labelled `--split VALUE`. The destinations as a whole (2 to 10, adding up to 10000,
 * each wallet once) are the input's rules (create-input.ts).
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
  return shares
}

function isIssue(v: unknown): v is FlagIssue {
  return typeof v === 'object' && v !== null && 'field' in v && 'message' in v
}

/** The flags as the typed input, checked as a whole before anything is sent; throws one UsageError (exit 2) naming each bad flag. */
export function createInputFromFlags(flags: CreateFlags): ChargeCreateInput {
  const amount = parseAmount(flags.amount)
  const metadata = flags.metadata?.length ? parseMetadata(flags.metadata) : undefined
  const split = flags.split?.length ? parseSplit(flags.split) : undefined
  const unread = new Map<string, FlagIssue>()
  if (isIssue(amount)) unread.set('amountInCents', amount)
  if (isIssue(metadata)) unread.set('metadata', metadata)
  if (isIssue(split)) unread.set('split', split)
  const input: ChargeCreateInput = {
    amountInCents: isIssue(amount) ? 0 : amount,
    payerTaxNumber: flags['payer-tax-number'],
    payerName: flags['payer-name'],
    externalId: flags['external-id'],
    description: flags.description,
    metadata: isIssue(metadata) ? undefined : metadata,
    split: isIssue(split) ? undefined : split,
    idempotencyKey: flags['idempotency-key'],
  }
  try {
    readCreateInput(input, new Set(unread.keys()))
  } catch (e) {
    throw asCreateFlagsError(e, [...unread.values()])
  }
  return input
}
