/**
 * The payer's tax number is required by the API (spec 2.1). When it is not given (CLI.md): ask
 * on a terminal; in the test environment without a terminal, use a generated valid CPF and say
 * so; otherwise refuse with exit 2, naming the field to pass in the door's words (the CLI's flag
 * unless the door gives its own).
 *
 * The generated CPF is derived from the request's identity (its externalId, else its
 * idempotency key), never drawn at random: a rerun with the same inputs sends the same body, so
 * the service returns the first charge instead of answering `external_id_conflict` (or an
 * idempotency conflict) to a body that differs only by a CPF nobody chose.
 */
import { createHash } from 'node:crypto'
import { isValidCpf } from '@brazilian-utils/brazilian-utils/is-valid-cpf'
import type { Environment } from '../contract/schemas.js'
import { isValidTaxNumber } from '../domain/tax-number.js'
import { UsageError } from '../errors.js'
import { flagLabel } from './flag-issues.js'

export interface PayerContext {
  environment: Environment
  canPrompt: boolean
  /** Asks one question on the terminal and returns the answer. */
  ask: (question: string) => Promise<string>
  /** A note for the user on stderr. */
  note: (text: string) => void
  /**
   * What makes the request the same request (`externalId:…`, else `idempotency-key:…`): the
   * generated test CPF is derived from it. Without one, a random CPF is drawn.
   */
  seed?: string
  /**
   * How the door names the field in its sentences: `label` in an error (default the CLI's
   * `--payer-tax-number (payerTaxNumber)`), `name` in a note or hint (default `--payer-tax-number`).
   */
  words?: { label: string; name: string }
}

const CLI_WORDS = { label: flagLabel('payer-tax-number', 'payerTaxNumber'), name: '--payer-tax-number' }
const PROMPT_TRIES = 3

async function libraryCpf(): Promise<string> {
  const { generateCpf } = await import('@brazilian-utils/brazilian-utils/generate-cpf')
  return generateCpf()
}

/**
 * A valid CPF that depends only on `seed`: nine digits from its SHA-256, then the check digits
 * that the library of record accepts (one of the hundred endings is valid; tried, not computed
 * by hand). Nine equal digits, which no CPF may have, take the next hash.
 */
export function testCpfFrom(seed: string): string {
  for (let round = 0; ; round++) {
    const hash = createHash('sha256').update(`svc test CPF\u0000${round}\u0000${seed}`).digest()
    const base = Array.from(hash.subarray(0, 9), (byte) => String(byte % 10)).join('')
    if (/^(\d)\1{8}$/.test(base)) continue
    for (let check = 0; check < 100; check++) {
      const cpf = base + String(check).padStart(2, '0')
      if (isValidCpf(cpf)) return cpf
    }
  }
}

function formatCpf(cpf: string): string {
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`
}

export async function resolvePayerTaxNumber(given: string | undefined, ctx: PayerContext): Promise<string> {
  if (given !== undefined) return given
  const { label, name } = ctx.words ?? CLI_WORDS
  if (ctx.canPrompt) {
    // A typo at the prompt is asked again (a few times; Enter gives up), as a person would expect.
    for (let attempt = 1; ; attempt++) {
      const answer = (await ctx.ask('Payer tax number (CPF or CNPJ, required by the payment provider): ')).trim()
      if (!answer) throw new UsageError(`${label} is required.`, { field: label, hint: `Pass ${name}, e.g. ${name} 123.456.789-09.` })
      if (isValidTaxNumber(answer)) return answer
      if (attempt >= PROMPT_TRIES) {
        throw new UsageError(`Invalid ${label}; nothing was sent.`, {
          details: [{ field: label, message: 'is not a valid CPF or CNPJ (check digits do not match)' }],
          hint: `Check the number, or pass it with ${name}.`,
        })
      }
      ctx.note('Not a valid CPF or CNPJ (the check digits do not match). Try again, or press Enter to stop.')
    }
  }
  if (ctx.environment === 'test') {
    const cpf = ctx.seed === undefined ? await libraryCpf() : testCpfFrom(ctx.seed)
    const same = ctx.seed === undefined ? '' : '; the same inputs give the same CPF, so a rerun sends the same body'
    ctx.note(`No ${name} given: using the generated test CPF ${formatCpf(cpf)} (test environment only${same}).`)
    return cpf
  }
  throw new UsageError(`${label} is required with a live key when no terminal is attached to ask for it.`, {
    field: label,
    hint: `Pass ${name} with the payer's CPF or CNPJ.`,
  })
}
